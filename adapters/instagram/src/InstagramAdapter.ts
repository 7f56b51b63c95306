import { Adapter, type AdapterConfig, OAuth2, type PostVersion, PublishError } from "@herald/adapter-kit"
import { Clock, Effect, Option, Redacted } from "effect"
import type { HttpClient } from "effect/http"
import * as InstagramClient from "./InstagramClient.ts"
import { api, capabilities, limits } from "./InstagramLimits.ts"
import * as Errors from "./internal/errors.ts"
import * as Inbox from "./internal/inbox.ts"
import * as Request from "./internal/request.ts"
import * as Webhook from "./internal/webhook.ts"
import * as InstagramOptions from "./InstagramOptions.ts"
import * as InstagramIcon from "./InstagramIcon.ts"

// Instagram through the "Instagram API with Instagram Login" (no Facebook Page needed). Publishing is
// asynchronous: containers are created, processed by Instagram, then published
// (https://developers.facebook.com/docs/instagram-platform/content-publishing/).

const network = "instagram"

/** https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/business-login */
export const scopes = [
  "instagram_business_basic",
  "instagram_business_content_publish",
  "instagram_business_manage_comments",
  // Reading and answering direct messages (the inbox).
  "instagram_business_manage_messages"
] as const

const scopesOf = (permissions: string | ReadonlyArray<string> | undefined): ReadonlyArray<string> =>
  permissions === undefined
    ? scopes
    : (typeof permissions === "string" ? permissions.split(",") : permissions).map((scope) => scope.trim())

/**
 * The verify token to enter in the App Dashboard's Instagram webhook setup: derived from the app secret,
 * since Herald's config has no field for one.
 */
export const webhookVerifyToken = (config: AdapterConfig.AdapterConfig): string => Webhook.verifyToken(config.clientSecret)

export const make = (config: AdapterConfig.AdapterConfig): Effect.Effect<Adapter.Adapter, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* InstagramClient.make(config)

    // Instagram Login has no refresh token: a valid long-lived token is itself traded for a new one, so
    // it is handed to the core as both the access and the refresh token.
    const tokensOf = Effect.fnUntraced(function*(answer: InstagramClient.LongLivedToken, granted: ReadonlyArray<string>) {
      const now = yield* Clock.currentTimeMillis
      const token = Redacted.make(answer.access_token)
      return {
        accessToken: token,
        refreshToken: Option.some(token),
        expiresAt: Option.some(now + answer.expires_in * 1000),
        scopes: granted
      } satisfies Adapter.Tokens
    })

    /**
     * The first comment, once the post is out. `lookFirst` where an earlier try may already have posted it
     * (a post found after a crash, a resumed step): the media's comments are read first, and one of the
     * account's with the same text counts. Instagram refusing it for good never fails a post that is out (it
     * is logged); a passing fault or a lost answer fails the step, which is then tried again (looking first).
     */
    const firstComment = (input: Adapter.PublishInput, mediaId: string, lookFirst: boolean) =>
      Effect.gen(function*() {
        const text = input.post.firstComment
        if (text === null || text.trim() === "" || input.post.format === "story") return
        const token = input.account.accessToken
        if (lookFirst) {
          const comments = yield* client.comments(token, mediaId, 50)
          const mine = comments.data.some((comment) =>
            (comment.from?.id === input.account.networkAccountId || comment.username === input.account.username) &&
            Request.sameCaption(comment.text, text)
          )
          if (mine) return
        }
        yield* client.comment(token, mediaId, text)
      }).pipe((part) => PublishError.refusalLogged("Instagram did not take the first comment", part))

    /**
     * Once `media_publish` has answered, the step ends: the first comment and the link are each a later step
     * of their own, so a call of theirs that fails (its answer lost in transit included) never publishes again.
     */
    const next = (handle: Request.Handle) => Adapter.nextStep(Request.encodeHandle(handle))
    const published = (input: Adapter.PublishInput, mediaId: string) =>
      next(input.post.firstComment === null || input.post.firstComment.trim() === "" || input.post.format === "story"
        ? { _tag: "Link", id: mediaId }
        : { _tag: "Comment", id: mediaId })

    /** The media's link; a passing fault is tried again, a refusal falls back to the profile (logged). */
    const link = (input: Adapter.PublishInput, mediaId: string) =>
      client.permalink(input.account.accessToken, mediaId).pipe(
        Effect.catchIf(
          (error) => !error.retryable,
          (error) =>
            Effect.as(
              Effect.logWarning("Instagram published the media but did not give its link", error.message),
              `${config.webBaseUrl}/${encodeURIComponent(input.account.username)}/`
            )
        ),
        Effect.map((url): Adapter.PublishStep => ({ _tag: "Published", published: { id: mediaId, url } }))
      )

    /**
     * The media a caption names among the account's recent feed media, with its link. Stories are not
     * listed there and carry no caption, and an empty caption matches any uncaptioned post: neither can be
     * told apart, so Herald must not guess.
     */
    const lookUp = Effect.fnUntraced(function*(input: Adapter.PublishInput) {
      const post: PostVersion.PostVersion = input.post
      if (post.format === "story" || post.text.trim() === "") {
        return yield* PublishError.outcomeUnknown(
          network,
          "Instagram cannot tell whether this post went out (it has no caption to look for); check the account before retrying"
        )
      }
      const recent = yield* client.recentMedia(input.account.accessToken)
      const match = recent.data.find((media) => Request.sameCaption(media.caption, post.text))
      if (match === undefined) return Option.none<Adapter.Published>()
      const url = match.permalink ?? (yield* client.permalink(input.account.accessToken, match.id))
      return Option.some<Adapter.Published>({ id: match.id, url })
    })

    /**
     * Looks for a post an earlier try may have made; when found, its first comment is made sure of too, since
     * that try may have stopped between the two.
     */
    const byCaption = Effect.fnUntraced(function*(input: Adapter.PublishInput) {
      const found = yield* lookUp(input)
      if (Option.isSome(found)) {
        // Reconcile answers the post as it is: a first comment that cannot be made now is logged, not failed.
        yield* Effect.catch(
          firstComment(input, found.value.id, true),
          (error) => Effect.logWarning("Instagram did not take the first comment", error.message)
        )
      }
      return found
    })

    /**
     * A container Instagram says is `PUBLISHED`: its media exists. The container does not name the media it
     * became (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-container,
     * and no field of IG Media names its container), so the media is found by its caption; not found, the
     * outcome is unknown, never "absent", or the container's post would be made again.
     */
    const publishedContainer = (input: Adapter.PublishInput) =>
      Effect.flatMap(byCaption(input), (found) =>
        Option.isSome(found)
          ? Effect.succeed(found.value)
          : Effect.fail(PublishError.outcomeUnknown(
            network,
            "Instagram says the post was published, but it is not among the account's recent media; check the account before retrying"
          )))

    /**
     * The post a lost try may have made. After a `Container` step (the one that calls `media_publish`) the
     * container itself says whether it was published: not yet, the post does not exist and the step may be sent
     * again, whatever the caption; published, its media is found by its caption. After `publish` there is no
     * container to ask, and the media is looked for by its caption alone.
     */
    const reconcile = Effect.fnUntraced(function*(input: Adapter.ReconcileInput) {
      const handle = input.handle === undefined ? undefined : Request.decodeHandle(input.handle)
      if (handle?._tag !== "Container") return yield* byCaption(input)
      const status = yield* client.containerStatus(input.account.accessToken, handle.id)
      if (status.status_code !== "PUBLISHED") return Option.none<Adapter.Published>()
      return Option.some(yield* publishedContainer(input))
    })

    /** One step forward from where publishing stands: wait, build the carousel, or publish. */
    const advance = (
      input: Adapter.PublishInput,
      handle: Request.Handle
    ): Effect.Effect<Adapter.PublishStep, PublishError.PublishError> =>
      Effect.gen(function*() {
        const { accessToken, networkAccountId } = input.account
        const processing: Adapter.PublishStep = {
          _tag: "Processing",
          handle: Request.encodeHandle(handle),
          checkAfterMs: Request.checkAfterMs(input.post)
        }
        if (handle._tag === "Comment") {
          yield* firstComment(input, handle.id, input.resumed === true)
          return next({ _tag: "Link", id: handle.id })
        }
        if (handle._tag === "Link") return yield* link(input, handle.id)
        if (handle._tag === "Children") {
          // A step cut off by a Herald that published the parent within this step may have made the post: look
          // before making another.
          if (input.resumed === true) {
            const found = yield* PublishError.lookingFirst(network, "the carousel", byCaption(input))
            if (Option.isSome(found)) return { _tag: "Published", published: found.value } satisfies Adapter.PublishStep
          }
          const statuses = yield* Effect.forEach(handle.ids, (id) => client.containerStatus(accessToken, id))
          const failed = statuses.find((status) => status.status_code === "ERROR" || status.status_code === "EXPIRED")
          if (failed !== undefined) return yield* Errors.fromContainerStatus(failed.status_code, failed.status)
          if (statuses.some((status) => status.status_code !== "FINISHED")) return processing
          const parent = yield* client.createContainer(
            accessToken,
            networkAccountId,
            Request.carouselParent(input.post.text, handle.ids)
          )
          return next({ _tag: "Container", id: parent })
        }
        const status = yield* client.containerStatus(accessToken, handle.id)
        switch (status.status_code) {
          case "IN_PROGRESS":
            return processing
          case "FINISHED":
            return published(input, yield* client.publishContainer(accessToken, networkAccountId, handle.id))
          case "PUBLISHED":
            // An earlier `media_publish` went through but its answer never arrived.
            return { _tag: "Published", published: yield* publishedContainer(input) } satisfies Adapter.PublishStep
          default:
            return yield* Errors.fromContainerStatus(status.status_code, status.status)
        }
      })

    return Adapter.make({
      network,
      name: "Instagram",
      limits,
      api,
      capabilities,
      icon: InstagramIcon.svg,
      options: InstagramOptions.options,
      oauth: {
        scopes,
        pkce: false,
        authorizeUrl: ({ redirectUri, state }) =>
          OAuth2.authorizeUrl({
            endpoint: `${config.authBaseUrl}/oauth/authorize`,
            // Meta's login dialogs take the scopes comma-separated.
            scopes,
            scopeSeparator: ",",
            clientId: config.clientId,
            redirectUri,
            state
          }),
        exchange: ({ code, redirectUri }) =>
          Effect.gen(function*() {
            const shortLived = yield* client.shortLivedToken({ code, redirectUri })
            const longLived = yield* client.longLivedToken(Redacted.make(shortLived.access_token))
            return yield* tokensOf(longLived, scopesOf(shortLived.permissions))
          }),
        refresh: (token) =>
          client.refreshToken(token).pipe(
            Effect.flatMap((answer) => tokensOf(answer, scopes)),
            // An expired long-lived token cannot be refreshed: only a new connection helps.
            Effect.mapError((error) =>
              error.reason._tag === "AuthExpired"
                ? PublishError.needsReconnect(network, `${error.reason.message}; connect the account again`)
                : error
            )
          ),
        profile: (token) =>
          Effect.map(client.me(token), (me) => ({
            networkAccountId: String(me.user_id),
            username: me.username,
            displayName: me.name ?? null,
            avatarUrl: me.profile_picture_url ?? null
          }))
      },
      publish: (input) =>
        Effect.gen(function*() {
          const { accessToken, networkAccountId } = input.account
          const plan = Request.plan(input.post)
          if (plan._tag === "Single") {
            // `media_publish` is always the `Container` step's, whose handle names the container reconcile asks.
            return next({ _tag: "Container", id: yield* client.createContainer(accessToken, networkAccountId, plan.container) })
          }
          const ids = yield* Effect.forEach(
            plan.children,
            (params) => client.createContainer(accessToken, networkAccountId, params),
            { concurrency: 4 }
          )
          return yield* advance(input, { _tag: "Children", ids })
        }),
      poll: (input, handle) => {
        const decoded = Request.decodeHandle(handle)
        return decoded === undefined
          ? Effect.fail(PublishError.outcomeUnknown(network, `unrecognised processing handle "${handle}"`))
          : advance(input, decoded)
      },
      reconcile,
      // Only the `Container` step calls `media_publish`: the publish step and a carousel's `Children` step end
      // once their container is made.
      makesPost: (handle) => Request.decodeHandle(handle)?._tag === "Container",
      // The webhook only says which accounts have news; the inbox is still read by `fetch`.
      inbox: { ...Inbox.make(client), webhook: Webhook.make(config) }
    })
  })
