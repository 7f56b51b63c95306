import { NetworkClient, OAuth2 } from "@herald/adapter-kit"
import { Effect, Redacted, Schema } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import * as Errors from "./internal/errors.ts"

/**
 * Typed calls to one Mastodon instance's REST API (https://docs.joinmastodon.org/methods/). Every call names
 * the instance (`base`, e.g. `https://mastodon.social`): an adapter serves accounts of many. Answers are
 * decoded with lenient schemas; every call goes through the kit's `NetworkClient`, failures becoming `PublishError`s through
 * `internal/errors.ts`.
 */

const Application = Schema.Struct({ client_id: Schema.String, client_secret: Schema.String })

const Token = Schema.Struct({ access_token: Schema.String, scope: Schema.optional(Schema.String) })

const Account = Schema.Struct({
  id: Schema.String,
  username: Schema.String,
  acct: Schema.String,
  display_name: Schema.optional(Schema.String),
  avatar: Schema.optional(Schema.String),
  url: Schema.optional(Schema.NullOr(Schema.String))
})
export type Account = typeof Account.Type

const Status = Schema.Struct({
  id: Schema.String,
  url: Schema.optional(Schema.NullOr(Schema.String)),
  uri: Schema.String,
  content: Schema.String,
  in_reply_to_id: Schema.optional(Schema.NullOr(Schema.String)),
  visibility: Schema.String,
  created_at: Schema.String,
  account: Account,
  media_attachments: Schema.optional(Schema.Array(Schema.Struct({ id: Schema.String })))
})
export type Status = typeof Status.Type

const Media = Schema.Struct({ id: Schema.String, url: Schema.optional(Schema.NullOr(Schema.String)) })
export type Media = typeof Media.Type

const Context = Schema.Struct({ ancestors: Schema.Array(Status), descendants: Schema.Array(Status) })

const Notification = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  created_at: Schema.String,
  account: Account,
  status: Schema.optional(Schema.NullOr(Status))
})
export type Notification = typeof Notification.Type

const Conversation = Schema.Struct({
  id: Schema.String,
  accounts: Schema.Array(Account),
  last_status: Schema.optional(Schema.NullOr(Status))
})
export type Conversation = typeof Conversation.Type

/** What `/api/v2/instance` says about posting (https://docs.joinmastodon.org/entities/Instance/#configuration); all optional. */
const Instance = Schema.Struct({
  configuration: Schema.optional(Schema.Struct({
    statuses: Schema.optional(Schema.Struct({
      max_characters: Schema.optional(Schema.Number),
      max_media_attachments: Schema.optional(Schema.Number)
    })),
    media_attachments: Schema.optional(Schema.Struct({
      image_size_limit: Schema.optional(Schema.Number),
      video_size_limit: Schema.optional(Schema.Number),
      description_limit: Schema.optional(Schema.Number)
    }))
  }))
})
export type Instance = typeof Instance.Type

export const make = Effect.fnUntraced(function*() {
  const client = yield* HttpClient.HttpClient

  const { send } = NetworkClient.fromHttp(client, {
    network: "mastodon",
    name: "Mastodon",
    refusal: Errors.refusal,
    resetHeader: Errors.resetHeader
  })

  const bearer = (token: Redacted.Redacted<string>) => HttpClientRequest.bearerToken(token)
  const get = (base: string, path: string, token: Redacted.Redacted<string>) => HttpClientRequest.get(`${base}${path}`).pipe(bearer(token))

  return {
    /** Registers Herald on the instance (`POST /api/v1/apps`, https://docs.joinmastodon.org/methods/apps/#create). */
    registerApp: (base: string, input: { readonly redirectUri: string; readonly scopes: ReadonlyArray<string> }) =>
      send(
        HttpClientRequest.post(`${base}/api/v1/apps`).pipe(
          HttpClientRequest.bodyJsonUnsafe({
            client_name: "Herald",
            redirect_uris: input.redirectUri,
            scopes: input.scopes.join(" ")
          })
        ),
        Application
      ),

    /** `POST /oauth/token` with an authorization code (https://docs.joinmastodon.org/methods/oauth/#token). */
    token: (base: string, params: Omit<OAuth2.TokenParams, "endpoint">) =>
      send(OAuth2.tokenRequest({ ...params, endpoint: `${base}/oauth/token` }), Token),

    verifyCredentials: (base: string, token: Redacted.Redacted<string>) =>
      send(get(base, "/api/v1/accounts/verify_credentials", token), Account),

    /** The instance's settings, public (`GET /api/v2/instance`). */
    instance: (base: string) => send(HttpClientRequest.get(`${base}/api/v2/instance`), Instance),

    /**
     * `POST /api/v2/media` (https://docs.joinmastodon.org/methods/media/#v2): answered 200 with `url` when
     * processed at once (small images), 202 with `url` null while the instance processes it (videos).
     */
    uploadMedia: (
      base: string,
      token: Redacted.Redacted<string>,
      input: { readonly bytes: Uint8Array; readonly mimeType: string; readonly filename: string; readonly description: string | null }
    ) => {
      const form = new FormData()
      form.append("file", new Blob([input.bytes], { type: input.mimeType }), input.filename)
      if (input.description !== null) form.append("description", input.description)
      return send(HttpClientRequest.post(`${base}/api/v2/media`).pipe(bearer(token), HttpClientRequest.bodyFormData(form)), Media)
    },

    /** `GET /api/v1/media/:id`: `url` stays null (206 Partial Content) until processing ends. */
    media: (base: string, token: Redacted.Redacted<string>, id: string) =>
      send(get(base, `/api/v1/media/${encodeURIComponent(id)}`, token), Media),

    /** `POST /api/v1/statuses`: the call that makes a status, sent with its `Idempotency-Key`. */
    createStatus: (base: string, token: Redacted.Redacted<string>, body: Readonly<Record<string, unknown>>, key: string) =>
      send(
        HttpClientRequest.post(`${base}/api/v1/statuses`).pipe(
          bearer(token),
          HttpClientRequest.setHeader("idempotency-key", key),
          HttpClientRequest.bodyJsonUnsafe(body)
        ),
        Status,
        "makesPost"
      ),

    /** `GET /api/v1/statuses/:id`. */
    status: (base: string, token: Redacted.Redacted<string>, id: string) =>
      send(get(base, `/api/v1/statuses/${encodeURIComponent(id)}`, token), Status),

    /** The account's latest statuses, replies included, newest first (`GET /api/v1/accounts/:id/statuses`). */
    accountStatuses: (base: string, token: Redacted.Redacted<string>, accountId: string, limit = 40) =>
      send(
        get(base, `/api/v1/accounts/${encodeURIComponent(accountId)}/statuses`, token).pipe(
          HttpClientRequest.setUrlParams({ limit: String(limit) })
        ),
        Schema.Array(Status)
      ),

    /** The statuses above and below one (`GET /api/v1/statuses/:id/context`). */
    context: (base: string, token: Redacted.Redacted<string>, id: string) =>
      send(get(base, `/api/v1/statuses/${encodeURIComponent(id)}/context`, token), Context),

    /** Mentions of the account, newest first, after `sinceId` (`GET /api/v1/notifications?types[]=mention`). */
    mentions: (base: string, token: Redacted.Redacted<string>, sinceId: string | undefined) =>
      send(
        get(base, "/api/v1/notifications", token).pipe(
          HttpClientRequest.setUrlParams({ "types[]": "mention", limit: "40", ...(sinceId === undefined ? {} : { since_id: sinceId }) })
        ),
        Schema.Array(Notification)
      ),

    /** The account's direct conversations, latest activity first (`GET /api/v1/conversations`). */
    conversations: (base: string, token: Redacted.Redacted<string>) =>
      send(get(base, "/api/v1/conversations", token).pipe(HttpClientRequest.setUrlParams({ limit: "40" })), Schema.Array(Conversation))
  }
})

export type MastodonClient = Effect.Success<ReturnType<typeof make>>
