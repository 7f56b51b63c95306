import { Effect, Redacted, Schema } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { type AdapterConfig, NetworkClient, OAuth2 } from "@herald/adapter-kit"
import * as Errors from "./internal/errors.ts"
import type * as Request from "./internal/request.ts"

// Typed calls to TikTok's Login Kit v2 and Content Posting API, answers decoded with minimal, lenient
// schemas, through the kit's `NetworkClient`; a refusal is read by the table in `internal/errors.ts`.
// https://developers.tiktok.com/doc/oauth-user-access-token-management
// https://developers.tiktok.com/doc/content-posting-api-reference-direct-post

export const TokenAnswer = Schema.Struct({
  open_id: Schema.String,
  scope: Schema.String,
  access_token: Schema.String,
  expires_in: Schema.Number,
  refresh_token: Schema.String,
  refresh_expires_in: Schema.optionalKey(Schema.Number)
})
export type TokenAnswer = typeof TokenAnswer.Type

/**
 * The API envelope of a success: `error.code` is "ok". Any other code fails this, and the envelope goes to
 * `Errors.refusedIn`, which reads it.
 */
const Envelope = <A>(data: Schema.Decoder<A>) =>
  Schema.Struct({
    data,
    error: Schema.optionalKey(Schema.Struct({ code: Schema.Literal("ok"), message: Schema.optionalKey(Schema.String) }))
  })

export const User = Schema.Struct({
  user: Schema.Struct({
    open_id: Schema.String,
    username: Schema.optionalKey(Schema.String),
    display_name: Schema.optionalKey(Schema.String),
    avatar_url: Schema.optionalKey(Schema.String)
  })
})

export const CreatorInfo = Schema.Struct({
  creator_username: Schema.optionalKey(Schema.String),
  privacy_level_options: Schema.Array(Schema.String),
  comment_disabled: Schema.optionalKey(Schema.Boolean),
  duet_disabled: Schema.optionalKey(Schema.Boolean),
  stitch_disabled: Schema.optionalKey(Schema.Boolean),
  max_video_post_duration_sec: Schema.optionalKey(Schema.Number)
})

const Initialized = Schema.Struct({ publish_id: Schema.String })

export const PublishStatus = Schema.Struct({
  status: Schema.String,
  fail_reason: Schema.optionalKey(Schema.String),
  /** TikTok's own words beside a `fail_reason`: the envelope's `error.message`, which it fills for some failures. */
  message: Schema.optionalKey(Schema.String),
  // Post ids are int64 in JSON; `keepLargeIntegers` hands them over as strings so no digit is lost.
  publicaly_available_post_id: Schema.optionalKey(Schema.Array(Schema.Union([Schema.String, Schema.Number])))
})
export type PublishStatus = typeof PublishStatus.Type

/**
 * A JSON reviver that keeps integers past 2^53 as their source text. TikTok post ids are 19-digit int64
 * numbers (`publicaly_available_post_id: [7312345678901234567]`); as JavaScript numbers they would round.
 */
const keepLargeIntegers = (_key: string, value: unknown, context?: { readonly source?: string }): unknown =>
  typeof value === "number" && Number.isInteger(value) && !Number.isSafeInteger(value) && context?.source !== undefined
    ? context.source
    : value

export const make = (config: AdapterConfig.AdapterConfig) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient

    const tiktok = NetworkClient.fromHttp(client, { ...Errors.client, reviver: keepLargeIntegers })

    /** An API call: `data` decoded with `schema`, with the envelope's `error.message` beside it. */
    const api = <A>(request: HttpClientRequest.HttpClientRequest, schema: Schema.Decoder<A>, call: NetworkClient.Call) =>
      Effect.map(tiktok.send(request, Envelope(schema), call), (answer) => ({ data: answer.data, message: answer.error?.message }))

    /** The token endpoint: form in, `TokenAnswer` or `{ error, error_description }` (read by the table) out. */
    const token = (grant: OAuth2.Grant) =>
      tiktok.send(
        OAuth2.tokenRequest({
          endpoint: `${config.apiBaseUrl}/v2/oauth/token/`,
          grant,
          clientIdParam: "client_key",
          clientId: config.clientId,
          clientSecret: config.clientSecret,
          auth: "body"
        }),
        TokenAnswer
      )

    const bearer = (accessToken: Redacted.Redacted<string>) => HttpClientRequest.bearerToken(Redacted.value(accessToken))
    const postJson = (path: string, accessToken: Redacted.Redacted<string>, body: unknown) =>
      HttpClientRequest.post(`${config.apiBaseUrl}${path}`).pipe(
        bearer(accessToken),
        HttpClientRequest.bodyJsonUnsafe(body)
      )

    return {
      exchangeCode: (code: string, redirectUri: string) =>
        token({ _tag: "AuthorizationCode", code, redirectUri }),

      /** TikTok rotates refresh tokens: the answer's `refresh_token` replaces the one sent. */
      refresh: (refreshToken: Redacted.Redacted<string>) =>
        token({ _tag: "RefreshToken", refreshToken }),

      userInfo: (accessToken: Redacted.Redacted<string>) =>
        Effect.map(
          api(
            HttpClientRequest.get(`${config.apiBaseUrl}/v2/user/info/`).pipe(
              bearer(accessToken),
              HttpClientRequest.setUrlParam("fields", "open_id,union_id,avatar_url,display_name,username")
            ),
            User,
            "read"
          ),
          (answer) => answer.data
        ),

      creatorInfo: (accessToken: Redacted.Redacted<string>) =>
        Effect.map(api(postJson("/v2/post/publish/creator_info/query/", accessToken, {}), CreatorInfo, "read"), (answer) => answer.data),

      init: (accessToken: Redacted.Redacted<string>, init: Request.Init) =>
        Effect.map(
          api(
            init._tag === "Video"
              ? postJson("/v2/post/publish/video/init/", accessToken, init.body)
              : postJson("/v2/post/publish/content/init/", accessToken, init.body),
            Initialized,
            "makesPost"
          ),
          (answer) => answer.data.publish_id
        ),

      // The envelope's message is kept with the status, since a failed post's `error.code` is still "ok".
      fetchStatus: (accessToken: Redacted.Redacted<string>, publishId: string) =>
        Effect.map(
          api(postJson("/v2/post/publish/status/fetch/", accessToken, { publish_id: publishId }), PublishStatus, "read"),
          ({ data, message }): PublishStatus => message === undefined || message === "" ? data : { ...data, message }
        )
    }
  })

export type TikTokClient = Effect.Success<ReturnType<typeof make>>
