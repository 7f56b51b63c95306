import { Simulator, SimulatorRules, type SimulatorState } from "@herald/adapter-kit"
import { ByteSize, Effect, Schema } from "effect"
import { HttpIncomingMessage, HttpServerRequest, type HttpServerResponse } from "effect/http"
import type * as YouTubeRules from "../YouTubeRules.ts"

// What the routes of the YouTube simulator (YouTubeSimulator.ts and its internal/simulator*.ts pieces) share:
// the request schemas, the upload sessions it keeps, Google's error bodies and page tokens, reading a JSON
// body, and the channel a call is made for.

/** The video resource once `YouTubeRules.insertVideo` took it: what the sandbox keeps of it. */
export const Metadata = Schema.Struct({
  snippet: Schema.Struct({ title: Schema.String, description: Schema.optionalKey(Schema.String) }),
  status: Schema.optionalKey(Schema.Struct({ privacyStatus: Schema.optionalKey(Schema.String) }))
})

export const LongUploadsStatus = Schema.Literals(["allowed", "disallowed", "eligible", "longUploadsUnspecified"])
export type LongUploadsStatus = typeof LongUploadsStatus.Type

export const ChannelChange = Schema.Struct({ username: Schema.NonEmptyString, longUploadsStatus: LongUploadsStatus })

/** A reply once `YouTubeRules.insertComment` took it. */
export const Reply = Schema.Struct({ snippet: Schema.Struct({ parentId: Schema.String, textOriginal: Schema.String }) })

/** How many replies a thread's `replies` part carries; `comments.list` has the rest. */
export const repliesInThread = 5

/** YouTube's `publishedAt` has whole seconds. */
export const toSeconds = (iso: string) => iso.replace(/\.\d+Z$/, "Z")

/** Page tokens stand for an offset in the listing. */
export const pageToken = (offset: number) => Buffer.from(`offset:${offset}`).toString("base64url")
export const pageOffset = (token: string | undefined): number | undefined => {
  if (token === undefined) return 0
  const match = /^offset:(\d+)$/.exec(Buffer.from(token, "base64url").toString("utf8"))
  return match === null ? undefined : Number(match[1])
}

export interface Session {
  readonly accountId: string
  readonly title: string
  readonly description: string
  readonly privacyStatus: string
  readonly contentType: string
  readonly contentLength: number
  /** Why YouTube rejects the video after processing (`status.rejectionReason`), if it does. */
  rejection: string | undefined
  videoId: string | undefined
}

export interface Video {
  readonly session: Session
  polls: number
}

export const googleError = (status: number, reason: string, message: string, statusText: string, domain = "youtube") =>
  Simulator.json({ error: { code: status, message, errors: [{ message, domain, reason }], status: statusText } }, status)
/** Google's answer to the first rule of `call` the request breaks; undefined when it keeps them all. */
export const refusal = <Input>(call: YouTubeRules.Call<Input>, input: Input) => {
  const broken = SimulatorRules.refusal(call, input)
  if (broken === undefined) return undefined
  const { status, reason, statusText, domain } = broken.rule.answer
  return googleError(status, reason, broken.message, statusText, domain)
}
export const authError = () =>
  googleError(401, "authError", "Request had invalid authentication credentials. Expected OAuth 2 access token.", "UNAUTHENTICATED")
export const rateLimited = () => googleError(429, "rateLimitExceeded", "The request cannot be completed because you have exceeded your rate limit.", "RESOURCE_EXHAUSTED")
export const oauthError = (error: string, description: string) => Simulator.json({ error, error_description: description }, 400)
/** A control route's refusal, in Herald's error shape, as the kit's control routes answer. */
export const controlError = (status: number, code: string, message: string) => Simulator.json({ error: { code, message } }, status)

export const request = HttpServerRequest.HttpServerRequest
/** A JSON body (video metadata, a comment), read no further than 256 KiB; undefined when it is not JSON. */
export const jsonBody = Effect.flatMap(request, (incoming) =>
  incoming.json.pipe(
    Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.kibibytes(256)),
    Effect.orElseSucceed((): unknown => undefined)
  ))

/** A handler for the signed-in channel (Google's 401 otherwise), and a list call held to its rules. */
export const access = (state: SimulatorState.SimulatorState) => {
  const authenticated = <E, R>(
    handler: (check: Extract<SimulatorState.TokenCheck, { _tag: "Valid" }>) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ) =>
    Effect.flatMap(Simulator.accessToken, (token) => {
      const check = state.check(token)
      return check._tag === "Valid" ? handler(check) : Effect.succeed(authError())
    })
  /** A list call: its query held to `call`'s rules before `handler` reads it. */
  const listing = (
    call: YouTubeRules.Call<YouTubeRules.Query>,
    handler: (
      check: Extract<SimulatorState.TokenCheck, { _tag: "Valid" }>,
      params: Record<string, string>
    ) => HttpServerResponse.HttpServerResponse
  ) => authenticated((check) => Effect.map(Simulator.query, (params) => refusal(call, { query: params }) ?? handler(check, params)))

  return { authenticated, listing }
}
