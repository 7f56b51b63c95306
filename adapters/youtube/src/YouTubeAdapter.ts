import { Clock, Effect, Option, Redacted } from "effect"
import type { HttpClient } from "effect/http"
import { Adapter, type AdapterConfig, OAuth2, PublishError, type PostVersion } from "@herald/adapter-kit"
import * as Errors from "./internal/errors.ts"
import * as Inbox from "./internal/inbox.ts"
import * as Request from "./internal/request.ts"
import * as YouTubeClient from "./YouTubeClient.ts"
import { api, capabilities, limits, unverifiedMaxVideoMs } from "./YouTubeLimits.ts"
import * as YouTubeOptions from "./YouTubeOptions.ts"
import * as YouTubeIcon from "./YouTubeIcon.ts"

// YouTube through Google OAuth and the Data API v3: a resumable upload of the video Herald serves, the
// custom thumbnail if any, then polling `processingDetails` until the video can be watched.
// https://developers.google.com/youtube/v3/guides/uploading_a_video

const network = "youtube"

export const scopes = [
  "https://www.googleapis.com/auth/youtube.upload",
  // Reading the channel (profile) and its uploads (reconcile, processing status).
  "https://www.googleapis.com/auth/youtube.readonly",
  // Reading the comments on the channel's videos and replying to them (the inbox).
  "https://www.googleapis.com/auth/youtube.force-ssl"
] as const

/** Processing takes from seconds to many minutes depending on length and resolution. */
const pollAfterMs = 10_000

/**
 * Pages of 100 comment threads one inbox poll reads at most (each 1 unit plus the parts', so 5 under the
 * current quota table): it stops after the first page with a thread that has nothing new, usually page 1.
 */
const maxThreadPages = 3
/** Threads per poll whose hidden replies are read with `comments.list` (1 unit each). */
const maxReplyLookups = 5

export const make = (config: AdapterConfig.AdapterConfig): Effect.Effect<Adapter.Adapter, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* YouTubeClient.make(config)

    // Google keeps the same refresh token across refreshes, so a refresh answer has none: `tokensOf` keeps ours.
    const toTokens = (answer: OAuth2.TokenAnswer, previousRefreshToken: Option.Option<Redacted.Redacted<string>>) =>
      Effect.map(Clock.currentTimeMillis, (now): Adapter.Tokens => OAuth2.tokensOf(answer, { now, previousRefreshToken, requested: scopes }))

    const published = (videoId: string): Adapter.PublishStep => ({
      _tag: "Published",
      published: { id: videoId, url: Request.permalink(config.webBaseUrl, videoId) }
    })

    /**
     * A video over 15 minutes goes only to a channel that may upload it: YouTube would take every byte and
     * reject it after processing (`rejectionReason: length`). The channel is read for such a video only
     * (`channels.list?part=status`, 1 unit); an unknown duration goes on, and YouTube decides.
     */
    const checkLength = Effect.fnUntraced(function*(account: Adapter.Account, post: PostVersion.PostVersion, video: PostVersion.MediaItem) {
      if (video.durationMs === null || video.durationMs <= unverifiedMaxVideoMs) return
      const channel = yield* client.channel(account.accessToken, "status")
      const refusal = Errors.fromLongUploads({
        status: Option.getOrUndefined(channel)?.status?.longUploadsStatus,
        position: post.media.indexOf(video) + 1,
        durationMs: video.durationMs,
        verifyUrl: `${config.webBaseUrl}/verify`
      })
      if (refusal !== undefined) return yield* refusal
    })

    const publish = Effect.fn("YouTubeAdapter.publish")(function*({ account, post }: Adapter.PublishInput) {
      const video = Request.videoOf(post)
      if (video === undefined) return yield* PublishError.rejected(network, "a YouTube post needs a video")
      yield* checkLength(account, post, video)
      const videoId = yield* client.uploadVideo(account.accessToken, Request.metadata(post), video)
      // The video exists from here on: a thumbnail YouTube refuses (channels must be verified for custom
      // thumbnails) must not fail the target, or a retry would upload the video twice.
      if (post.thumbnail !== null) {
        yield* client.setThumbnail(account.accessToken, videoId, post.thumbnail).pipe(
          Effect.catch((error) => Effect.logWarning(`youtube: thumbnail for ${videoId} not set: ${error.message}`))
        )
      }
      return { _tag: "Processing", handle: videoId, checkAfterMs: pollAfterMs } satisfies Adapter.PublishStep
    })

    const poll = Effect.fn("YouTubeAdapter.poll")(function*({ account }: Adapter.PublishInput, videoId: string) {
      const found = yield* client.videoStatus(account.accessToken, videoId)
      if (Option.isNone(found)) return yield* PublishError.rejected(network, `video ${videoId} no longer exists on YouTube`)
      const { processingDetails, status } = found.value
      if (status?.uploadStatus === "rejected") return yield* Errors.fromVideoStatus(status.rejectionReason, "rejected")
      if (status?.uploadStatus === "failed") return yield* Errors.fromVideoStatus(status.failureReason, "upload failed")
      switch (processingDetails?.processingStatus) {
        case "processing":
          return { _tag: "Processing", handle: videoId, checkAfterMs: pollAfterMs } satisfies Adapter.PublishStep
        case "failed":
        case "terminated":
          return yield* Errors.fromVideoStatus(status?.failureReason, `processing ${processingDetails.processingStatus}`)
        default:
          // `succeeded`, or no processing details: the video is there.
          return published(videoId)
      }
    })

    /** Looks in the channel's uploads playlist, which lists a video as soon as its upload finished. */
    const reconcile = Effect.fn("YouTubeAdapter.reconcile")(function*({ account, post }: Adapter.PublishInput) {
      const channel = yield* client.channel(account.accessToken, "contentDetails")
      const uploads = Option.flatMap(channel, (found) => Option.fromNullishOr(found.contentDetails?.relatedPlaylists.uploads))
      if (Option.isNone(uploads)) return Option.none()
      const items = yield* client.playlistItems(account.accessToken, uploads.value)
      return Option.map(
        Option.fromNullishOr(items.find((item) => Request.matches(post, item))),
        (item): Adapter.Published => ({ id: item.resourceId.videoId, url: Request.permalink(config.webBaseUrl, item.resourceId.videoId) })
      )
    })

    /**
     * The comment threads of the channel and its videos, newest first, up to the first thread with nothing
     * at or after `since` (or `maxPages`); under `order=time` the threads after it are older.
     */
    const recentThreads = Effect.fnUntraced(function*(account: Adapter.Account, since: number, maxPages: number) {
      const threads: Array<YouTubeClient.CommentThread> = []
      let pageToken: string | undefined
      for (let page = 0; page < maxPages; page++) {
        const answer = yield* client.commentThreads(account.accessToken, account.networkAccountId, pageToken)
        threads.push(...answer.threads)
        pageToken = answer.nextPageToken
        if (pageToken === undefined || answer.threads.some((thread) => Inbox.isOld(config.webBaseUrl, thread, since))) break
      }
      return threads
    })

    /**
     * Comments only: YouTube has no direct messages. The channel id is the account's network id, so the
     * listing needs no `channels.list` first. See `internal/inbox.ts` for the cursor.
     */
    const fetchInbox = Effect.fn("YouTubeAdapter.inbox.fetch")(function*({ account, cursor }: {
      readonly account: Adapter.Account
      readonly cursor: string | null
    }) {
      const previous = cursor === null ? Option.none() : Inbox.decode(cursor)
      if (cursor !== null && Option.isNone(previous)) {
        yield* Effect.logWarning("youtube: an inbox cursor that is not ours; starting from now")
      }
      const first = Option.isNone(previous)
      const start = Option.getOrElse(previous, () => Inbox.empty)
      // The first poll reads one page, enough to know what is already there; none of it is news.
      const threads = yield* recentThreads(account, start.since, first ? 1 : maxThreadPages)
      const hidden = first ? [] : Inbox.needReplies(start, threads)
      const lookups = hidden.slice(0, maxReplyLookups)
      // `needReplies` keeps only threads on a video.
      const replies = yield* Effect.forEach(lookups, (thread) =>
        Effect.map(client.replies(account.accessToken, thread.id), (comments) =>
          comments.map((comment) => Inbox.toListed(config.webBaseUrl, thread.snippet.videoId!, comment))))
      // A thread left over the lookup budget keeps its old count, so the next poll reads it.
      const pending = new Set(hidden.slice(maxReplyLookups))
      const { cursor: next, news } = Inbox.advance(
        start,
        // Oldest thread first, so comments of the same second keep the order they were made in.
        [...[...threads].reverse().flatMap((thread) => Inbox.listThread(config.webBaseUrl, thread)), ...replies.flat()],
        threads.filter((thread) => !pending.has(thread))
      )
      return { comments: first ? [] : news, messages: [], cursor: Inbox.encode(next) } satisfies Adapter.InboxPage
    })

    /**
     * YouTube has replies to top-level comments only: an answer to a reply goes to its thread, as YouTube's
     * own site does it.
     */
    const replyToComment = Effect.fn("YouTubeAdapter.inbox.replyToComment")(function*({ account, comment, text }: {
      readonly account: Adapter.Account
      readonly comment: Adapter.InboxComment
      readonly text: string
    }) {
      const reply = yield* client.reply(account.accessToken, comment.replyTo ?? comment.id, text)
      return { id: reply.id, permalink: Inbox.toListed(config.webBaseUrl, comment.postId, reply).comment.permalink }
    })

    return Adapter.make({
      network,
      name: "YouTube",
      limits,
      api,
      capabilities,
      icon: YouTubeIcon.svg,
      options: YouTubeOptions.options,
      oauth: {
        scopes,
        pkce: true,
        authorizeUrl: ({ codeChallenge, redirectUri, state }) =>
          OAuth2.authorizeUrl({
            endpoint: `${config.authBaseUrl}/o/oauth2/v2/auth`,
            clientId: config.clientId,
            redirectUri,
            state,
            scopes,
            codeChallenge,
            // Without `offline` there is no refresh token; `consent` makes Google send one on a reconnect too.
            extra: { access_type: "offline", prompt: "consent" }
          }),
        exchange: ({ code, codeVerifier, redirectUri }) =>
          Effect.flatMap(client.exchangeCode(code, redirectUri, codeVerifier), (answer) => toTokens(answer, Option.none())),
        refresh: (refreshToken) =>
          Effect.flatMap(client.refresh(refreshToken), (answer) => toTokens(answer, Option.some(refreshToken))),
        profile: (accessToken) =>
          Effect.flatMap(client.channel(accessToken, "snippet"), (channel) =>
            Option.match(channel, {
              onNone: () => Effect.fail(Errors.fromReason({ status: 403, reason: "youtubeSignupRequired" })),
              onSome: (found): Effect.Effect<Adapter.Profile> =>
                Effect.succeed({
                  networkAccountId: found.id,
                  // The channel's handle (`@name`) is its username; older channels may have none.
                  username: found.snippet?.customUrl?.replace(/^@/, "") ?? found.id,
                  displayName: found.snippet?.title ?? null,
                  avatarUrl: found.snippet?.thumbnails?.default?.url ?? null
                })
            }))
      },
      publish,
      poll,
      reconcile,
      inbox: {
        // A read costs about 5 of the project's 10,000 daily quota units even when nothing is new
        // (https://developers.google.com/youtube/v3/determine_quota_cost): every 15 minutes is about 480 a
        // day per channel, where Herald's default minute would be 7,200.
        pollEveryMs: 15 * 60 * 1000,
        fetch: fetchInbox,
        replyToComment,
        sendMessage: () => Effect.fail(PublishError.rejected(network, "YouTube's API does not offer direct messages"))
      }
    })
  })
