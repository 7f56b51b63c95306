import { Simulator, SimulatorState } from "@herald/adapter-kit"
import { HttpServerResponse } from "effect/http"
import type * as Rules from "../BlueskyRules.ts"

// How the Bluesky simulator (BlueskySimulator.ts and its internal/simulator*.ts pieces) answers: XRPC errors,
// and the DIDs, `at://` URIs and refs its records are known by.

export const collection = "app.bsky.feed.post"

export const xrpcError = (status: number, error: string, message: string) => Simulator.json({ error, message }, status)
/** The PDS's answer over a rate limit: 429 with the window's end in `ratelimit-reset`, epoch seconds. */
export const rateLimited = () =>
  xrpcError(429, "RateLimitExceeded", "Rate Limit Exceeded").pipe(
    HttpServerResponse.setHeader("ratelimit-reset", String(Math.ceil((Date.now() + SimulatorState.rateLimitResetMs) / 1000)))
  )

export const invalid = (message: string) => xrpcError(400, "InvalidRequest", message)
const expired = () => xrpcError(400, "ExpiredToken", "Token has expired")
export const revoked = () => xrpcError(401, "InvalidToken", "Token has been revoked")
const unknownToken = () => xrpcError(401, "AuthenticationRequired", "Authentication Required")

export const didOf = (id: string) => id
export const idOfDid = (did: string) => did

export const uriOf = (did: string, rkey: string) => `at://${did}/${collection}/${rkey}`
export const rkeyOf = (uri: string) => uri.slice(uri.lastIndexOf("/") + 1)

export interface StoredBlob extends Rules.StoredBlob {
  readonly accountId: string
}

export interface Ref {
  readonly uri: string
  readonly cid: string
}

/** A post as the app view answers it. */
export interface Found extends Ref {
  readonly author: { readonly did: string; readonly handle: string }
  readonly record: Record<string, unknown>
}

/** A token that does not work, answered as the PDS tells expired from revoked and unknown. */
export const refuse = (check: SimulatorState.TokenCheck) =>
  check._tag === "Expired" ? expired() : check._tag === "Revoked" ? revoked() : unknownToken()
