import { Effect, Option, Redacted, Schema } from "effect"
import { HttpClient, HttpClientRequest, type HttpClientResponse } from "effect/http"
import { type AdapterConfig, OAuth2, PublishError } from "@herald/adapter-kit"
import * as Errors from "./internal/errors.ts"
import { api } from "./LinkedInLimits.ts"
import * as Request from "./internal/request.ts"

// Typed calls to LinkedIn's OAuth endpoints, OpenID userinfo and the versioned REST API (`/rest/*`).
// Every address is built from the config, so the same calls reach LinkedIn or the sandbox simulator.

/** Every `/rest` call names the API version it was written against (LinkedInLimits.ts `api`, with its sunset). */
export const linkedInVersion = api.version

// Minimal and lenient schemas of LinkedIn's answers: only what Herald reads.
export const TokenAnswer = Schema.Struct({
  access_token: Schema.String,
  expires_in: Schema.Number,
  refresh_token: Schema.optionalKey(Schema.String),
  scope: Schema.optionalKey(Schema.String)
})
export type TokenAnswer = typeof TokenAnswer.Type

export const UserInfo = Schema.Struct({
  sub: Schema.String,
  name: Schema.optionalKey(Schema.String),
  picture: Schema.optionalKey(Schema.String)
})
export type UserInfo = typeof UserInfo.Type

const ImageUpload = Schema.Struct({ value: Schema.Struct({ uploadUrl: Schema.String, image: Schema.String }) })

export const UploadInstruction = Schema.Struct({
  uploadUrl: Schema.String,
  firstByte: Schema.Number,
  lastByte: Schema.Number
})
const VideoUpload = Schema.Struct({
  value: Schema.Struct({
    video: Schema.String,
    // Empty or absent when the video fits in one part.
    uploadToken: Schema.optionalKey(Schema.String),
    uploadInstructions: Schema.Array(UploadInstruction)
  })
})
export type VideoUpload = typeof VideoUpload.Type["value"]

const Video = Schema.Struct({ status: Schema.String })

const PostsPage = Schema.Struct({
  elements: Schema.Array(Schema.Struct({
    id: Schema.String,
    commentary: Schema.optionalKey(Schema.String),
    // The one image or video a post shows, as it was created (the video lookup matches its URN).
    content: Schema.optionalKey(Schema.Struct({ media: Schema.optionalKey(Schema.Struct({ id: Schema.String })) }))
  }))
})
export type PostsPage = typeof PostsPage.Type

/** When and by whom something was done; `time` is epoch milliseconds. */
const AuditStamp = Schema.Struct({ actor: Schema.optionalKey(Schema.String), time: Schema.Number })

/**
 * One comment of the Comments API. `message` is absent on a comment that is only an image; `parentComment`
 * is set on a reply; `commentsSummary` counts the replies to a first-level comment.
 * https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/comments-api
 */
export const Comment = Schema.Struct({
  commentUrn: Schema.String,
  actor: Schema.String,
  created: AuditStamp,
  object: Schema.optionalKey(Schema.String),
  message: Schema.optionalKey(Schema.Struct({ text: Schema.String })),
  parentComment: Schema.optionalKey(Schema.String),
  commentsSummary: Schema.optionalKey(Schema.Struct({
    aggregatedTotalComments: Schema.optionalKey(Schema.Number),
    totalFirstLevelComments: Schema.optionalKey(Schema.Number)
  }))
})
export type Comment = typeof Comment.Type

const CommentsPage = Schema.Struct({
  elements: Schema.Array(Comment),
  paging: Schema.optionalKey(Schema.Struct({ total: Schema.optionalKey(Schema.Number) }))
})
export type CommentsPage = typeof CommentsPage.Type

/** What a created comment's answer may carry besides the `x-restli-id` header. */
const CreatedComment = Schema.Struct({ commentUrn: Schema.optionalKey(Schema.String), id: Schema.optionalKey(Schema.String) })

/** Whether a call whose answer is lost may have had its effect anyway (creating a post or comment). */
type WhenLost = "retry" | "unknown"

const lost = (whenLost: WhenLost, description: string) =>
  whenLost === "unknown"
    ? PublishError.outcomeUnknown(Errors.network, `no answer from LinkedIn (${description}); it may have gone through`)
    : PublishError.transient(Errors.network, `could not reach LinkedIn (${description})`)

const decodeComponent = Option.liftThrowable(decodeURIComponent)

const unexpected = PublishError.transient(Errors.network, "LinkedIn answered in an unexpected shape")

/** The created entity's id from the `x-restli-id` header, which Rest.li may percent-encode. */
const restliId = (response: HttpClientResponse.HttpClientResponse): Option.Option<string> =>
  Option.map(Option.fromNullishOr(response.headers["x-restli-id"]), (id) => Option.getOrElse(decodeComponent(id), () => id))

export const make = (config: AdapterConfig.AdapterConfig) =>
  Effect.gen(function*() {
    const http = yield* HttpClient.HttpClient

    /** Sends a request; an answer of 400 or more becomes the table's `PublishError`. */
    const execute = (request: HttpClientRequest.HttpClientRequest, whenLost: WhenLost = "retry") =>
      http.execute(request).pipe(
        Effect.mapError((error) => lost(whenLost, error.message)),
        Effect.flatMap((response) =>
          response.status < 400
            ? Effect.succeed(response)
            : Effect.flatMap(
              Effect.orElseSucceed(response.json, () => ({})),
              (body) => Effect.fail(Errors.fromAnswer(response.status, body))
            )
        )
      )

    const decode = <A>(schema: Schema.Codec<A, any>) => (response: HttpClientResponse.HttpClientResponse) =>
      response.json.pipe(Effect.flatMap(Schema.decodeUnknownEffect(schema)), Effect.mapError(() => unexpected))

    const call = <A>(request: HttpClientRequest.HttpClientRequest, schema: Schema.Codec<A, any>) =>
      Effect.flatMap(execute(request), decode(schema))

    /** The headers every versioned REST call needs. */
    const rest = (accessToken: Redacted.Redacted<string>) => (request: HttpClientRequest.HttpClientRequest) =>
      request.pipe(
        HttpClientRequest.bearerToken(accessToken),
        HttpClientRequest.setHeaders({ "LinkedIn-Version": linkedInVersion, "X-Restli-Protocol-Version": "2.0.0" })
      )

    /** The form LinkedIn's token endpoint takes; the client secret goes in the body, never in a URL. */
    const token = (grant: OAuth2.Grant) =>
      call(
        OAuth2.tokenRequest({
          endpoint: `${config.authBaseUrl}/oauth/v2/accessToken`,
          grant,
          clientId: config.clientId,
          clientSecret: config.clientSecret,
          auth: "body"
        }),
        TokenAnswer
      )

    /** Creates a post; LinkedIn answers 201 with its URN in the `x-restli-id` header and no body. */
    const createPost = (accessToken: Redacted.Redacted<string>, body: Request.PostBody) =>
      Effect.flatMap(
        execute(
          HttpClientRequest.post(`${config.apiBaseUrl}/rest/posts`).pipe(rest(accessToken), HttpClientRequest.bodyJsonUnsafe(body)),
          "unknown"
        ),
        (response) =>
          Option.match(restliId(response), {
            onNone: () =>
              Effect.fail(PublishError.outcomeUnknown(Errors.network, "LinkedIn accepted the post but sent no id")),
            onSome: Effect.succeed
          })
      )

    /**
     * Comments on a post, or replies to a comment when `target` is a comment URN. Answers the new comment's
     * URN: from the answer's `commentUrn`, else the `x-restli-id` header (a URN, or the bare comment id,
     * which is put in a URN with the post).
     */
    const createComment = (
      accessToken: Redacted.Redacted<string>,
      params: { readonly target: string; readonly postUrn: string; readonly body: unknown }
    ) =>
      Effect.flatMap(
        execute(
          HttpClientRequest.post(`${config.apiBaseUrl}/rest/socialActions/${encodeURIComponent(params.target)}/comments`).pipe(
            rest(accessToken),
            HttpClientRequest.bodyJsonUnsafe(params.body)
          ),
          "unknown"
        ),
        (response) =>
          Effect.map(
            Effect.orElseSucceed(response.json, () => ({})),
            (answer): string => {
              const created = Option.getOrElse(
                Schema.decodeUnknownOption(CreatedComment)(answer),
                (): typeof CreatedComment.Type => ({})
              )
              if (created.commentUrn !== undefined) return created.commentUrn
              const id = Option.getOrElse(restliId(response), () => created.id ?? "")
              return id.startsWith("urn:li:comment:") ? id : Request.commentUrn(params.postUrn, id)
            }
          )
      )

    return {
      exchangeCode: (params: { readonly code: string; readonly redirectUri: string }) =>
        token({ _tag: "AuthorizationCode", ...params }),

      refresh: (refreshToken: Redacted.Redacted<string>) =>
        token({ _tag: "RefreshToken", refreshToken }),

      /** OpenID Connect userinfo: https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2 */
      userInfo: (accessToken: Redacted.Redacted<string>) =>
        call(HttpClientRequest.get(`${config.apiBaseUrl}/v2/userinfo`).pipe(HttpClientRequest.bearerToken(accessToken)), UserInfo),

      /** Answers the post's URN (`urn:li:share:…`). */
      createPost,

      createComment,

      /** The member's `count` most recent posts, newest first (the author finder). */
      postsByAuthor: (accessToken: Redacted.Redacted<string>, authorUrn: string, count: number) =>
        call(
          HttpClientRequest.get(`${config.apiBaseUrl}/rest/posts`).pipe(
            rest(accessToken),
            HttpClientRequest.setUrlParams({ author: authorUrn, q: "author", count: String(count), sortBy: "LAST_MODIFIED" })
          ),
          PostsPage
        ),

      /**
       * One page of the comments on a post, or of the replies to a comment when `target` is a comment URN.
       * https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/comments-api
       */
      comments: (
        accessToken: Redacted.Redacted<string>,
        params: { readonly target: string; readonly start: number; readonly count: number }
      ) =>
        call(
          HttpClientRequest.get(`${config.apiBaseUrl}/rest/socialActions/${encodeURIComponent(params.target)}/comments`).pipe(
            rest(accessToken),
            HttpClientRequest.setUrlParams({ start: String(params.start), count: String(params.count) })
          ),
          CommentsPage
        ),

      /** https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/images-api */
      initializeImageUpload: (accessToken: Redacted.Redacted<string>, body: unknown) =>
        Effect.map(
          call(
            HttpClientRequest.post(`${config.apiBaseUrl}/rest/images`).pipe(
              rest(accessToken),
              HttpClientRequest.setUrlParam("action", "initializeUpload"),
              HttpClientRequest.bodyJsonUnsafe(body)
            ),
            ImageUpload
          ),
          (answer) => answer.value
        ),

      /** https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/videos-api */
      initializeVideoUpload: (accessToken: Redacted.Redacted<string>, body: unknown) =>
        Effect.map(
          call(
            HttpClientRequest.post(`${config.apiBaseUrl}/rest/videos`).pipe(
              rest(accessToken),
              HttpClientRequest.setUrlParam("action", "initializeUpload"),
              HttpClientRequest.bodyJsonUnsafe(body)
            ),
            VideoUpload
          ),
          (answer): VideoUpload => answer.value
        ),

      finalizeVideoUpload: (accessToken: Redacted.Redacted<string>, body: unknown) =>
        Effect.asVoid(execute(
          HttpClientRequest.post(`${config.apiBaseUrl}/rest/videos`).pipe(
            rest(accessToken),
            HttpClientRequest.setUrlParam("action", "finalizeUpload"),
            HttpClientRequest.bodyJsonUnsafe(body)
          )
        )),

      /** The video's processing status: `PROCESSING`, `AVAILABLE`, `PROCESSING_FAILED`... */
      videoStatus: (accessToken: Redacted.Redacted<string>, videoUrn: string) =>
        Effect.map(
          call(
            HttpClientRequest.get(`${config.apiBaseUrl}/rest/videos/${encodeURIComponent(videoUrn)}`).pipe(rest(accessToken)),
            Video
          ),
          (video) => video.status
        ),

      /**
       * Uploads bytes to an address LinkedIn gave; answers the part's `ETag`. Image uploads want the
       * member's token; video part addresses are signed and are sent without it, as the Videos API shows.
       */
      upload: (params: {
        readonly uploadUrl: string
        readonly bytes: Uint8Array
        readonly accessToken: Redacted.Redacted<string> | undefined
      }) =>
        Effect.map(
          execute(
            HttpClientRequest.put(params.uploadUrl).pipe(
              (request) =>
                params.accessToken === undefined ? request : HttpClientRequest.bearerToken(request, params.accessToken),
              HttpClientRequest.bodyUint8Array(params.bytes, "application/octet-stream")
            )
          ),
          (response) => response.headers["etag"] ?? ""
        )
    }
  })

export type LinkedInClient = Effect.Success<ReturnType<typeof make>>
