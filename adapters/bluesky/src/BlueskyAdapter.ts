import { Adapter, type AdapterConfig, Connect, MediaDownload, type PostVersion, PublishError } from "@herald/adapter-kit"
import { Clock, Effect, Option, Redacted } from "effect"
import type { HttpClient } from "effect/http"
import * as BlueskyClient from "./BlueskyClient.ts"
import { api, capabilities, limits } from "./BlueskyLimits.ts"
import * as Inbox from "./internal/inbox.ts"
import * as Request from "./internal/request.ts"
import * as RichText from "./internal/richText.ts"
import * as BlueskyOptions from "./BlueskyOptions.ts"
import * as BlueskyIcon from "./BlueskyIcon.ts"

/**
 * Bluesky through the AT Protocol: an app-password session (`com.atproto.server.createSession`, renewed
 * with `refreshSession`), then every post a `com.atproto.repo.createRecord` of an `app.bsky.feed.post`
 * with its facets, images or video uploaded first as blobs, and the thread and first comment as replies
 * chained under it (https://docs.bsky.app/docs/advanced-guides/posts). A post is out once its record is
 * made; each reply that follows it (thread, first comment) is its own step, so publishing a post with
 * replies answers `Processing` and goes on in `poll`, where a failure retries that reply, not the post.
 */

const network = "bluesky"

/** What one inbox fetch reads at most: 4 pages of 50 notifications (a busier minute loses its oldest). */
export const inboxBounds = { pageSize: 50, pages: 4 } as const

/** Access JWTs last about two hours (networks.md §8.1); renewed a little before. */
const sessionMillis = 2 * 60 * 60 * 1000

/** What a person types to connect an account: the handle and an app password (never the account's password). */
export const fields = [
  new Connect.Field({ name: "identifier", label: "Handle", hint: "you.bsky.social", required: true, secret: false }),
  new Connect.Field({
    name: "password",
    label: "App password",
    hint: "Made in Bluesky's Settings > Privacy and security > App passwords",
    required: true,
    secret: true
  })
]

/** A session as the core keeps it: the access JWT, and the refresh JWT that renews it. */
export const tokensOf = (session: BlueskyClient.Session, now: number): Adapter.Tokens => ({
  accessToken: Redacted.make(session.accessJwt),
  refreshToken: Option.some(Redacted.make(session.refreshJwt)),
  expiresAt: Option.some(now + sessionMillis),
  scopes: ["atproto"]
})

export const make = (config: AdapterConfig.AdapterConfig): Effect.Effect<Adapter.Adapter, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* BlueskyClient.make(config)

    const session = (answer: BlueskyClient.Session) => Effect.map(Clock.currentTimeMillis, (now) => tokensOf(answer, now))

    /**
     * Signs in with a handle (or e-mail, or DID) and an app password, once: the session is renewed with its
     * refresh JWT after that, as `createSession` is limited to 30 per 5 minutes and 300 a day per account.
     * The account's server stays null: every call goes through the entryway (`apiBaseUrl`), which routes
     * it to the account's PDS; an account on a PDS of its own is not reachable that way yet.
     */
    const signIn = (identifier: string, appPassword: Redacted.Redacted<string>) =>
      Effect.gen(function*() {
        const answer = yield* client.createSession(identifier.trim().replace(/^@/, ""), appPassword)
        const tokens = yield* session(answer)
        const profile = yield* client.profile(tokens.accessToken)
        return {
          tokens,
          profile: {
            networkAccountId: profile.did,
            username: profile.handle,
            displayName: profile.displayName ?? null,
            avatarUrl: profile.avatar ?? null
          },
          server: null
        } satisfies Adapter.SignedIn
      })

    const published = (account: Adapter.Account, ref: Request.StrongRef): Adapter.Published => ({
      id: ref.uri,
      url: Request.permalink(config.webBaseUrl, account.username, ref.uri)
    })

    /** A text's facets as Bluesky's app finds them, mentions resolved to DIDs (one that does not resolve stays text). */
    const facetsOf = (text: string) => RichText.facetsOf(text, client.resolveHandle)

    /** A media item's bytes from where Herald serves it, within Bluesky's size for its kind. */
    const download = (item: PostVersion.MediaItem) =>
      MediaDownload.download(client.http, network, item.url, MediaDownload.maxBytesOf(limits.forms.post.media, item.kind))

    const upload = (account: Adapter.Account, item: PostVersion.MediaItem) =>
      Effect.gen(function*() {
        const bytes = yield* download(item)
        // Videos go to the PDS as blobs too; Bluesky's video service (video.bsky.app, with job status) is
        // the path its app takes, for transcoding and per-day quotas, and is left for later.
        const blob = yield* client.uploadBlob(account.accessToken, bytes, item.mimeType)
        return { blob, item }
      })

    const createdAt = Effect.map(Clock.currentTimeMillis, (now) => new Date(now).toISOString())

    const makePost = Effect.fnUntraced(function*(
      account: Adapter.Account,
      text: string,
      extra: { readonly embed?: Readonly<Record<string, unknown>> | undefined; readonly reply?: Request.ReplyRef | undefined }
    ) {
      const record = Request.record({ text, facets: yield* facetsOf(text), createdAt: yield* createdAt, ...extra })
      return yield* client.createPost(account.accessToken, account.networkAccountId, record)
    })

    /** Every rule the texts break, refused before anything is sent. */
    const lengthChecked = (texts: ReadonlyArray<string>) => {
      const problems = texts.flatMap((text) => RichText.lengthProblems(text))
      return problems.length === 0 ? Effect.void : Effect.fail(PublishError.rejected(network, problems.join("; ")))
    }

    const processing = (progress: Request.Progress): Adapter.PublishStep => ({
      _tag: "Processing",
      handle: Request.encodeProgress(progress),
      // The next reply can go at once; it is its own step so that a failure there retries it, not the post.
      checkAfterMs: 0
    })

    /** What follows the first post: its replies (thread, first comment) one per step, or nothing. */
    const afterRoot = (input: Adapter.PublishInput, root: Request.StrongRef): Adapter.PublishStep =>
      Request.partsAfter(input.post).length === 0
        ? { _tag: "Published", published: published(input.account, root) }
        : processing({ root, parent: root, next: 0 })

    const publish = Effect.fnUntraced(function*(input: Adapter.PublishInput) {
      yield* lengthChecked([input.post.text, ...Request.partsAfter(input.post).map((part) => part.text)])
      const uploaded = yield* Effect.forEach(input.post.media, (item) => upload(input.account, item))
      const root = yield* makePost(input.account, input.post.text, { embed: Request.embed(uploaded) })
      return afterRoot(input, root)
    })

    /**
     * The next reply: a thread's follow-up answers the one above (`root` stays the first post), the first
     * comment answers the post. On a `resumed` step the reply may already exist (Herald stopped after
     * sending it): it is looked for among the account's records, by its parent and text, and gone on from.
     */
    const poll = Effect.fnUntraced(function*(input: Adapter.PublishInput, handle: string) {
      const progress = Request.decodeProgress(handle)
      if (progress === undefined) return yield* Effect.fail(PublishError.rejected(network, `unknown publishing handle "${handle}"`))
      const parts = Request.partsAfter(input.post)
      const part = parts[progress.next]
      if (part === undefined) return { _tag: "Published", published: published(input.account, progress.root) } as const
      const above = part.kind === "thread" ? progress.parent : progress.root
      const found = input.resumed === true
        ? (yield* PublishError.lookingFirst(
          network,
          "the reply",
          client.recentPosts(input.account.accessToken, input.account.networkAccountId)
        )).find((entry) => entry.value.reply?.parent.uri === above.uri && Request.sameText(part.text, entry.value.text))
        : undefined
      const made = found !== undefined
        ? { uri: found.uri, cid: found.cid }
        : yield* makePost(input.account, part.text, { reply: Request.replyTo(progress.root, above) })
      const next = { root: progress.root, parent: part.kind === "thread" ? made : progress.parent, next: progress.next + 1 }
      return next.next >= parts.length
        ? { _tag: "Published", published: published(input.account, progress.root) } as const
        : processing(next)
    })

    /**
     * The post a lost try made: the account's newest record with the post's text that answers nothing (a
     * thread's follow-ups and first comment are replies). Found, its follow-ups and first comment are
     * finished there, each looked for first (the resumed `poll`), so the post is found whole.
     */
    const reconcile = Effect.fnUntraced(function*(input: Adapter.PublishInput) {
      // Media alone matches any other such post: Herald must not guess.
      if (input.post.text.trim() === "") return yield* PublishError.nothingToLookFor(network, "Bluesky")
      const records = yield* client.recentPosts(input.account.accessToken, input.account.networkAccountId)
      const root = records.find((entry) => entry.value.reply === undefined && Request.sameText(input.post.text, entry.value.text))
      if (root === undefined) return Option.none<Adapter.Published>()
      let step = afterRoot(input, { uri: root.uri, cid: root.cid })
      while (step._tag === "Processing") step = yield* poll({ ...input, resumed: true }, step.handle)
      return Option.some(step.published)
    })

    const inbox: Adapter.InboxHooks = {
      fetch: Effect.fnUntraced(function*({ account, cursor }) {
        const since = cursor === null ? undefined : Inbox.decodeCursor(cursor)
        const seen: Array<BlueskyClient.Notification> = []
        let page: string | undefined
        for (let read = 0; read < inboxBounds.pages; read++) {
          const answer = yield* client.notifications(account.accessToken, inboxBounds.pageSize, page)
          if (since === undefined) {
            seen.push(...answer.notifications)
            break
          }
          seen.push(...answer.notifications.filter((notification) => Inbox.isNew(since, notification)))
          if (answer.cursor === undefined || answer.notifications.some((notification) => Inbox.isOlder(since, notification))) break
          page = answer.cursor
        }
        const next = Inbox.advance(since ?? Inbox.start, seen)
        // A first fetch (or one with a cursor from elsewhere) only learns where "now" is.
        const comments = since === undefined
          ? []
          : seen
            .filter((notification) => Inbox.inboxReasons.has(notification.reason))
            .map((notification) => Inbox.toComment(config.webBaseUrl, notification))
            .reverse()
        return { comments, messages: [], cursor: Inbox.encodeCursor(next) }
      }),

      /** A reply post under the comment, in the comment's thread (its root read from the app view). */
      replyToComment: Effect.fnUntraced(function*({ account, comment, text }) {
        yield* lengthChecked([text])
        const [answered] = yield* client.posts(account.accessToken, [comment.id])
        if (answered === undefined) {
          return yield* Effect.fail(PublishError.rejected(network, "The comment is gone from Bluesky, so it cannot be answered"))
        }
        const parent = { uri: answered.uri, cid: answered.cid }
        const made = yield* makePost(account, text, { reply: Request.replyTo(answered.record.reply?.root ?? parent, parent) })
        return { id: made.uri, permalink: Request.permalink(config.webBaseUrl, account.username, made.uri) }
      }),

      sendMessage: () =>
        Effect.fail(PublishError.rejected(
          network,
          "Herald's Bluesky adapter does not offer direct messages yet (Bluesky's chat API needs an app password allowed to read them)"
        ))
    }

    return Adapter.make({
      network,
      name: "Bluesky",
      limits,
      api,
      capabilities,
      icon: BlueskyIcon.svg,
      options: BlueskyOptions.options,
      // ATProto OAuth (https://atproto.com/specs/oauth) needs pushed authorization requests and DPoP-bound
      // tokens, which Herald does not do yet: accounts connect with an app password.
      connect: Connect.credentials(fields),
      credentials: {
        signIn: (values) =>
          signIn(values["identifier"] ?? "", Redacted.make(values["password"] ?? "")).pipe(
            Effect.catchIf(
              (error) => error.reason._tag === "NeedsReconnect" || error.reason._tag === "Rejected",
              () =>
                Effect.fail(
                  new Adapter.SignInRefused({
                    message: "Bluesky did not accept that handle and app password. Check the handle (as in you.bsky.social) " +
                      "and make an app password in Bluesky's Settings > Privacy and security > App passwords."
                  })
                )
            )
          ),
        refresh: (refreshToken) => Effect.flatMap(client.refreshSession(refreshToken), session),
        sandboxFields: (username) => ({ identifier: username, password: "sandbox-app-password" })
      },
      publish,
      poll,
      reconcile,
      inbox
    })
  })
