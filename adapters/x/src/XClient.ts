import { type AdapterConfig, NetworkClient, OAuth2 } from "@herald/adapter-kit"
import { Effect, type Redacted, Schema } from "effect"
import { HttpClientRequest } from "effect/http"
import * as Errors from "./internal/errors.ts"
import * as Request from "./internal/request.ts"

/**
 * Typed calls to the X API v2 (https://docs.x.com/x-api). Addresses come from the config, so the same calls
 * reach X or its sandbox simulator. Every call goes through the kit's `NetworkClient`; answers are decoded
 * with minimal, lenient schemas, and refusals become `PublishError`s through the table in `internal/errors.ts`.
 */

/** Publishing needs the first five; the inbox's direct messages need `dm.read` and `dm.write`. */
export const scopes = ["tweet.read", "tweet.write", "users.read", "media.write", "offline.access", "dm.read", "dm.write"] as const

const TokenAnswer = Schema.Struct({
  access_token: Schema.String,
  refresh_token: Schema.optional(Schema.String),
  expires_in: Schema.optional(Schema.Number),
  scope: Schema.optional(Schema.String)
})
export type TokenAnswer = typeof TokenAnswer.Type

const User = Schema.Struct({
  data: Schema.Struct({
    id: Schema.String,
    username: Schema.String,
    name: Schema.optional(Schema.String),
    profile_image_url: Schema.optional(Schema.String)
  })
})
export type User = typeof User.Type["data"]

const Tweet = Schema.Struct({ data: Schema.Struct({ id: Schema.String, text: Schema.optional(Schema.String) }) })

const ProcessingInfo = Schema.Struct({
  state: Schema.String,
  check_after_secs: Schema.optional(Schema.Number),
  error: Schema.optional(Schema.Struct({ message: Schema.optional(Schema.String) }))
})
export type ProcessingInfo = typeof ProcessingInfo.Type

const Media = Schema.Struct({
  data: Schema.Struct({ id: Schema.String, processing_info: Schema.optional(ProcessingInfo) })
})
export type Media = typeof Media.Type["data"]

// An append or a metadata call answers little worth reading, and an append may answer with no body at all.
const Appended = Schema.UndefinedOr(Schema.Struct({ data: Schema.optional(Schema.Unknown) }))

// Asked for with `tweet.fields=referenced_tweets`: what a reply answers.
const References = Schema.optional(Schema.Array(Schema.Struct({ type: Schema.String, id: Schema.String })))

const Timeline = Schema.Struct({
  data: Schema.optional(Schema.Array(Schema.Struct({ id: Schema.String, text: Schema.String, referenced_tweets: References })))
})

/** The people an answer's `expansions` name (`author_id`, `sender_id`): `id`, `name` and `username` by default. */
const Includes = Schema.optional(Schema.Struct({
  users: Schema.optional(Schema.Array(Schema.Struct({
    id: Schema.String,
    username: Schema.String,
    name: Schema.optional(Schema.String)
  })))
}))
export type XUser = NonNullable<NonNullable<typeof Includes.Type>["users"]>[number]

const Meta = Schema.optional(Schema.Struct({
  newest_id: Schema.optional(Schema.String),
  next_token: Schema.optional(Schema.String)
}))

/** A post as the inbox asks for it (`tweet.fields` below): who wrote it, when, and what it answers. */
const InboxTweet = Schema.Struct({
  id: Schema.String,
  text: Schema.String,
  author_id: Schema.String,
  created_at: Schema.String,
  conversation_id: Schema.optional(Schema.String),
  in_reply_to_user_id: Schema.optional(Schema.String),
  referenced_tweets: References
})
export type InboxTweet = typeof InboxTweet.Type

const InboxTimeline = Schema.Struct({ data: Schema.optional(Schema.Array(InboxTweet)), includes: Includes, meta: Meta })
export type InboxTimeline = typeof InboxTimeline.Type

const DmEvent = Schema.Struct({
  id: Schema.String,
  event_type: Schema.String,
  text: Schema.optional(Schema.String),
  sender_id: Schema.String,
  dm_conversation_id: Schema.String,
  created_at: Schema.String,
  attachments: Schema.optional(Schema.Struct({ media_keys: Schema.optional(Schema.Array(Schema.String)) }))
})
export type DmEvent = typeof DmEvent.Type

const DmEvents = Schema.Struct({ data: Schema.optional(Schema.Array(DmEvent)), includes: Includes, meta: Meta })
export type DmEvents = typeof DmEvents.Type

const DmSent = Schema.Struct({ data: Schema.Struct({ dm_conversation_id: Schema.String, dm_event_id: Schema.String }) })

/** What a page of a listing is asked for: newer than `sinceId`, from `paginationToken` on. */
export interface PageRequest {
  readonly maxResults: number
  readonly sinceId?: string | undefined
  readonly paginationToken?: string | undefined
}

export const make = Effect.fnUntraced(function*(config: AdapterConfig.AdapterConfig) {
  const api = config.apiBaseUrl

  const { send } = yield* NetworkClient.make({
    network: "x",
    name: "X",
    refusal: Errors.refusal,
    refusedIn: Errors.refusedIn,
    resetHeader: Errors.resetHeader
  })

  const bearer = (token: Redacted.Redacted<string>) => HttpClientRequest.bearerToken(token)

  /** The token endpoint, with the client's id and secret as HTTP Basic (confidential client). */
  const token = (grant: OAuth2.Grant) =>
    send(
      OAuth2.tokenRequest({
        endpoint: `${api}/2/oauth2/token`,
        grant,
        clientId: config.clientId,
        clientSecret: config.clientSecret,
        auth: "basic"
      }),
      TokenAnswer
    )

  return {
    exchangeCode: (params: { readonly code: string; readonly redirectUri: string; readonly codeVerifier: string }) =>
      token({ _tag: "AuthorizationCode", ...params }),

    refreshToken: (refreshToken: Redacted.Redacted<string>) =>
      token({ _tag: "RefreshToken", refreshToken }),

    me: (accessToken: Redacted.Redacted<string>) =>
      Effect.map(
        send(
          HttpClientRequest.get(`${api}/2/users/me`).pipe(
            bearer(accessToken),
            HttpClientRequest.setUrlParam("user.fields", "name,profile_image_url")
          ),
          User
        ),
        (answer) => answer.data
      ),

    createTweet: (accessToken: Redacted.Redacted<string>, body: Request.TweetBody) =>
      Effect.map(
        send(
          HttpClientRequest.post(`${api}/2/tweets`).pipe(bearer(accessToken), HttpClientRequest.bodyJsonUnsafe(body)),
          Tweet,
          "makesPost"
        ),
        (answer) => answer.data
      ),

    /** One-shot upload for photos and GIFs, base64 in JSON (https://docs.x.com/x-api/media/media-upload). */
    uploadMedia: (accessToken: Redacted.Redacted<string>, bytes: Uint8Array, category: Request.MediaCategory) =>
      Effect.map(
        send(
          HttpClientRequest.post(`${api}/2/media/upload`).pipe(
            bearer(accessToken),
            HttpClientRequest.bodyJsonUnsafe(Request.uploadBody(bytes, category))
          ),
          Media
        ),
        (answer) => answer.data
      ),

    /**
     * A photo's alt text, after its upload and before the post names it
     * (https://docs.x.com/x-api/media/create-media-metadata): at most 1,000 characters.
     */
    setAltText: (accessToken: Redacted.Redacted<string>, mediaId: string, text: string) =>
      Effect.asVoid(send(
        HttpClientRequest.post(`${api}/2/media/metadata`).pipe(
          bearer(accessToken),
          HttpClientRequest.bodyJsonUnsafe(Request.altTextBody(mediaId, text))
        ),
        Appended
      )),

    /** Chunked upload for videos: initialize, append each segment, finalize (then status while processing). */
    initializeUpload: (accessToken: Redacted.Redacted<string>, totalBytes: number, mediaType: string, category: Request.MediaCategory) =>
      Effect.map(
        send(
          HttpClientRequest.post(`${api}/2/media/upload/initialize`).pipe(
            bearer(accessToken),
            HttpClientRequest.bodyJsonUnsafe(Request.initializeBody(totalBytes, mediaType, category))
          ),
          Media
        ),
        (answer) => answer.data
      ),

    /**
     * One segment as a form, its bytes binary in `media` (https://docs.x.com/x-api/media/append-media-upload):
     * base64 in JSON would make each request a third larger than the segment, over X's chunk limit.
     */
    appendUpload: (accessToken: Redacted.Redacted<string>, mediaId: string, segmentIndex: number, bytes: Uint8Array) =>
      Effect.asVoid(send(
        HttpClientRequest.post(`${api}/2/media/upload/${mediaId}/append`).pipe(
          bearer(accessToken),
          HttpClientRequest.bodyFormDataRecord({
            segment_index: segmentIndex,
            media: new Blob([bytes], { type: "application/octet-stream" })
          })
        ),
        Appended
      )),

    finalizeUpload: (accessToken: Redacted.Redacted<string>, mediaId: string) =>
      Effect.map(
        send(HttpClientRequest.post(`${api}/2/media/upload/${mediaId}/finalize`).pipe(bearer(accessToken)), Media),
        (answer) => answer.data
      ),

    uploadStatus: (accessToken: Redacted.Redacted<string>, mediaId: string) =>
      Effect.map(
        send(
          HttpClientRequest.get(`${api}/2/media/upload`).pipe(
            bearer(accessToken),
            HttpClientRequest.setUrlParams({ command: "STATUS", media_id: mediaId })
          ),
          Media
        ),
        (answer) => answer.data
      ),

    /** The account's most recent posts, replies included (https://docs.x.com/x-api/users/get-posts). */
    recentTweets: (accessToken: Redacted.Redacted<string>, userId: string) =>
      Effect.map(
        send(
          HttpClientRequest.get(`${api}/2/users/${userId}/tweets`).pipe(
            bearer(accessToken),
            HttpClientRequest.setUrlParam("max_results", "100"),
            HttpClientRequest.setUrlParam("tweet.fields", "referenced_tweets")
          ),
          Timeline
        ),
        (answer) => answer.data ?? []
      ),

    /**
     * One page, newest first, of the posts mentioning the account (`mentions`, replies to it included) or of
     * its own posts (`tweets`, without reposts), with the fields the inbox reads and their authors
     * (https://docs.x.com/x-api/users/get-mentions, https://docs.x.com/x-api/users/get-posts).
     */
    inboxTimeline: (
      accessToken: Redacted.Redacted<string>,
      userId: string,
      listing: "mentions" | "tweets",
      page: PageRequest
    ) =>
      send(
        HttpClientRequest.get(`${api}/2/users/${userId}/${listing}`).pipe(
          bearer(accessToken),
          HttpClientRequest.setUrlParams({
            max_results: page.maxResults,
            since_id: page.sinceId,
            pagination_token: page.paginationToken,
            "tweet.fields": "created_at,author_id,conversation_id,in_reply_to_user_id,referenced_tweets",
            expansions: "author_id",
            exclude: listing === "tweets" ? "retweets" : undefined
          })
        ),
        InboxTimeline
      ),

    /**
     * One page of the account's messages, sent and received, newest first, over its last 30 days; the
     * listing takes no `since_id` (https://docs.x.com/x-api/direct-messages/lookup/integrate).
     */
    dmEvents: (accessToken: Redacted.Redacted<string>, page: Omit<PageRequest, "sinceId">) =>
      send(
        HttpClientRequest.get(`${api}/2/dm_events`).pipe(
          bearer(accessToken),
          HttpClientRequest.setUrlParams({
            max_results: page.maxResults,
            pagination_token: page.paginationToken,
            event_types: "MessageCreate",
            // `id`, `event_type` and `text` come by default.
            "dm_event.fields": "created_at,sender_id,dm_conversation_id,attachments",
            expansions: "sender_id"
          })
        ),
        DmEvents
      ),

    /**
     * A message in one of the account's conversations, one-to-one or group
     * (https://docs.x.com/x-api/direct-messages/create-dm-message-by-conversation-id).
     */
    sendDirectMessage: (accessToken: Redacted.Redacted<string>, conversationId: string, text: string) =>
      Effect.map(
        send(
          HttpClientRequest.post(`${api}/2/dm_conversations/${encodeURIComponent(conversationId)}/messages`).pipe(
            bearer(accessToken),
            HttpClientRequest.bodyJsonUnsafe(Request.messageBody(text))
          ),
          DmSent,
          "makesPost"
        ),
        (answer) => answer.data
      )
  }
})

export type XClient = Effect.Success<ReturnType<typeof make>>
