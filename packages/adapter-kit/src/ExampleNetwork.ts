// A minimal network, made only of the kit, to show the contract end to end and to stand for an eighth,
// third-party network in tests: an adapter and its simulator in one file (a real adapter splits them, see
// house-style.md). Its API: OAuth 2 with PKCE, `GET /me`,
// `POST /posts`, `GET /posts?author=` for reconcile; errors as `{ "error": { "code", "message" } }`.
import { Duration, Effect, Option, Redacted, Schema } from "effect"
import { HttpClient, HttpClientRequest, HttpRouter, HttpServerRequest } from "effect/http"
import { Adapter, type AdapterConfig, PublishError, Simulator } from "./index.ts"

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

const TokenAnswer = Schema.Struct({
  access_token: Schema.String,
  refresh_token: Schema.String,
  expires_in: Schema.Number
})
const Me = Schema.Struct({ id: Schema.String, username: Schema.String })
const Created = Schema.Struct({ id: Schema.String, url: Schema.String })
const Posts = Schema.Struct({ data: Schema.Array(Schema.Struct({ id: Schema.String, text: Schema.String, url: Schema.String })) })
const ErrorAnswer = Schema.Struct({ error: Schema.Struct({ code: Schema.String, message: Schema.String }) })

// The wire-to-reason table.
const toError = (status: number, body: unknown) => {
  const decoded = Schema.decodeUnknownOption(ErrorAnswer)(body)
  const code = Option.match(decoded, { onNone: () => "unknown", onSome: (answer) => answer.error.code })
  const message = Option.match(decoded, { onNone: () => `HTTP ${status}`, onSome: (answer) => answer.error.message })
  if (status === 429) return PublishError.rateLimited(network, message, 1000)
  if (code === "token_expired") return PublishError.authExpired(network, message)
  if (code === "token_revoked" || code === "invalid_grant") return PublishError.needsReconnect(network, message)
  if (status >= 500) return PublishError.transient(network, message)
  return PublishError.rejected(network, message)
}

export const make = (config: AdapterConfig.AdapterConfig) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const send = <A>(request: HttpClientRequest.HttpClientRequest, schema: Schema.Codec<A, any>) =>
      client.execute(request).pipe(
        Effect.mapError((error) => PublishError.transient(network, error.message)),
        Effect.flatMap((response) =>
          Effect.flatMap(Effect.orElseSucceed(response.json, () => ({})), (body) =>
            response.status >= 400
              ? Effect.fail(toError(response.status, body))
              : Effect.mapError(
                Schema.decodeUnknownEffect(schema)(body),
                () => PublishError.transient(network, "unexpected answer")
              ))
        ),
        Effect.scoped
      )
    const tokens = (answer: typeof TokenAnswer.Type) => ({
      accessToken: Redacted.make(answer.access_token),
      refreshToken: Option.some(Redacted.make(answer.refresh_token)),
      expiresAt: Option.some(Date.now() + answer.expires_in * 1000),
      scopes: ["write"]
    })
    const bearer = (token: Redacted.Redacted<string>) => HttpClientRequest.bearerToken(Redacted.value(token))
    return Adapter.make({
      network,
      name: "Example",
      limits,
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
        authorizeUrl: ({ codeChallenge, redirectUri, state }) => {
          const url = new URL(`${config.authBaseUrl}/oauth/authorize`)
          url.searchParams.set("client_id", config.clientId)
          url.searchParams.set("redirect_uri", redirectUri)
          url.searchParams.set("state", state)
          if (codeChallenge !== undefined) url.searchParams.set("code_challenge", codeChallenge)
          return url.toString()
        },
        exchange: ({ code, codeVerifier, redirectUri }) =>
          Effect.map(
            send(
              HttpClientRequest.post(`${config.authBaseUrl}/oauth/token`).pipe(
                HttpClientRequest.bodyUrlParams({
                  grant_type: "authorization_code",
                  code,
                  redirect_uri: redirectUri,
                  code_verifier: codeVerifier ?? ""
                })
              ),
              TokenAnswer
            ),
            tokens
          ),
        refresh: (refreshToken) =>
          Effect.map(
            send(
              HttpClientRequest.post(`${config.authBaseUrl}/oauth/token`).pipe(
                HttpClientRequest.bodyUrlParams({ grant_type: "refresh_token", refresh_token: Redacted.value(refreshToken) })
              ),
              TokenAnswer
            ),
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
              HttpClientRequest.bodyJsonUnsafe({ text: post.text, media: post.media.map((item) => item.url) })
            ),
            Created
          ),
          (created) => ({ _tag: "Published" as const, published: created })
        ),
      reconcile: ({ account, post }) =>
        Effect.map(
          send(
            HttpClientRequest.get(`${config.apiBaseUrl}/posts`).pipe(
              bearer(account.accessToken),
              HttpClientRequest.setUrlParam("author", account.networkAccountId)
            ),
            Posts
          ),
          (answer) => Option.fromNullishOr(answer.data.find((entry) => entry.text === post.text))
        )
    })
  })

const error = (code: string, message: string, status: number) => Simulator.json({ error: { code, message } }, status)

export const simulator: Simulator.Make = ({ baseUrl }) => {
  const state = Simulator.makeState(network)
  const authenticated = Effect.map(Simulator.accessToken, (token) => state.check(token))
  const refuse = (check: ReturnType<typeof state.check>) =>
    check._tag === "Expired"
      ? error("token_expired", "The access token expired", 401)
      : check._tag === "Revoked"
      ? error("token_revoked", "The grant was revoked", 401)
      : error("invalid_token", "Unknown access token", 401)
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
      HttpRouter.route("GET", "/me", Effect.map(authenticated, (check) =>
        check._tag === "Valid"
          ? Simulator.json({ id: check.account.id, username: check.account.username })
          : refuse(check))),
      HttpRouter.route("POST", "/posts", Effect.gen(function*() {
        const check = yield* authenticated
        if (check._tag !== "Valid") return refuse(check)
        const request = yield* HttpServerRequest.HttpServerRequest
        const body = (yield* Effect.orElseSucceed(request.json, () => ({}))) as { text?: string; media?: Array<string> }
        const text = body.text ?? ""
        switch (state.trigger(text, check.account.id)) {
          case "fail":
            return error("content_rejected", "This content is not allowed here", 400)
          case "flaky":
            return error("unavailable", "Try again in a moment", 503)
          case "revoke":
            return error("token_revoked", "The grant was revoked", 401)
        }
        const id = state.id()
        const url = `${baseUrl}/${check.account.username}/posts/${id}`
        state.record({ id, accountId: check.account.id, text, media: body.media ?? [], replyTo: undefined, url, details: {} })
        return Simulator.json({ id, url }, 201)
      })),
      HttpRouter.route("GET", "/posts", Effect.gen(function*() {
        const check = yield* authenticated
        if (check._tag !== "Valid") return refuse(check)
        const query = yield* Simulator.query
        const posts = state.postsOf(query["author"] ?? "").map((post) => ({ id: post.id, text: post.text, url: post.url }))
        return Simulator.json({ data: posts })
      }))
    ]
  }
}

