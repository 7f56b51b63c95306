import type { AdapterConfig } from "@herald/adapter-kit"
import { Effect, Redacted, Schema } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import * as Errors from "./internal/errors.ts"
import type { ContainerParams } from "./internal/request.ts"

/**
 * Typed calls to the Threads API (https://developers.facebook.com/documentation/threads). Addresses come
 * from the config, so the same calls reach graph.threads.net or the sandbox simulator. Answers are decoded
 * with minimal, lenient schemas; failures become `PublishError`s through `internal/errors.ts`.
 */

export const version = "v1.0"

export const scopes = ["threads_basic", "threads_content_publish", "threads_manage_replies"] as const

const ShortLivedToken = Schema.Struct({ access_token: Schema.String, user_id: Schema.optional(Schema.Unknown) })
const LongLivedToken = Schema.Struct({ access_token: Schema.String, expires_in: Schema.optional(Schema.Number) })
export type LongLivedToken = typeof LongLivedToken.Type

const Me = Schema.Struct({
  id: Schema.String,
  username: Schema.String,
  name: Schema.optional(Schema.String),
  threads_profile_picture_url: Schema.optional(Schema.String)
})
const Created = Schema.Struct({ id: Schema.String })
const Container = Schema.Struct({
  id: Schema.String,
  status: Schema.String,
  error_message: Schema.optional(Schema.String)
})
export type Container = typeof Container.Type
const Permalink = Schema.Struct({ id: Schema.String, permalink: Schema.String })
const Threads = Schema.Struct({
  data: Schema.Array(Schema.Struct({
    id: Schema.String,
    text: Schema.optional(Schema.String),
    permalink: Schema.optional(Schema.String)
  }))
})

export const make = Effect.fnUntraced(function*(config: AdapterConfig.AdapterConfig) {
  const client = yield* HttpClient.HttpClient
  const api = config.apiBaseUrl
  const graph = `${api}/${version}`

  /** `create` marks the call that makes a post: when its answer is lost, the outcome is unknown. */
  const send = <A>(request: HttpClientRequest.HttpClientRequest, schema: Schema.Codec<A, any>, create = false) =>
    client.execute(request).pipe(
      Effect.mapError((error) => Errors.lost(create, error.message)),
      Effect.flatMap((response) =>
        Effect.flatMap(Effect.orElseSucceed(response.json, () => ({})), (body) =>
          response.status >= 400
            ? Effect.fail(Errors.toPublishError(Errors.wire(response.status, body)))
            : Effect.mapError(
              Schema.decodeUnknownEffect(schema)(body),
              () => Errors.lost(create, `unexpected answer from ${request.url}`)
            ))
      )
    )

  const bearer = (token: Redacted.Redacted<string>) => HttpClientRequest.bearerToken(token)

  return {
    /** Code for a short-lived (1 h) token: `POST /oauth/access_token`. */
    exchangeCode: (code: string, redirectUri: string) =>
      send(
        HttpClientRequest.post(`${api}/oauth/access_token`).pipe(
          HttpClientRequest.bodyUrlParams({
            client_id: config.clientId,
            client_secret: config.clientSecret,
            grant_type: "authorization_code",
            redirect_uri: redirectUri,
            code
          })
        ),
        ShortLivedToken
      ),

    /**
     * Short-lived for long-lived (60 d): `GET /access_token?grant_type=th_exchange_token`. Meta documents it
     * as a GET with the secret in the query; the values stay `Redacted`, so logs and errors never show them.
     */
    longLived: (shortLived: string) =>
      send(
        HttpClientRequest.get(`${api}/access_token`).pipe(
          HttpClientRequest.setUrlParams({
            grant_type: "th_exchange_token",
            client_secret: config.clientSecret,
            access_token: Redacted.make(shortLived)
          })
        ),
        LongLivedToken
      ),

    /** A long-lived token renews itself: `GET /refresh_access_token?grant_type=th_refresh_token`. */
    refresh: (longLived: Redacted.Redacted<string>) =>
      send(
        HttpClientRequest.get(`${api}/refresh_access_token`).pipe(
          HttpClientRequest.setUrlParams({ grant_type: "th_refresh_token", access_token: longLived })
        ),
        LongLivedToken
      ),

    me: (accessToken: Redacted.Redacted<string>) =>
      send(
        HttpClientRequest.get(`${graph}/me`).pipe(
          bearer(accessToken),
          HttpClientRequest.setUrlParam("fields", "id,username,name,threads_profile_picture_url")
        ),
        Me
      ),

    /** A container is only a draft Threads prepares; losing its answer leaves nothing published. */
    createContainer: (accessToken: Redacted.Redacted<string>, userId: string, params: ContainerParams) =>
      Effect.map(
        send(
          HttpClientRequest.post(`${graph}/${userId}/threads`).pipe(
            bearer(accessToken),
            HttpClientRequest.bodyUrlParams(params)
          ),
          Created
        ),
        (created) => created.id
      ),

    container: (accessToken: Redacted.Redacted<string>, containerId: string) =>
      send(
        HttpClientRequest.get(`${graph}/${containerId}`).pipe(
          bearer(accessToken),
          HttpClientRequest.setUrlParam("fields", "id,status,error_message")
        ),
        Container
      ),

    publish: (accessToken: Redacted.Redacted<string>, userId: string, containerId: string) =>
      Effect.map(
        send(
          HttpClientRequest.post(`${graph}/${userId}/threads_publish`).pipe(
            bearer(accessToken),
            HttpClientRequest.bodyUrlParams({ creation_id: containerId })
          ),
          Created,
          true
        ),
        (created) => created.id
      ),

    permalink: (accessToken: Redacted.Redacted<string>, mediaId: string) =>
      Effect.map(
        send(
          HttpClientRequest.get(`${graph}/${mediaId}`).pipe(
            bearer(accessToken),
            HttpClientRequest.setUrlParam("fields", "id,permalink")
          ),
          Permalink
        ),
        (answer) => answer.permalink
      ),

    /** The account's latest posts, for reconcile. */
    recentThreads: (accessToken: Redacted.Redacted<string>) =>
      Effect.map(
        send(
          HttpClientRequest.get(`${graph}/me/threads`).pipe(
            bearer(accessToken),
            HttpClientRequest.setUrlParams({ fields: "id,text,permalink", limit: "100" })
          ),
          Threads
        ),
        (answer) => answer.data
      )
  }
})

export type ThreadsClient = Effect.Success<ReturnType<typeof make>>
