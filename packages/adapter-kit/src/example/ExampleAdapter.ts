import { Clock, Effect, Option, Redacted, Schema } from "effect"
import { createHmac, timingSafeEqual } from "node:crypto"
import { HttpClientRequest } from "effect/http"
import { Adapter, type AdapterConfig, NetworkClient, OAuth2, PublishError } from "../index.ts"
import { api, capabilities, limits } from "./ExampleLimits.ts"
import { options } from "./ExampleOptions.ts"
import { toError } from "./internal/errors.ts"

// The example network's adapter (the guide's sections 4 to 6; a real adapter's `src/<Network>Adapter.ts`,
// whose answer schemas and calls would sit in `src/<Network>Client.ts`): OAuth 2 with PKCE, publishing and
// reconcile, and the inbox with the network's signed webhook.

const network = "example"

const TokenAnswer = Schema.Struct({
  access_token: Schema.String,
  refresh_token: Schema.String,
  expires_in: Schema.Number
})
const Me = Schema.Struct({ id: Schema.String, username: Schema.String })
const Created = Schema.Struct({ id: Schema.String, url: Schema.String })
const Posts = Schema.Struct({ data: Schema.Array(Schema.Struct({ id: Schema.String, text: Schema.String, url: Schema.String })) })
const Person = Schema.Struct({ id: Schema.String, username: Schema.String, name: Schema.NullOr(Schema.String) })
const Comment = Schema.Struct({
  id: Schema.String,
  postId: Schema.String,
  replyTo: Schema.NullOr(Schema.String),
  author: Person,
  text: Schema.String,
  permalink: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})
const Message = Schema.Struct({
  id: Schema.String,
  conversationId: Schema.String,
  from: Person,
  text: Schema.String,
  attachments: Schema.Number,
  outgoing: Schema.Boolean,
  createdAt: Schema.String
})
const Inbox = Schema.Struct({ comments: Schema.Array(Comment), messages: Schema.Array(Message), cursor: Schema.String })
/** A webhook notification: which accounts have news. */
const Notification = Schema.Struct({ accounts: Schema.Array(Schema.String) })

export const make = (config: AdapterConfig.AdapterConfig) =>
  Effect.gen(function*() {
    // The kit's transport: a call marked "makesPost" makes something on the network, so when its answer is
    // lost (the connection dropped, or an answer that cannot be read) the network may have made it; the
    // outcome is unknown and the engine looks (`reconcile`) before sending again. Any other call is safe to
    // repeat: a passing fault.
    const { send } = yield* NetworkClient.make({ network, name: "Example", refusal: toError })
    // Effect's clock, not the wall clock: a test moves it with TestClock.
    const tokens = (answer: typeof TokenAnswer.Type) =>
      Effect.map(Clock.currentTimeMillis, (now) => ({
        accessToken: Redacted.make(answer.access_token),
        refreshToken: Option.some(Redacted.make(answer.refresh_token)),
        expiresAt: Option.some(now + answer.expires_in * 1000),
        scopes: ["write"]
      }))
    // The client authenticates at the token endpoint with its secret in the form (RFC 6749 §2.3.1).
    const token = (grant: OAuth2.Grant) =>
      OAuth2.tokenRequest({
        endpoint: `${config.authBaseUrl}/oauth/token`,
        grant,
        clientId: config.clientId,
        clientSecret: config.clientSecret,
        auth: "body"
      })
    const bearer = (token: Redacted.Redacted<string>) => HttpClientRequest.bearerToken(Redacted.value(token))
    return Adapter.make({
      network,
      name: "Example",
      limits,
      api,
      options,
      capabilities,
      oauth: {
        scopes: ["write"],
        pkce: true,
        authorizeUrl: ({ codeChallenge, redirectUri, state }) =>
          OAuth2.authorizeUrl({
            endpoint: `${config.authBaseUrl}/oauth/authorize`,
            clientId: config.clientId,
            redirectUri,
            state,
            scopes: ["write"],
            codeChallenge
          }),
        exchange: ({ code, codeVerifier, redirectUri }) =>
          Effect.flatMap(
            send(token({ _tag: "AuthorizationCode", code, redirectUri, codeVerifier }), TokenAnswer),
            tokens
          ),
        refresh: (refreshToken) =>
          Effect.flatMap(
            send(token({ _tag: "RefreshToken", refreshToken }), TokenAnswer),
            tokens
          ),
        profile: (accessToken) =>
          Effect.map(
            send(HttpClientRequest.get(`${config.apiBaseUrl}/me`).pipe(bearer(accessToken)), Me),
            (me) => ({ networkAccountId: me.id, username: me.username, displayName: null, avatarUrl: null })
          )
      },
      publish: ({ account, post }) =>
        Effect.map(
          send(
            HttpClientRequest.post(`${config.apiBaseUrl}/posts`).pipe(
              bearer(account.accessToken),
              HttpClientRequest.bodyJsonUnsafe({
                text: post.text,
                media: post.media.map((item) => item.url),
                visibility: post.settings["visibility"] ?? "public"
              })
            ),
            Created,
            "makesPost"
          ),
          (created) => ({ _tag: "Published" as const, published: created })
        ),
      // Found by its text among the account's posts; media alone would match any other such post, so Herald
      // must not guess.
      reconcile: ({ account, post }) =>
        post.text.trim() === "" ? Effect.fail(PublishError.nothingToLookFor(network, "Example")) : Effect.map(
          send(
            HttpClientRequest.get(`${config.apiBaseUrl}/posts`).pipe(
              bearer(account.accessToken),
              HttpClientRequest.setUrlParam("author", account.networkAccountId)
            ),
            Posts
          ),
          (answer) => Option.fromNullishOr(answer.data.find((entry) => entry.text === post.text))
        ),
      inbox: {
        // The example network signs its notifications like Meta does: `x-example-signature: sha256=<hex HMAC
        // of the raw body>` keyed with the app secret; the body lists the accounts with news.
        webhook: {
          handshake: (query) =>
            query["challenge"] === undefined ? Option.none() : Option.some({ status: 200, body: query["challenge"] }),
          receive: ({ body, headers }) => {
            const expected = `sha256=${createHmac("sha256", Redacted.value(config.clientSecret)).update(body).digest("hex")}`
            const given = headers["x-example-signature"] ?? ""
            if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected))) {
              return Effect.fail({ _tag: "WebhookRejected" as const, message: "x-example-signature does not match the body" })
            }
            return Schema.decodeUnknownEffect(Schema.fromJsonString(Notification))(Buffer.from(body).toString("utf8")).pipe(
              Effect.map((notification) => notification.accounts),
              Effect.mapError(() => ({ _tag: "WebhookRejected" as const, message: "the body is not a notification" }))
            )
          }
        },
        // The first poll (no cursor) asks for `after=latest`: the network answers no items and the cursor of
        // now, so what the account received before Herald connected it stays out of the inbox.
        fetch: ({ account, cursor }) =>
          send(
            HttpClientRequest.get(`${config.apiBaseUrl}/inbox`).pipe(
              bearer(account.accessToken),
              HttpClientRequest.setUrlParam("after", cursor ?? "latest")
            ),
            Inbox
          ),
        replyToComment: ({ account, comment, text }) =>
          Effect.map(
            send(
              HttpClientRequest.post(`${config.apiBaseUrl}/comments/${encodeURIComponent(comment.id)}/replies`).pipe(
                bearer(account.accessToken),
                HttpClientRequest.bodyJsonUnsafe({ text })
              ),
              Comment,
              "makesPost"
            ),
            (reply) => ({ id: reply.id, permalink: reply.permalink })
          ),
        sendMessage: ({ account, conversationId, text }) =>
          Effect.map(
            send(
              HttpClientRequest.post(`${config.apiBaseUrl}/conversations/${encodeURIComponent(conversationId)}/messages`)
                .pipe(bearer(account.accessToken), HttpClientRequest.bodyJsonUnsafe({ text })),
              Message,
              "makesPost"
            ),
            (message) => ({ id: message.id })
          )
      }
    })
  })
