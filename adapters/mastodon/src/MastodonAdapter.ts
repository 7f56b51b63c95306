import {
  Adapter,
  type AdapterConfig,
  Connect,
  type Limits,
  MediaDownload,
  OAuth2,
  type PostVersion,
  PublishError
} from "@herald/adapter-kit"
import { Clock, Effect, Option, Redacted } from "effect"
import { HttpClient } from "effect/http"
import * as MastodonClient from "./MastodonClient.ts"
import * as MastodonIcon from "./MastodonIcon.ts"
import { api, capabilities, defaults, limits, limitsOf } from "./MastodonLimits.ts"
import * as MastodonOptions from "./MastodonOptions.ts"
import * as Html from "./internal/html.ts"
import * as Inbox from "./internal/inbox.ts"
import * as Request from "./internal/request.ts"

/**
 * Mastodon, on any instance: Herald registers itself on an instance the first time an account there connects
 * (`POST /api/v1/apps`), then OAuth with PKCE on that instance. A post is one status (`POST /api/v1/statuses`
 * with an `Idempotency-Key`, so a resend after a lost answer gets the first status back), its media uploaded
 * first (`POST /api/v2/media` with alt text as `description`; processed asynchronously and polled), and its
 * thread and first comment replies chained under it, each its own step.
 */

const network = "mastodon"

/**
 * What Herald asks of an account (https://docs.joinmastodon.org/api/oauth-scopes/): its profile, to read its
 * statuses (the look-up after a lost answer, conversations), to post statuses and media, and mentions.
 */
export const scopes = ["read:accounts", "read:statuses", "read:notifications", "write:statuses", "write:media"] as const

/** How long an instance's limits are kept before they are read again. */
export const limitsCacheMillis = 60 * 60 * 1000

/** Media still processing are checked again after this long; a video takes seconds to minutes. */
const mediaCheckMillis = 2_000

export const make = (config: AdapterConfig.AdapterConfig): Effect.Effect<Adapter.Adapter, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* MastodonClient.make()
    const http = yield* HttpClient.HttpClient

    /** An instance's address without a trailing slash; an account stored without one is on the configured instance. */
    const instance = (server: string | null | undefined) => (server ?? config.apiBaseUrl).replace(/\/+$/, "")
    const base = (account: Adapter.Account) => instance(account.server)

    const profile = (accessToken: Redacted.Redacted<string>, context?: Adapter.ServerContext) =>
      Effect.map(client.verifyCredentials(instance(context?.server), accessToken), (account): Adapter.Profile => ({
        // Ids are unique on their instance only: the host (of the account's page) makes them unique in Herald.
        networkAccountId: `${account.id}@${Request.hostOf(account.url ?? instance(context?.server))}`,
        username: account.username,
        displayName: account.display_name === undefined || account.display_name === "" ? null : account.display_name,
        avatarUrl: account.avatar ?? null
      }))

    /** Each instance's limits, read from `/api/v2/instance` at most once an hour. */
    const cached = new Map<string, { readonly until: number; readonly limits: Limits.Limits }>()
    const limitsFor = Effect.fnUntraced(function*(server: string) {
      const address = instance(server)
      const now = yield* Clock.currentTimeMillis
      const kept = cached.get(address)
      if (kept !== undefined && kept.until > now) return kept.limits
      const answer = yield* client.instance(address)
      const statuses = answer.configuration?.statuses
      const media = answer.configuration?.media_attachments
      const read = limitsOf({
        maxCharacters: statuses?.max_characters ?? defaults.maxCharacters,
        maxMedia: statuses?.max_media_attachments ?? defaults.maxMedia,
        imageBytes: media?.image_size_limit ?? defaults.imageBytes,
        videoBytes: media?.video_size_limit ?? defaults.videoBytes,
        altCharacters: media?.description_limit ?? defaults.altCharacters
      })
      cached.set(address, { until: now + limitsCacheMillis, limits: read })
      return read
    })

    /**
     * A media item's bytes from where Herald serves it, within the account's instance's size for its kind
     * (no bound but Herald's own when the instance's limits cannot be read: the instance still refuses).
     */
    const download = (account: Adapter.Account, item: PostVersion.MediaItem) =>
      Effect.flatMap(
        Effect.orElseSucceed(limitsFor(base(account)), () => undefined),
        (read) => MediaDownload.download(http, network, item.url, MediaDownload.maxBytesOf(read?.forms.post.media, item.kind))
      )

    const upload = (account: Adapter.Account, item: PostVersion.MediaItem) =>
      Effect.flatMap(download(account, item), (bytes) =>
        client.uploadMedia(base(account), account.accessToken, {
          bytes,
          mimeType: item.mimeType,
          filename: `${item.id}.${item.kind === "video" ? "mp4" : item.mimeType.split("/")[1] ?? "jpg"}`,
          description: Request.altOf(item)
        }))

    const made = (status: MastodonClient.Status): Request.Made => ({ id: status.id, url: status.url ?? status.uri })

    const published = (root: Request.Made): Adapter.PublishStep => ({ _tag: "Published", published: root })

    const processing = (progress: Request.Progress, checkAfterMs: number): Adapter.PublishStep => ({
      _tag: "Processing",
      handle: Request.encodeProgress(progress),
      checkAfterMs
    })

    /** What follows the status: its replies (thread, first comment) one per step, or nothing. */
    const afterRoot = (input: Adapter.PublishInput, root: Request.Made): Adapter.PublishStep =>
      Request.partsAfter(input.post).length === 0
        ? published(root)
        : processing({ _tag: "Replies", root, parent: root.id, next: 0 }, 0)

    /**
     * The account's status with the post's text that answers nothing: what a lost try made. Media alone
     * matches any other such status: the outcome is then unknown.
     */
    const findRoot = (input: Adapter.PublishInput) =>
      input.post.text.trim() === ""
        ? Effect.fail(PublishError.nothingToLookFor(network, "Mastodon"))
        : Effect.map(
          client.accountStatuses(base(input.account), input.account.accessToken, Request.localId(input.account.networkAccountId)),
          (statuses) =>
            statuses.find((status) => status.in_reply_to_id == null && Html.sameText(Html.toText(status.content), input.post.text))
        )

    const makeRoot = Effect.fnUntraced(function*(input: Adapter.PublishInput, mediaIds: ReadonlyArray<string>) {
      const found = input.resumed === true ? yield* PublishError.lookingFirst(network, "the status", findRoot(input)) : undefined
      if (found !== undefined) return made(found)
      const body = Request.statusBody({ text: input.post.text, settings: Request.settingsOf(input.post), mediaIds })
      const key = Request.idempotencyKey(input.account.networkAccountId, input.post, "root", input.publication)
      return made(yield* client.createStatus(base(input.account), input.account.accessToken, body, key))
    })

    const publish = Effect.fnUntraced(function*(input: Adapter.PublishInput) {
      const uploaded = yield* Effect.forEach(input.post.media, (item) => upload(input.account, item))
      const mediaIds = uploaded.map((media) => media.id)
      // 202 with no `url` yet: the instance is still processing it (https://docs.joinmastodon.org/methods/media/#v2).
      if (uploaded.some((media) => media.url == null)) return processing({ _tag: "Media", mediaIds }, mediaCheckMillis)
      return afterRoot(input, yield* makeRoot(input, mediaIds))
    })

    /**
     * The next step: the media checked until the instance has processed them all, then the status; or the
     * next reply, a thread's follow-up under the one above, the first comment under the status. A `resumed`
     * step looks for what its cut-off try may have made before making it (the `Idempotency-Key` covers a
     * resend within the hour Mastodon keeps it; the look covers a later one).
     */
    const poll = Effect.fnUntraced(function*(input: Adapter.PublishInput, handle: string) {
      const progress = Request.decodeProgress(handle)
      if (progress === undefined) return yield* Effect.fail(PublishError.rejected(network, `unknown publishing handle "${handle}"`))
      if (progress._tag === "Media") {
        const media = yield* Effect.forEach(progress.mediaIds, (id) => client.media(base(input.account), input.account.accessToken, id))
        if (media.some((item) => item.url == null)) return processing(progress, mediaCheckMillis)
        return afterRoot(input, yield* makeRoot(input, progress.mediaIds))
      }
      const parts = Request.partsAfter(input.post)
      const part = parts[progress.next]
      if (part === undefined) return published(progress.root)
      const above = part.kind === "thread" ? progress.parent : progress.root.id
      const own = Request.localId(input.account.networkAccountId)
      const found = input.resumed === true
        ? (yield* PublishError.lookingFirst(network, "the reply", client.context(base(input.account), input.account.accessToken, above)))
          .descendants.find((status) =>
            status.in_reply_to_id === above && status.account.id === own && Html.sameText(Html.toText(status.content), part.text)
          )
        : undefined
      const reply = found ?? (yield* client.createStatus(
        base(input.account),
        input.account.accessToken,
        Request.statusBody({ text: part.text, settings: Request.settingsOf(input.post), inReplyTo: above }),
        Request.idempotencyKey(input.account.networkAccountId, input.post, `reply ${progress.next} ${above}`, input.publication)
      ))
      const next = { ...progress, parent: part.kind === "thread" ? reply.id : progress.parent, next: progress.next + 1 }
      return next.next >= parts.length ? published(progress.root) : processing(next, 0)
    })

    /** The status a lost try made, found by its text among the account's latest; its replies are finished there. */
    const reconcile = Effect.fnUntraced(function*(input: Adapter.PublishInput) {
      const root = yield* findRoot(input)
      if (root === undefined) return Option.none<Adapter.Published>()
      let step = afterRoot(input, made(root))
      while (step._tag === "Processing") step = yield* poll({ ...input, resumed: true }, step.handle)
      return Option.some(step.published)
    })

    return Adapter.make({
      network,
      name: "Mastodon",
      limits,
      api,
      capabilities,
      icon: MastodonIcon.svg,
      options: MastodonOptions.options,
      connect: Connect.instance,
      oauth: {
        scopes,
        // PKCE (S256) since Mastodon 4.3; older instances ignore the challenge and the verifier.
        pkce: true,
        registerApp: ({ redirectUri, server }) =>
          Effect.map(
            client.registerApp(instance(server), { redirectUri, scopes }),
            (app): Adapter.AppClient => ({ clientId: app.client_id, clientSecret: Redacted.make(app.client_secret) })
          ),
        authorizeUrl: ({ client: app, codeChallenge, redirectUri, server, state }) =>
          OAuth2.authorizeUrl({
            endpoint: `${instance(server)}/oauth/authorize`,
            clientId: app?.clientId ?? config.clientId,
            redirectUri,
            state,
            scopes,
            codeChallenge
          }),
        exchange: ({ client: app, code, codeVerifier, redirectUri, server }) =>
          Effect.map(
            client.token(instance(server), {
              grant: { _tag: "AuthorizationCode", code, redirectUri, codeVerifier },
              clientId: app?.clientId ?? config.clientId,
              clientSecret: app?.clientSecret ?? config.clientSecret,
              auth: "body",
              extra: { scope: scopes.join(" ") }
            }),
            (token): Adapter.Tokens => ({
              accessToken: Redacted.make(token.access_token),
              // Mastodon's tokens do not expire and come without a refresh token.
              refreshToken: Option.none(),
              expiresAt: Option.none(),
              scopes: (token.scope ?? scopes.join(" ")).split(" ").filter((scope) => scope !== "")
            })
          ),
        profile
      },
      publish,
      poll,
      reconcile,
      inbox: Inbox.make({ client, base, key: Request.keyOf }),
      limitsFor
    })
  })
