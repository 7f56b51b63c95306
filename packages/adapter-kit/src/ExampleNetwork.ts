// A minimal network, made only of the kit, to show the contract end to end and to stand for a
// third-party network in tests: an adapter and its simulator in one file (a real adapter splits them into
// the files of docs/adapters/writing-an-adapter.md, "1. The package"). Its API: OAuth 2 with PKCE, `GET /me`,
// `POST /posts`, `GET /posts?author=` for reconcile; the inbox as `GET /inbox?after=<cursor>`,
// `POST /comments/:id/replies` and `POST /conversations/:id/messages`; errors as
// `{ "error": { "code", "message" } }`. A post's text is at most 100 characters, and it is seen by
// everyone or by followers only (`visibility`, the network's one post option). Its simulator also serves
// the kit's control routes.
import { Clock, Duration, Effect, Option, Redacted, Schema } from "effect"
import { createHmac, timingSafeEqual } from "node:crypto"
import { HttpClientRequest, HttpRouter, HttpServerRequest, type HttpServerResponse } from "effect/http"
import { Adapter, type AdapterConfig, NetworkClient, OAuth2, PostOptions, PublishError, Simulator, SimulatorPage, SimulatorState } from "./index.ts"

const network = "example"

export const limits = {
  forms: {
    post: {
      text: { max: 100, counter: "characters" },
      media: { minItems: 0, maxItems: 4, maxPhotos: 4, maxVideos: 1, mixing: false },
      textOrMedia: true
    }
  }
} as const

/** Who sees a post: sent as `platformOptions.example.visibility`, and to the network as `visibility`. */
export const options = PostOptions.make({
  placement: "platformOptions",
  fields: {
    visibility: Schema.Literals(["public", "followers"]).annotate({
      description: "Who sees the post: public (default) or followers only"
    })
  },
  defaults: { visibility: "public" },
  version: (values) => ({ settings: { visibility: values.visibility } })
})

/** The version its calls name: a real adapter cites its network's versioning page and the day it read it. */
export const api = {
  version: "v1",
  sunset: null,
  source: "packages/adapter-kit/src/ExampleNetwork.ts (the example network is this file)",
  checked: "2026-12-02"
} as const

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
const ErrorAnswer = Schema.Struct({ error: Schema.Struct({ code: Schema.String, message: Schema.String }) })

// The wire-to-reason table: the kit's `NetworkClient` hands it every answer with a status of 400 or more,
// with the wait the answer named (`Retry-After`) already read.
const toError = (refusal: NetworkClient.Refusal) => {
  const decoded = Schema.decodeUnknownOption(ErrorAnswer)(refusal.body)
  const code = Option.match(decoded, { onNone: () => "unknown", onSome: (answer) => answer.error.code })
  const message = Option.match(decoded, { onNone: () => `HTTP ${refusal.status}`, onSome: (answer) => answer.error.message })
  if (refusal.status === 429) return PublishError.rateLimited(network, message, refusal.retryAfterMs ?? 1000)
  if (code === "token_expired") return PublishError.authExpired(network, message)
  if (code === "token_revoked" || code === "invalid_grant") return PublishError.needsReconnect(network, message)
  if (refusal.status >= 500) return PublishError.transient(network, message)
  return PublishError.rejected(network, message)
}

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
      capabilities: {
        text: true,
        photos: true,
        videos: true,
        thread: false,
        firstComment: false,
        refresh: true,
        reconcile: true,
        asyncProcessing: false
      },
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

const error = (code: string, message: string, status: number) => Simulator.json({ error: { code, message } }, status)

/**
 * The network's own rule, as its documentation would state it: written here apart from the adapter's
 * `limits`, so the conformance suite finds out when the two disagree.
 */
const maxTextLength = 100

export const simulator: Simulator.Make = ({ baseUrl }) => {
  const state = Simulator.makeState(network)
  const authenticated = Effect.map(Simulator.accessToken, (token) => state.check(token))
  const refuse = (check: ReturnType<typeof state.check>) =>
    check._tag === "Expired"
      ? error("token_expired", "The access token expired", 401)
      : check._tag === "Revoked"
      ? error("token_revoked", "The grant was revoked", 401)
      : error("invalid_token", "Unknown access token", 401)
  /** A route for the account a valid token is for; any other token is refused as above. */
  const signedIn = <E, R>(
    handle: (account: SimulatorState.SimulatedAccount) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ) =>
    Effect.flatMap(authenticated, (check) =>
      check._tag === "Valid" ? handle(check.account) : Effect.succeed(refuse(check)))
  /** The network's answer to a sandbox trigger in a text; undefined when it carries none. */
  const triggered = (text: string, accountId: string) => {
    switch (state.trigger(text, accountId)) {
      case "fail":
        return error("content_rejected", SimulatorState.refusal(text), 400)
      case "flaky":
        return error("unavailable", "Try again in a moment", 503)
      case "rate-limit":
        return error("rate_limited", "Too many requests", 429)
      case "revoke":
        return error("token_revoked", "The grant was revoked", 401)
    }
    return undefined
  }
  /** Stores the `text` the account sends (a reply, a message) and answers it, refused as a post with it would be. */
  const accept = (accountId: string, store: (text: string) => unknown) =>
    Effect.map(Simulator.formOrJson, (body) => {
      const text = body["text"]
      if (text === undefined || text === "") return error("invalid_request", "text is required", 400)
      return triggered(text, accountId) ?? Simulator.json(store(text), 201)
    })
  return {
    network,
    state,
    routes: [
      HttpRouter.route("GET", "/oauth/authorize", Simulator.authorize(state)),
      HttpRouter.route("POST", "/oauth/token", Effect.map(Simulator.formOrJson, (form) => {
        const grant = form["grant_type"] === "refresh_token"
          ? state.refresh(form["refresh_token"] ?? "")
          : Simulator.redeem(state, { code: form["code"], redirectUri: form["redirect_uri"], verifier: form["code_verifier"] })
        if (grant === undefined) return error("invalid_grant", "The code or refresh token is not valid", 400)
        return Simulator.json({
          access_token: grant.accessToken,
          refresh_token: grant.refreshToken,
          expires_in: Duration.toSeconds(Duration.hours(2))
        })
      })),
      HttpRouter.route("GET", "/me", signedIn((account) =>
        Effect.succeed(Simulator.json({ id: account.id, username: account.username })))),
      HttpRouter.route("POST", "/posts", signedIn((account) =>
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const body = (yield* Effect.orElseSucceed(request.json, () => ({}))) as {
            text?: string
            media?: Array<string>
            visibility?: string
          }
          const text = body.text ?? ""
          const visibility = body.visibility ?? "public"
          if ([...text.normalize("NFC")].length > maxTextLength) {
            return error("text_too_long", `text is over ${maxTextLength} characters`, 400)
          }
          if (visibility !== "public" && visibility !== "followers") {
            return error("invalid_request", "visibility is public or followers", 400)
          }
          const refused = triggered(text, account.id)
          if (refused !== undefined) return refused
          const id = state.id()
          const url = `${baseUrl}/${account.username}/posts/${id}`
          state.record({ id, accountId: account.id, text, media: body.media ?? [], replyTo: undefined, url, details: { visibility } })
          return Simulator.json({ id, url }, 201)
        }))),
      HttpRouter.route("GET", "/posts", signedIn(() =>
        Effect.map(Simulator.query, (query) => {
          const posts = state.postsOf(query["author"] ?? "").map((post) => ({ id: post.id, text: post.text, url: post.url }))
          return Simulator.json({ data: posts })
        }))),
      // `after` is a cursor from an earlier answer; absent, everything is news.
      HttpRouter.route("GET", "/inbox", signedIn((account) =>
        Effect.map(Simulator.query, (query) => {
          // The cursor of now, without any of what is there yet.
          if (query["after"] === "latest") {
            return Simulator.json({ comments: [], messages: [], cursor: String(state.sequence) })
          }
          const after = Number(query["after"] ?? 0)
          if (!Number.isSafeInteger(after) || after < 0) return error("invalid_request", "after is not a cursor", 400)
          const comments = state.commentsAfter(account.id, after)
          const messages = state.messagesAfter(account.id, after)
          // Both lists are in sequence order: their last items are the newest.
          const cursor = Math.max(after, comments.at(-1)?.seq ?? 0, messages.at(-1)?.seq ?? 0)
          return Simulator.json({ comments, messages, cursor: String(cursor) })
        }))),
      HttpRouter.route("POST", "/comments/:id/replies", signedIn((account) =>
        Effect.gen(function*() {
          const comment = state.comments.get((yield* HttpRouter.params)["id"] ?? "")
          if (comment === undefined || comment.accountId !== account.id) {
            return error("not_found", "No such comment", 404)
          }
          return yield* accept(account.id, (text) =>
            state.addComment({
              accountId: account.id,
              author: { username: account.username },
              text,
              postId: comment.postId,
              replyTo: comment.id
            }))
        }))),
      HttpRouter.route("POST", "/conversations/:id/messages", signedIn((account) =>
        Effect.gen(function*() {
          const conversationId = (yield* HttpRouter.params)["id"] ?? ""
          if (state.conversationAccount(conversationId) !== account.id) {
            return error("not_found", "No such conversation", 404)
          }
          return yield* accept(account.id, (text) =>
            state.addMessage({ accountId: account.id, from: { username: account.username }, text, conversationId, outgoing: true }))
        }))),
      // The link each post was given (`/{username}/posts/{id}`), as a page.
      ...SimulatorPage.routes(["/:username/posts/:id"], {
        network: "Example",
        state,
        baseUrl,
        page: (post) => SimulatorPage.ofPost(state, post, { network: "Example" })
      }),
      ...Simulator.controlRoutes(state)
    ]
  }
}

