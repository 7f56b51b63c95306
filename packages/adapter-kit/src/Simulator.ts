import { Effect } from "effect"
import { type HttpRouter, HttpServerRequest, HttpServerResponse, UrlParams } from "effect/http"
import { SimulatorState } from "./SimulatorState.ts"
import * as Pkce from "./Pkce.ts"

/**
 * A network's API as Herald's sandbox serves it: the same paths, shapes, async steps and error bodies as the
 * real one, over an in-memory `SimulatorState`. The server mounts `routes` under `/sandbox/<network>`;
 * the conformance suite serves them the same way.
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
