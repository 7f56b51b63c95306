import { Effect, Option, Redacted, Schema } from "effect"
import { HttpClient, HttpClientRequest, type HttpClientResponse } from "effect/http"
import { type AdapterConfig, NetworkClient, OAuth2, PublishError } from "@herald/adapter-kit"
import * as Errors from "./internal/errors.ts"
import { api } from "./LinkedInLimits.ts"
import * as Request from "./internal/request.ts"

// Typed calls to LinkedIn's OAuth endpoints, OpenID userinfo and the versioned REST API (`/rest/*`).
// Every address is built from the config, so the same calls reach LinkedIn or the sandbox simulator.

/** Every `/rest` call names the API version it was written against (LinkedInLimits.ts `api`, with its sunset). */
export const linkedInVersion = api.version

// Minimal and lenient schemas of LinkedIn's answers: only what Herald reads. Its token answer is RFC 6749's
// (`OAuth2.TokenAnswer`).

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

const decodeComponent = Option.liftThrowable(decodeURIComponent)

/** The created entity's id from the `x-restli-id` header, which Rest.li may percent-encode. */
const restliId = (response: HttpClientResponse.HttpClientResponse): Option.Option<string> =>
  Option.map(Option.fromNullishOr(response.headers["x-restli-id"]), (id) => Option.getOrElse(decodeComponent(id), () => id))

export const make = (config: AdapterConfig.AdapterConfig) =>
  Effect.gen(function*() {
    const http = yield* HttpClient.HttpClient
    const options = { network: Errors.network, name: "LinkedIn", refusal: Errors.refusal }
    // OAuth, userinfo and the upload addresses LinkedIn hands out take no API version; every `/rest` call
    // names the one it was written against.
    const plain = NetworkClient.fromHttp(http, options)
    const versioned = NetworkClient.fromHttp(http, {
      ...options,
      baseUrl: `${config.apiBaseUrl}/rest`,
      headers: { "LinkedIn-Version": linkedInVersion, "X-Restli-Protocol-Version": "2.0.0" }
    })

    /** The form LinkedIn's token endpoint takes; the client secret goes in the body, never in a URL. */
    const token = (grant: OAuth2.Grant) =>
      plain.send(
        OAuth2.tokenRequest({
          endpoint: `${config.authBaseUrl}/oauth/v2/accessToken`,
          grant,
          clientId: config.clientId,
          clientSecret: config.clientSecret,
          auth: "body"
        }),
        OAuth2.TokenAnswer
      )

    /** Creates a post; LinkedIn answers 201 with its URN in the `x-restli-id` header and no body. */
    const createPost = (accessToken: Redacted.Redacted<string>, body: Request.PostBody) =>
      Effect.flatMap(
        versioned.execute(
          HttpClientRequest.post("/posts").pipe(HttpClientRequest.bearerToken(accessToken), HttpClientRequest.bodyJsonUnsafe(body)),
          "makesPost"
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
        versioned.execute(
          HttpClientRequest.post(`/socialActions/${encodeURIComponent(params.target)}/comments`).pipe(
            HttpClientRequest.bearerToken(accessToken),
            HttpClientRequest.bodyJsonUnsafe(params.body)
          ),
          "makesPost"
        ),
        (response) =>
          Effect.map(
            // The comment was made: an answer without a body is read through the header.
            Effect.orElseSucceed(versioned.decode(response, CreatedComment, "makesPost"), (): typeof CreatedComment.Type => ({})),
            (created): string => {
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
        plain.send(HttpClientRequest.get(`${config.apiBaseUrl}/v2/userinfo`).pipe(HttpClientRequest.bearerToken(accessToken)), UserInfo),

      /** Answers the post's URN (`urn:li:share:…`). */
      createPost,

      createComment,

      /** The member's `count` most recent posts, newest first (the author finder). */
      postsByAuthor: (accessToken: Redacted.Redacted<string>, authorUrn: string, count: number) =>
        versioned.send(
          HttpClientRequest.get("/posts").pipe(
            HttpClientRequest.bearerToken(accessToken),
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
        versioned.send(
          HttpClientRequest.get(`/socialActions/${encodeURIComponent(params.target)}/comments`).pipe(
            HttpClientRequest.bearerToken(accessToken),
            HttpClientRequest.setUrlParams({ start: String(params.start), count: String(params.count) })
          ),
          CommentsPage
        ),

      /** https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/images-api */
      initializeImageUpload: (accessToken: Redacted.Redacted<string>, body: unknown) =>
        Effect.map(
          versioned.send(
            HttpClientRequest.post("/images").pipe(
              HttpClientRequest.bearerToken(accessToken),
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
          versioned.send(
            HttpClientRequest.post("/videos").pipe(
              HttpClientRequest.bearerToken(accessToken),
              HttpClientRequest.setUrlParam("action", "initializeUpload"),
              HttpClientRequest.bodyJsonUnsafe(body)
            ),
            VideoUpload
          ),
          (answer): VideoUpload => answer.value
        ),

      finalizeVideoUpload: (accessToken: Redacted.Redacted<string>, body: unknown) =>
        Effect.asVoid(versioned.execute(
          HttpClientRequest.post("/videos").pipe(
            HttpClientRequest.bearerToken(accessToken),
            HttpClientRequest.setUrlParam("action", "finalizeUpload"),
            HttpClientRequest.bodyJsonUnsafe(body)
          )
        )),

      /** The video's processing status: `PROCESSING`, `AVAILABLE`, `PROCESSING_FAILED`... */
      videoStatus: (accessToken: Redacted.Redacted<string>, videoUrn: string) =>
        Effect.map(
          versioned.send(
            HttpClientRequest.get(`/videos/${encodeURIComponent(videoUrn)}`).pipe(HttpClientRequest.bearerToken(accessToken)),
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
          plain.execute(
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
