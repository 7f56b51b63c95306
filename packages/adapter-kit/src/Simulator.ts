import { Context, Effect, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse, UrlParams } from "effect/http"
import { type SimulatedAccount, SimulatorState, type TokenCheck } from "./SimulatorState.ts"
import * as Pkce from "./Pkce.ts"

/**
 * A network's API as Herald's sandbox serves it: the same paths, shapes, async steps and error bodies as the
 * real one, over a `SimulatorState`. The server mounts `routes` under `/sandbox/<network>`, kept in its
 * database through `SimulatorStore.serve`; the conformance suite serves them the same way, in memory.
 */
export interface Simulator {
  readonly network: string
  readonly state: SimulatorState
  /** Paths relative to the simulator's root. */
  readonly routes: ReadonlyArray<HttpRouter.Route<never, never>>
}

export interface Options {
  /** The public address of the simulator's root, e.g. `http://localhost:3000/sandbox/x` (for permalinks). */
  readonly baseUrl: string
}

export type Make = (options: Options) => Simulator

export const makeState = (network: string) => new SimulatorState(network)

/**
 * Which of a simulator's accounts the sandbox's own routes (`_control/*`, the server's `_posts`) may reach
 * for this request. Every account by default, as in the kit's own harness and an adapter's tests; Herald's
 * served sandbox narrows it to the accounts the caller's workspace connected, and an account out of reach
 * answers as one that does not exist.
 */
export const Reachable = Context.Reference<(account: SimulatedAccount) => boolean>(
  "@herald/adapter-kit/Simulator/Reachable",
  { defaultValue: () => () => true }
)

/**
 * Told of the account a control call (`_control/comments`, `_control/messages`) left an item for, once it is
 * stored. Nothing by default; Herald's served sandbox has that account's inbox read in the next round.
 */
export const Received = Context.Reference<(account: SimulatedAccount) => Effect.Effect<void>>(
  "@herald/adapter-kit/Simulator/Received",
  { defaultValue: () => () => Effect.void }
)

/** The request's query parameters as a record. */
export const query = Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
  const url = new URL(request.url, "http://simulator")
  return Object.fromEntries(url.searchParams) as Record<string, string>
})

/** A form-encoded or JSON body as a record of strings (networks take both for OAuth calls). */
export const formOrJson = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
  const type = request.headers["content-type"] ?? ""
  return type.includes("application/json")
    ? Effect.map(Effect.orElseSucceed(request.json, () => ({})), (body) =>
      Object.fromEntries(
        Object.entries(typeof body === "object" && body !== null ? body : {}).map(([key, value]) => [key, String(value)])
      ))
    : Effect.map(Effect.orElseSucceed(request.urlParamsBody, () => UrlParams.empty), (params) =>
      Object.fromEntries(params) as Record<string, string>)
})

/** The bearer token of a request, or the `access_token` query parameter (Meta's APIs take both). */
export const accessToken = Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
  const header = request.headers["authorization"]
  if (header !== undefined && header.toLowerCase().startsWith("bearer ")) return header.slice(7).trim()
  return new URL(request.url, "http://simulator").searchParams.get("access_token") ?? undefined
})

export const json = (body: unknown, status = 200) => HttpServerResponse.jsonUnsafe(body, { status })

/** A token check that failed: what a network tells apart (or not) in its 401. */
export type Refusal = Exclude<TokenCheck, { readonly _tag: "Valid" }>

/**
 * A handler for the caller's own account: the request's token (`accessToken`) checked against `state`, and
 * for a token that does not work the network's answer, `refuse` (which may tell expired from revoked).
 */
export const authenticated = (
  state: SimulatorState,
  refuse: (check: Refusal) => HttpServerResponse.HttpServerResponse
) =>
<E, R>(
  handle: (account: SimulatedAccount) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(accessToken, (token) => {
    const check = state.check(token)
    return check._tag === "Valid" ? handle(check.account) : Effect.succeed(refuse(check))
  })

/**
 * The consent screen, which consents at once: redirects to `redirect_uri` with a code and the `state`
 * given. `sandbox_username` picks the account (a new one is made when absent).
 */
export const authorize = (state: SimulatorState) =>
  Effect.map(query, (params) => {
    const redirectUri = params["redirect_uri"]
    if (redirectUri === undefined || params["client_id"] === undefined) {
      return json({ error: "invalid_request", error_description: "client_id and redirect_uri are required" }, 400)
    }
    const account = state.consent(params["sandbox_username"])
    const code = state.issueCode(account.id, redirectUri, params["code_challenge"])
    const target = new URL(redirectUri)
    target.searchParams.set("code", code)
    if (params["state"] !== undefined) target.searchParams.set("state", params["state"])
    return HttpServerResponse.redirect(target.toString(), { status: 302 })
  })

/** Redeems a code, checking an S256 PKCE verifier when the code was issued with a challenge. */
export const redeem = (
  state: SimulatorState,
  params: { readonly code?: string | undefined; readonly redirectUri?: string | undefined; readonly verifier?: string | undefined }
) =>
  params.code === undefined || params.redirectUri === undefined
    ? undefined
    : state.redeemCode(params.code, params.redirectUri, (challenge) =>
      params.verifier !== undefined && Pkce.challenge(params.verifier) === challenge)

// What both control calls take: the account's username, the writer's, and the text.
const controlFields = { username: Schema.NonEmptyString, author: Schema.NonEmptyString, text: Schema.String }

const ControlComment = Schema.Struct({
  ...controlFields,
  postId: Schema.optional(Schema.String),
  replyTo: Schema.optional(Schema.String)
})

const ControlMessage = Schema.Struct({
  ...controlFields,
  attachments: Schema.optional(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)))
})

/** A control route's refusal, in Herald's error shape (`{ error: { code, message } }`). */
const refused = (status: number, code: string, message: string) => json({ error: { code, message } }, status)

/**
 * A control call: its JSON body checked, its account (`username`) found, what `store` made answered with 201
 * and `Received` told of the account (or the refusal `store` gave).
 */
const control = <A extends { readonly username: string }>(
  state: SimulatorState,
  schema: Schema.Decoder<A>,
  fields: string,
  store: (account: SimulatedAccount, body: A) => unknown
) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const body = Schema.decodeUnknownOption(schema)(yield* Effect.orElseSucceed(request.json, () => null))
    if (Option.isNone(body)) return refused(400, "invalid", `The JSON body needs ${fields}`)
    const account = state.accountByUsername(body.value.username)
    if (account === undefined || !(yield* Reachable)(account)) {
      return refused(404, "not_found", `No ${state.network} sandbox account is called ${body.value.username}`)
    }
    const stored = store(account, body.value)
    if (HttpServerResponse.isHttpServerResponse(stored)) return stored
    yield* (yield* Received)(account)
    return json(stored, 201)
  })

export interface ControlOptions {
  /**
   * The network reads comments only from the account's posts (Instagram lists a media's comments, nothing
   * else): a comment with no post of the account to sit on would be stored and never read, so it is refused.
   */
  readonly commentsNeedPost?: boolean | undefined
}

/**
 * What stands for the people on a network, who no adapter speaks for: `POST /_control/comments` leaves a
 * comment on an account's post (its newest when `postId` is absent) and `POST /_control/messages` sends the
 * account a direct message (in its conversation with `author`), so tests and people trying the sandbox can
 * fill an inbox. `username` is the account's, `author` the writer's; both answer 201 with what was stored,
 * and refusals come in Herald's error shape. An account is known once it consented here or a token of it was
 * used (in any process sharing the store).
 */
export const controlRoutes = (
  state: SimulatorState,
  options: ControlOptions = {}
): ReadonlyArray<HttpRouter.Route<never, never>> => [
  HttpRouter.route("POST", "/_control/comments", control(
    state,
    ControlComment,
    "username, author and text (postId and replyTo may be given)",
    (account, body) => {
      if (options.commentsNeedPost === true) {
        const posts = state.postsOf(account.id)
        if (posts.length === 0) {
          return refused(
            409,
            "conflict",
            `${account.username} has no posts on the ${state.network} sandbox yet, and ${state.network} reads comments only ` +
              "on an account's posts: publish a post to this account first, then comment on it"
          )
        }
        if (body.postId !== undefined && !posts.some((post) => post.id === body.postId)) {
          return refused(
            404,
            "not_found",
            `${account.username} has no post ${body.postId} on the ${state.network} sandbox (GET _posts?username=${account.username} lists its posts)`
          )
        }
      }
      return state.addComment({
        accountId: account.id,
        author: { username: body.author },
        text: body.text,
        postId: body.postId,
        replyTo: body.replyTo
      })
    }
  )),
  HttpRouter.route("POST", "/_control/messages", control(
    state,
    ControlMessage,
    "username, author and text (attachments, a count, may be given)",
    (account, body) =>
      state.addMessage({
        accountId: account.id,
        from: { username: body.author },
        text: body.text,
        attachments: body.attachments
      })
  ))
]
