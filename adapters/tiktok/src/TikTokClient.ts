import { Effect, Option, Redacted, Schema } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { type AdapterConfig, OAuth2, type PublishError } from "@herald/adapter-kit"
import * as Errors from "./internal/errors.ts"
import type * as Request from "./internal/request.ts"

// Typed calls to TikTok's Login Kit v2 and Content Posting API, answers decoded with minimal, lenient
// schemas. Every failure is already a `PublishError` (through `internal/errors.ts`).
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

/** The token endpoint's error answer, which is not the API envelope. */
const OAuthError = Schema.Struct({ error: Schema.String, error_description: Schema.optionalKey(Schema.String) })

/** The API envelope: `error.code` is "ok" on success. */
const Envelope = Schema.Struct({
  data: Schema.optionalKey(Schema.Unknown),
  error: Schema.optionalKey(Schema.Struct({ code: Schema.String, message: Schema.optionalKey(Schema.String) }))
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

const decodeJson = <A>(schema: Schema.Decoder<A>) =>
  Schema.decodeUnknownOption(Schema.fromJsonString(schema, { reviver: keepLargeIntegers }))

export const make = (config: AdapterConfig.AdapterConfig) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient

    /** Sends a request and hands back the raw status and body text; only a lost answer fails here. */
    const exchange = (request: HttpClientRequest.HttpClientRequest, call: "read" | "create") =>
      client.execute(request).pipe(
        Effect.flatMap((response) =>
          Effect.map(response.text, (text) => ({ status: response.status, text }))
        ),
        Effect.mapError((error) => Errors.fromTransport(error.message, call))
      )

    /**
     * An API call: the envelope's error code decides failure; `data` is decoded with `schema`, with the
     * envelope's non-empty `error.message` as `message` when `withMessage`.
     */
    const api = <A>(
      request: HttpClientRequest.HttpClientRequest,
      schema: Schema.Decoder<A>,
      call: "read" | "create",
      withMessage = false
    ): Effect.Effect<A, PublishError.PublishError> =>
      Effect.flatMap(exchange(request, call), ({ status, text }) => {
        const envelope = decodeJson(Envelope)(text)
        const error = Option.flatMap(envelope, (answer) => Option.fromNullishOr(answer.error))
        if (Option.isSome(error) && error.value.code !== "ok") {
          return Effect.fail(Errors.fromCode({ status, code: error.value.code, message: error.value.message }))
        }
        if (status >= 400 || Option.isNone(envelope)) {
          return Effect.fail(Errors.fromCode({ status, code: `http_${status}` }))
        }
        const message = Option.getOrUndefined(error)?.message
        const data = withMessage && message !== undefined && message !== "" && typeof envelope.value.data === "object"
          ? { ...envelope.value.data, message }
          : envelope.value.data
        return Effect.mapError(
          Schema.decodeUnknownEffect(schema)(data),
          () =>
            call === "create"
              ? Errors.fromTransport(`unreadable answer to ${request.url}`, "create")
              : Errors.unexpected(request.url)
        )
      })

    /** The token endpoint: form in, `TokenAnswer` or `{ error, error_description }` out. */
    const token = (grant: OAuth2.Grant) =>
      Effect.flatMap(
        exchange(
          OAuth2.tokenRequest({
            endpoint: `${config.apiBaseUrl}/v2/oauth/token/`,
            grant,
            clientIdParam: "client_key",
            clientId: config.clientId,
            clientSecret: config.clientSecret,
            auth: "body"
          }),
          "read"
        ),
        ({ status, text }) =>
          Option.match(decodeJson(TokenAnswer)(text), {
            onSome: Effect.succeed,
            onNone: () =>
              Effect.fail(Option.match(decodeJson(OAuthError)(text), {
                onSome: (answer) => Errors.fromCode({ status, code: answer.error, message: answer.error_description }),
                onNone: () => Errors.fromCode({ status, code: `http_${status}` })
              }))
          })
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
        api(
          HttpClientRequest.get(`${config.apiBaseUrl}/v2/user/info/`).pipe(
            bearer(accessToken),
            HttpClientRequest.setUrlParam("fields", "open_id,union_id,avatar_url,display_name,username")
          ),
          User,
          "read"
        ),

      creatorInfo: (accessToken: Redacted.Redacted<string>) =>
        api(postJson("/v2/post/publish/creator_info/query/", accessToken, {}), CreatorInfo, "read"),

      init: (accessToken: Redacted.Redacted<string>, init: Request.Init) =>
        Effect.map(
          api(
            init._tag === "Video"
              ? postJson("/v2/post/publish/video/init/", accessToken, init.body)
              : postJson("/v2/post/publish/content/init/", accessToken, init.body),
            Initialized,
            "create"
          ),
          (answer) => answer.publish_id
        ),

      // The envelope's message is kept with the status, since a failed post's `error.code` is still "ok".
      fetchStatus: (accessToken: Redacted.Redacted<string>, publishId: string) =>
        api(postJson("/v2/post/publish/status/fetch/", accessToken, { publish_id: publishId }), PublishStatus, "read", true)
    }
  })

export type TikTokClient = Effect.Success<ReturnType<typeof make>>
