import { Adapter, type AdapterConfig, MediaDownload, OAuth2, PublishError } from "@herald/adapter-kit"
import { Clock, Effect, Option, Redacted } from "effect"
import { HttpClient } from "effect/http"
import * as Inbox from "./internal/inbox.ts"
import * as Request from "./internal/request.ts"
import * as Webhook from "./internal/webhook.ts"
import * as XClient from "./XClient.ts"
import { api, capabilities, limits } from "./XLimits.ts"
import * as XOptions from "./XOptions.ts"
import * as XIcon from "./XIcon.ts"

/**
 * X through the API v2: OAuth 2.0 with PKCE, text and media posts, threads and first comments as reply
 * chains, and reconcile by the account's recent posts. A video is processed by X before it can be attached,
 * and each reply of a chain is its own step, so publishing answers `Processing` and continues in `poll`.
 * The inbox reads replies from the mentions and the account's own posts, and direct messages from its DM
 * events (`internal/inbox.ts`); X's webhooks, where the app has them, have an account read at once
 * (`internal/webhook.ts`).
 */

const network = "x"

export const make = (config: AdapterConfig.AdapterConfig): Effect.Effect<Adapter.Adapter, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* XClient.make(config)
    const http = yield* HttpClient.HttpClient

    /** An attachment's bytes from Herald's media address (X takes bytes, not URLs), within X's size for its kind. */
    const download = (item: Adapter.PublishInput["post"]["media"][number]) =>
      MediaDownload.download(http, network, item.url, MediaDownload.maxBytesOf(limits.forms.post.media, item.kind))

    // X rotates refresh tokens: the newest one is the one to keep, and an answer without one keeps none.
    const tokens = (answer: OAuth2.TokenAnswer) =>
      Effect.map(Clock.currentTimeMillis, (now): Adapter.Tokens =>
        OAuth2.tokensOf(answer, { now, previousRefreshToken: Option.none(), requested: XClient.scopes }))

    const published = (account: Adapter.Account, id: string): Adapter.PublishStep => ({
      _tag: "Published",
      published: { id, url: Request.permalink(config.webBaseUrl, account.username, id) }
    })

    const processing = (progress: Request.Progress, checkAfterMs: number): Adapter.PublishStep => ({
      _tag: "Processing",
      handle: Request.encodeProgress(progress),
      checkAfterMs
    })

    /** X's processing answer as a step: wait, or fail for good when X could not process the video. */
    const whileProcessing = (
      media: XClient.Media,
      onReady: Effect.Effect<Adapter.PublishStep, PublishError.PublishError>
    ) => {
      const info = media.processing_info
      if (info === undefined || info.state === "succeeded") return onReady
      if (info.state === "failed") {
        return Effect.fail(PublishError.rejected(network, info.error?.message ?? "X could not process the video"))
      }
      return Effect.succeed(processing({ _tag: "Video", mediaId: media.id }, (info.check_after_secs ?? 1) * 1000))
    }

    /** What follows the first post: its replies (thread, first comment) one per step, or nothing. */
    const afterRoot = (input: Adapter.PublishInput, rootId: string) =>
      Request.followUps(input.post).length === 0
        ? published(input.account, rootId)
        : processing({ _tag: "Replies", rootId, previousId: rootId, next: 0 }, 0)

    /** The first post; its follow-ups (thread, first comment) go out one per step. */
    const postRoot = (input: Adapter.PublishInput, mediaIds: ReadonlyArray<string>) =>
      Effect.map(
        client.createTweet(input.account.accessToken, Request.tweetBody(input.post.text, mediaIds)),
        (tweet) => afterRoot(input, tweet.id)
      )

    /**
     * The account's first post with the post's text, among its recent ones (replies are not first posts). A
     * post of media and links alone cannot be told from another such post: the outcome is then unknown.
     */
    const findRoot = (input: Adapter.PublishInput) =>
      Request.findableByText(input.post.text)
        ? Effect.map(
          client.recentTweets(input.account.accessToken, input.account.networkAccountId),
          (tweets) =>
            Option.fromUndefinedOr(tweets.find((tweet) =>
              tweet.referenced_tweets?.some((ref) => ref.type === "replied_to") !== true &&
              Request.sameText(input.post.text, tweet.text)
            ))
        )
        : Effect.fail(PublishError.nothingToLookFor(network, "X"))

    const uploadVideo = Effect.fnUntraced(function*(input: Adapter.PublishInput, item: Adapter.PublishInput["post"]["media"][number]) {
      const token = input.account.accessToken
      // Bounded by what 1,000 segments carry: X refuses a segment past the 1,000th, so a larger video would
      // fail only after 1,000 uploads.
      const bytes = yield* download(item)
      const category = Request.mediaCategory(item)
      const upload = yield* client.initializeUpload(token, bytes.length, item.mimeType, category)
      yield* Effect.forEach(
        Request.segments(bytes),
        (segment, index) => client.appendUpload(token, upload.id, index, segment),
        { discard: true }
      )
      return yield* client.finalizeUpload(token, upload.id)
    })

    // A photo with alt text gets it through the media metadata endpoint before the post names it.
    const uploadPhoto = (input: Adapter.PublishInput, item: Adapter.PublishInput["post"]["media"][number]) =>
      Effect.flatMap(download(item), (bytes) =>
        Effect.flatMap(
          client.uploadMedia(input.account.accessToken, bytes, Request.mediaCategory(item)),
          (media) =>
            item.alt === null || item.alt.trim() === ""
              ? Effect.succeed(media.id)
              : Effect.as(client.setAltText(input.account.accessToken, media.id, item.alt), media.id)
        ))

    const publish = Effect.fnUntraced(function*(input: Adapter.PublishInput) {
      const video = input.post.media.find((item) => item.kind === "video")
      if (video !== undefined) {
        const media = yield* uploadVideo(input, video)
        return yield* whileProcessing(media, postRoot(input, [media.id]))
      }
      const mediaIds = yield* Effect.forEach(input.post.media, (item) => uploadPhoto(input, item))
      return yield* postRoot(input, mediaIds)
    })

    const poll = Effect.fnUntraced(function*(input: Adapter.PublishInput, handle: string) {
      const progress = Request.decodeProgress(handle)
      if (progress === undefined) {
        return yield* Effect.fail(PublishError.rejected(network, `unknown publishing handle "${handle}"`))
      }
      if (progress._tag === "Video") {
        const media = yield* client.uploadStatus(input.account.accessToken, progress.mediaId)
        // Herald stopped while the post with this video was being sent: if X has it, go on from it.
        const sent = input.resumed === true ? yield* PublishError.lookingFirst(network, "the post", findRoot(input)) : Option.none()
        if (Option.isSome(sent)) return afterRoot(input, sent.value.id)
        return yield* whileProcessing(media, postRoot(input, [media.id]))
      }
      const replies = Request.followUps(input.post)
      const text = replies[progress.next]
      if (text === undefined) return published(input.account, progress.rootId)
      // Herald stopped while this reply was being sent: if X has it, go on from it instead of sending it again.
      const already = input.resumed === true
        ? (yield* PublishError.lookingFirst(
          network,
          "the reply",
          client.recentTweets(input.account.accessToken, input.account.networkAccountId)
        )).find((tweet) =>
          tweet.referenced_tweets?.some((ref) => ref.type === "replied_to" && ref.id === progress.previousId) === true &&
          Request.sameText(text, tweet.text)
        )
        : undefined
      const reply = already ?? (yield* client.createTweet(
        input.account.accessToken,
        Request.tweetBody(text, [], progress.previousId)
      ))
      return progress.next + 1 >= replies.length
        ? published(input.account, progress.rootId)
        : processing({ _tag: "Replies", rootId: progress.rootId, previousId: reply.id, next: progress.next + 1 }, 0)
    })

    /**
     * Finds the first post; a thread or first comment the lost try may not have finished is then finished,
     * each reply looked for before it is sent (the resumed `poll`), so the post is found whole.
     */
    const reconcile = Effect.fnUntraced(function*(input: Adapter.PublishInput) {
      const root = yield* findRoot(input)
      if (Option.isNone(root)) return Option.none<Adapter.Published>()
      let step = afterRoot(input, root.value.id)
      while (step._tag === "Processing") step = yield* poll({ ...input, resumed: true }, step.handle)
      return Option.some(step.published)
    })

    /** A listing read newest first, a page at a time, while `more` holds for the page read; at most `Inbox.maxPages`. */
    const pages = <P extends { readonly meta?: { readonly next_token?: string | undefined } | undefined }>(
      read: (paginationToken: string | undefined) => Effect.Effect<P, PublishError.PublishError>,
      more: (page: P) => boolean = () => true
    ) =>
      Effect.gen(function*() {
        const answers: Array<P> = []
        let next: string | undefined = undefined
        do {
          const answer: P = yield* read(next)
          answers.push(answer)
          next = more(answer) ? answer.meta?.next_token : undefined
        } while (next !== undefined && answers.length < Inbox.maxPages)
        return answers
      })

    const fetch = Effect.fnUntraced(function*({ account, cursor }: Parameters<Adapter.InboxHooks["fetch"]>[0]) {
      const token = account.accessToken
      const userId = account.networkAccountId
      // A cursor this adapter did not write (none yet) starts from now, like the first read.
      const from = cursor === null ? undefined : Inbox.decodeCursor(cursor)
      if (from === undefined) {
        // The newest item of each listing marks "now"; X's timelines take at least 5 results a page.
        const [mentions, posts, messages] = yield* Effect.all([
          client.inboxTimeline(token, userId, "mentions", { maxResults: 5 }),
          client.inboxTimeline(token, userId, "tweets", { maxResults: 5 }),
          client.dmEvents(token, { maxResults: 1 })
        ], { concurrency: "unbounded" })
        const now: Inbox.Cursor = {
          mentions: Inbox.newestId(mentions) ?? null,
          posts: Inbox.newestId(posts) ?? null,
          messages: Inbox.newestId(messages) ?? null
        }
        return { comments: [], messages: [], cursor: Inbox.encodeCursor(now) }
      }
      const timeline = (listing: "mentions" | "tweets", sinceId: string | null) =>
        pages((paginationToken) =>
          client.inboxTimeline(token, userId, listing, {
            maxResults: Inbox.pageSize,
            sinceId: sinceId ?? undefined,
            paginationToken
          })
        )
      const since = from.messages
      const [mentions, posts, messages] = yield* Effect.all([
        timeline("mentions", from.mentions),
        timeline("tweets", from.posts),
        // Older pages only while everything on this one was new.
        pages(
          (paginationToken) => client.dmEvents(token, { maxResults: Inbox.pageSize, paginationToken }),
          (page) => since === null || (page.data ?? []).every((event) => Inbox.isNewer(event.id, since))
        )
      ], { concurrency: "unbounded" })
      return Inbox.page({ accountId: userId, webBaseUrl: config.webBaseUrl, from, mentions, posts, messages })
    })

    // X keys both webhook checks with the app's consumer secret, a credential apart from the OAuth 2.0
    // client secret: HERALD_X_WEBHOOK_SECRET (see the README's Inbox section).
    const webhookSecret = config.webhookSecret ?? config.clientSecret

    return Adapter.make({
      network,
      name: "X",
      limits,
      api,
      capabilities,
      icon: XIcon.svg,
      options: XOptions.options,
      oauth: {
        scopes: XClient.scopes,
        pkce: true,
        // https://docs.x.com/fundamentals/authentication/oauth-2-0/authorization-code
        authorizeUrl: ({ codeChallenge, redirectUri, state }) =>
          OAuth2.authorizeUrl({
            endpoint: `${config.authBaseUrl}/i/oauth2/authorize`,
            clientId: config.clientId,
            redirectUri,
            state,
            scopes: XClient.scopes,
            codeChallenge
          }),
        exchange: ({ code, codeVerifier, redirectUri }) =>
          codeVerifier === undefined
            ? Effect.fail(PublishError.rejected(network, "X needs the PKCE code verifier to redeem a code"))
            : Effect.flatMap(client.exchangeCode({ code, redirectUri, codeVerifier }), tokens),
        refresh: (refreshToken) => Effect.flatMap(client.refreshToken(refreshToken), tokens),
        profile: (accessToken) =>
          Effect.map(client.me(accessToken), (user) => ({
            networkAccountId: user.id,
            username: user.username,
            displayName: user.name ?? null,
            avatarUrl: user.profile_image_url ?? null
          }))
      },
      publish,
      poll,
      reconcile,
      inbox: {
        webhook: { handshake: Webhook.handshake(webhookSecret), receive: Webhook.receive(webhookSecret) },
        fetch,
        // A reply is a post answering the comment; the summon rule of self-serve tiers applies (see README).
        replyToComment: ({ account, comment, text }) =>
          Effect.map(
            client.createTweet(account.accessToken, Request.tweetBody(text, [], comment.id)),
            (reply) => ({ id: reply.id, permalink: Request.permalink(config.webBaseUrl, account.username, reply.id) })
          ),
        sendMessage: ({ account, conversationId, text }) =>
          Effect.map(client.sendDirectMessage(account.accessToken, conversationId, text), (sent) => ({ id: sent.dm_event_id }))
      }
    })
  })
