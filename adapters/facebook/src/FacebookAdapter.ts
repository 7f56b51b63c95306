import { Adapter, type AdapterConfig, OAuth2, PublishError } from "@herald/adapter-kit"
import { Effect, Option, Redacted } from "effect"
import type { HttpClient } from "effect/http"
import * as FacebookClient from "./FacebookClient.ts"
import { apiVersion } from "./FacebookConfig.ts"
import { api, capabilities, limits } from "./FacebookLimits.ts"
import * as InboxHooks from "./internal/inboxHooks.ts"
import * as Request from "./internal/request.ts"
import * as FacebookIcon from "./FacebookIcon.ts"

// Facebook Pages through the Graph API. The connected account is a Page: Facebook Login gives a user
// token, which is made long-lived and then yields the Page's own token, the one every publishing call
// uses (https://developers.facebook.com/docs/pages-api/getting-started). The inbox hooks are
// `internal/inboxHooks.ts`'s.

const network = "facebook"

/** https://developers.facebook.com/docs/permissions */
export const scopes = [
  "pages_show_list",
  "pages_read_engagement",
  "pages_manage_posts",
  "pages_manage_engagement",
  "business_management",
  // The inbox: comments people leave on the Page's posts, and Messenger conversations.
  "pages_read_user_content",
  "pages_messaging",
  // The webhook: installing the app on the Page (`POST /{page-id}/subscribed_apps`) needs it
  // (https://developers.facebook.com/docs/graph-api/reference/page/subscribed_apps).
  "pages_manage_metadata"
] as const

/** The Page to connect: the first one on which the person may create content. */
const choosePage = (pages: ReadonlyArray<FacebookClient.Page>) =>
  pages.find((page) => page.tasks === undefined || page.tasks.includes("CREATE_CONTENT"))

export const make = (config: AdapterConfig.AdapterConfig): Effect.Effect<Adapter.Adapter, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* FacebookClient.make(config)

    /**
     * The first comment, once the post is out. `lookFirst` where a lost try may already have made it (a post
     * found after a crash, a resumed step): the post's comments are read first, and the Page's own with the
     * same text counts. Facebook refusing it for good never fails a post that is out (it is logged); a
     * passing fault or a lost answer fails the step, which is then tried again (looking first).
     */
    const firstComment = (input: Adapter.PublishInput, postId: string, lookFirst: boolean) =>
      Effect.gen(function*() {
        const text = input.post.firstComment
        if (text === null || text.trim() === "") return
        const token = input.account.accessToken
        if (lookFirst) {
          const comments = yield* client.comments(token, postId, undefined)
          const mine = comments.data.some((comment) =>
            comment.from?.id === input.account.networkAccountId && Request.sameMessage(comment.message, text)
          )
          if (mine) return
        }
        yield* client.comment(token, postId, text)
      }).pipe((part) => PublishError.refusalLogged("Facebook did not take the first comment", part))

    const next = (handle: Request.Handle) => Adapter.nextStep(Request.encodeHandle(handle))

    /**
     * Once the post exists, the step ends there: its first comment and (unless Facebook already gave it) its
     * link are each a later step of their own, so a call of theirs that fails (its answer lost in transit
     * included) never posts again.
     */
    const posted = (input: Adapter.PublishInput, postId: string, permalink: string | undefined): Adapter.PublishStep => {
      const text = input.post.firstComment
      if (text !== null && text.trim() !== "") return next({ _tag: "Comment", id: postId })
      return permalink === undefined
        ? next({ _tag: "Link", id: postId })
        : { _tag: "Published", published: { id: postId, url: Request.absoluteUrl(config.webBaseUrl, permalink) } }
    }

    /** The post's link; a passing fault is tried again, a refusal falls back to the post's id under Facebook (logged). */
    const link = (input: Adapter.PublishInput, postId: string) =>
      client.permalink(input.account.accessToken, postId).pipe(
        Effect.map((permalink) => Request.absoluteUrl(config.webBaseUrl, permalink)),
        Effect.catchIf(
          (error) => !error.retryable,
          (error) =>
            Effect.as(
              Effect.logWarning("Facebook published the post but did not give its link", error.message),
              `${config.webBaseUrl}/${encodeURIComponent(postId)}`
            )
        ),
        Effect.map((url): Adapter.PublishStep => ({ _tag: "Published", published: { id: postId, url } }))
      )

    /** A video shows once Facebook has processed it. */
    const advance = Effect.fnUntraced(function*(input: Adapter.PublishInput, videoId: string) {
      const video = yield* client.videoStatus(input.account.accessToken, videoId)
      switch (video.status.video_status) {
        case "ready":
          return posted(input, videoId, video.permalink_url)
        case "error":
          return yield* PublishError.rejected(network, "Facebook could not process the video; check its format (MP4 or MOV)")
        case "expired":
          return yield* PublishError.rejected(network, "the video upload expired before Facebook processed it")
        default:
          return {
            _tag: "Processing",
            handle: Request.encodeHandle({ _tag: "Video", id: videoId }),
            checkAfterMs: Request.videoCheckAfterMs
          } satisfies Adapter.PublishStep
      }
    })

    const reconcile = Effect.fnUntraced(function*(input: Adapter.PublishInput) {
      // A post without text would match any other media-only post: Herald must not guess.
      if (input.post.text.trim() === "") {
        return yield* PublishError.nothingToLookFor(network, "Facebook", "the Page")
      }
      const { accessToken, networkAccountId } = input.account
      const recent = yield* client.recentPosts(accessToken, networkAccountId)
      const match = recent.data.find((post) => Request.sameMessage(post.message, input.post.text))
      if (match === undefined) return Option.none<Adapter.Published>()
      const permalink = match.permalink_url ?? (yield* client.permalink(accessToken, match.id))
      // The lost try may have stopped between the post and its first comment. Reconcile answers the post as it
      // is: a first comment that cannot be made now is logged, not failed.
      yield* Effect.catch(
        firstComment(input, match.id, true),
        (error) => Effect.logWarning("Facebook did not take the first comment", error.message)
      )
      return Option.some<Adapter.Published>({ id: match.id, url: Request.absoluteUrl(config.webBaseUrl, permalink) })
    })

    return Adapter.make({
      network,
      name: "Facebook Pages",
      limits,
      api,
      capabilities,
      icon: FacebookIcon.svg,
      oauth: {
        scopes,
        pkce: false,
        authorizeUrl: ({ redirectUri, state }) =>
          OAuth2.authorizeUrl({
            endpoint: `${config.authBaseUrl}/${apiVersion}/dialog/oauth`,
            clientId: config.clientId,
            redirectUri,
            state,
            scopes,
            scopeSeparator: ","
          }),
        exchange: ({ code, redirectUri }) =>
          Effect.gen(function*() {
            const shortLived = yield* client.userToken({ code, redirectUri })
            const longLived = yield* client.longLivedUserToken(Redacted.make(shortLived.access_token))
            const page = choosePage(yield* client.pages(Redacted.make(longLived.access_token)))
            if (page === undefined) {
              return yield* PublishError.rejected(
                network,
                "the Facebook account manages no Page on which it may create content; grant Herald access to a Page"
              )
            }
            // A Page token read with a long-lived user token has no expiry and no refresh token.
            return {
              accessToken: Redacted.make(page.access_token),
              refreshToken: Option.none(),
              expiresAt: Option.none(),
              scopes
            } satisfies Adapter.Tokens
          }),
        profile: (token) =>
          Effect.map(client.page(token), (page) => ({
            networkAccountId: page.id,
            username: page.username ?? page.id,
            displayName: page.name,
            avatarUrl: page.picture?.data.url ?? null
          }))
      },
      publish: (input) =>
        Effect.gen(function*() {
          const { accessToken, networkAccountId } = input.account
          const plan = Request.plan(input.post)
          switch (plan._tag) {
            case "Text":
              return posted(input, yield* client.feedPost(accessToken, networkAccountId, plan.feed), undefined)
            case "Photos": {
              const photoIds = yield* Effect.forEach(
                plan.photos,
                (photo) => client.uploadPhoto(accessToken, networkAccountId, photo),
                { concurrency: 4 }
              )
              const postId = yield* client.feedPost(accessToken, networkAccountId, Request.feedWithPhotos(plan.message, photoIds))
              return posted(input, postId, undefined)
            }
            case "Video":
              // Its processing is looked at in the next step, so a lost look never uploads the video again.
              return next({ _tag: "Video", id: yield* client.uploadVideo(accessToken, networkAccountId, plan.video) })
          }
        }),
      poll: (input, handle) => {
        const decoded = Request.decodeHandle(handle)
        switch (decoded?._tag) {
          case undefined:
            return Effect.fail(PublishError.outcomeUnknown(network, `unrecognised processing handle "${handle}"`))
          case "Video":
            return advance(input, decoded.id)
          case "Comment":
            return Effect.as(firstComment(input, decoded.id, input.resumed === true), next({ _tag: "Link", id: decoded.id }))
          case "Link":
            return link(input, decoded.id)
        }
      },
      reconcile,
      inbox: InboxHooks.make(client, config)
    })
  })
