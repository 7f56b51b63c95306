import { type AdapterConfig, NetworkClient, OAuth2 } from "@herald/adapter-kit"
import { Effect, Redacted, Schema } from "effect"
import { HttpClientRequest } from "effect/http"
import * as Errors from "./internal/errors.ts"
import type { ContainerParams } from "./internal/request.ts"

/**
 * Typed calls to the Threads API (https://developers.facebook.com/documentation/threads). Addresses come
 * from the config, so the same calls reach graph.threads.net or the sandbox simulator. Every call goes through
 * the kit's `NetworkClient`; answers are decoded with minimal, lenient schemas, refusals become
 * `PublishError`s through `internal/errors.ts`.
 */

export const version = "v1.0"

/**
 * `threads_manage_replies` posts replies (the first comment, answers from the inbox); `threads_read_replies`
 * reads them (https://developers.facebook.com/documentation/threads/reference/reply-management).
 */
export const scopes = ["threads_basic", "threads_content_publish", "threads_manage_replies", "threads_read_replies"] as const

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
/** Threads leaves `permalink` out of media flagged for copyright, so it is optional. */
const Permalink = Schema.Struct({ id: Schema.String, permalink: Schema.optional(Schema.String) })
const Threads = Schema.Struct({
  data: Schema.Array(Schema.Struct({
    id: Schema.String,
    text: Schema.optional(Schema.String),
    permalink: Schema.optional(Schema.String)
  }))
})

/** The fields the inbox reads of a reply; `username` and `permalink` are only given for public profiles. */
const replyFields = "id,text,username,permalink,timestamp,root_post,replied_to,is_reply_owned_by_me"

const MediaRef = Schema.Struct({ id: Schema.String })
const Reply = Schema.Struct({
  id: Schema.String,
  text: Schema.optional(Schema.String),
  username: Schema.optional(Schema.String),
  permalink: Schema.optional(Schema.String),
  timestamp: Schema.String,
  root_post: Schema.optional(MediaRef),
  replied_to: Schema.optional(MediaRef),
  is_reply_owned_by_me: Schema.optional(Schema.Boolean)
})
export type Reply = typeof Reply.Type
const Replies = Schema.Struct({
  data: Schema.Array(Reply),
  paging: Schema.optional(Schema.Struct({
    cursors: Schema.optional(Schema.Struct({ after: Schema.optional(Schema.String) })),
    next: Schema.optional(Schema.String)
  }))
})

export const make = Effect.fnUntraced(function*(config: AdapterConfig.AdapterConfig) {
  const { send } = yield* NetworkClient.make({ network: "threads", name: "Threads", refusal: Errors.refusal })
  const api = config.apiBaseUrl
  const graph = `${api}/${version}`

  const bearer = (token: Redacted.Redacted<string>) => HttpClientRequest.bearerToken(token)

  return {
    /** Code for a short-lived (1 h) token: `POST /oauth/access_token`. */
    exchangeCode: (code: string, redirectUri: string) =>
      send(
        OAuth2.tokenRequest({
          endpoint: `${api}/oauth/access_token`,
          grant: { _tag: "AuthorizationCode", code, redirectUri },
          clientId: config.clientId,
          clientSecret: config.clientSecret,
          auth: "body"
        }),
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
          "makesPost"
        ),
        (created) => created.id
      ),

    /** Undefined when Threads leaves the link out (copyright-flagged media). */
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

    /** The account's latest posts, newest first: for reconcile, and the posts whose replies the inbox reads. */
    recentThreads: (accessToken: Redacted.Redacted<string>, limit = 100) =>
      Effect.map(
        send(
          HttpClientRequest.get(`${graph}/me/threads`).pipe(
            bearer(accessToken),
            HttpClientRequest.setUrlParams({ fields: "id,text,permalink", limit: String(limit) })
          ),
          Threads
        ),
        (answer) => answer.data
      ),

    /**
     * One page of a post's replies at every depth, flattened, newest first (`reverse=true`, Threads'
     * default, asked for explicitly because the inbox stops reading at the first reply it has seen):
     * `GET /{media-id}/conversation` (https://developers.facebook.com/documentation/threads/retrieve-and-manage-replies/replies-and-conversations).
     * `after` is the previous page's cursor; the next cursor is only given when Threads has more.
     */
    conversation: (accessToken: Redacted.Redacted<string>, mediaId: string, limit: number, after: string | undefined) =>
      Effect.map(
        send(
          HttpClientRequest.get(`${graph}/${mediaId}/conversation`).pipe(
            bearer(accessToken),
            HttpClientRequest.setUrlParams({
              fields: replyFields,
              reverse: "true",
              limit: String(limit),
              ...(after === undefined ? {} : { after })
            })
          ),
          Replies
        ),
        (answer) => ({
          replies: answer.data,
          after: answer.paging?.next === undefined ? undefined : answer.paging.cursors?.after
        })
      )
  }
})

export type ThreadsClient = Effect.Success<ReturnType<typeof make>>
