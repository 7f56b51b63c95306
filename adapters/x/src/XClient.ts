import { type AdapterConfig, NetworkClient, OAuth2 } from "@herald/adapter-kit"
import { Effect, type Redacted } from "effect"
import { HttpClientRequest } from "effect/http"
import {
  Appended,
  DmEvents,
  DmSent,
  InboxTimeline,
  Media,
  type PageRequest,
  Timeline,
  Tweet,
  User
} from "./internal/answers.ts"
import * as Errors from "./internal/errors.ts"
import * as Request from "./internal/request.ts"

/**
 * Typed calls to the X API v2 (https://docs.x.com/x-api). Addresses come from the config, so the same calls
 * reach X or its sandbox simulator. Every call goes through the kit's `NetworkClient`; answers are decoded
 * with minimal, lenient schemas, and refusals become `PublishError`s through the table in `internal/errors.ts`.
 */

/** Publishing needs the first five; the inbox's direct messages need `dm.read` and `dm.write`. */
export const scopes = ["tweet.read", "tweet.write", "users.read", "media.write", "offline.access", "dm.read", "dm.write"] as const

export type {
  DmEvent,
  DmEvents,
  InboxTimeline,
  InboxTweet,
  Media,
  PageRequest,
  ProcessingInfo,
  User,
  XUser
} from "./internal/answers.ts"

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
      OAuth2.TokenAnswer
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
