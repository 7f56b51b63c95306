import { Clock, Effect, Schema } from "effect"
import { type Headers, HttpClient, HttpClientRequest, type HttpClientResponse } from "effect/http"
import { detailOf, readAtMost } from "./internal/boundedBody.ts"
import { retryAfterMs } from "./MediaDownload.ts"
import * as PublishError from "./PublishError.ts"

// The one way an adapter talks to its network (decision 0077). Every call goes through the same steps: send
// with the adapter's own `HttpClient` (so tests' faults, the sandbox and Effect's client spans apply), read
// the answer's body up to a bound, hand a status ≥ 400 to the adapter's error table with the wait the
// network's rate-limit headers name, and decode a success with the call's schema. What the adapter writes is
// only what differs between networks: its table, its reset header, and which calls may make the post.

/** What a call is, for the lost-answer rule: a call that may make the post must never be resent blindly. */
export type Call = "read" | "makesPost"

/** A refused answer as the error table sees it. */
export interface Refusal {
  readonly status: number
  /** The body as JSON; its text when it is not JSON; `undefined` when empty or over the bound. */
  readonly body: unknown
  readonly headers: Headers.Headers
  /** The request's address without its query (which may carry a token or a signature). */
  readonly path: string
  /** The wait the answer names (`Retry-After`, or the network's reset header), in milliseconds. */
  readonly retryAfterMs: number | undefined
  /** When it was answered, epoch milliseconds (from the Clock). */
  readonly now: number
  /** Which call it answered. */
  readonly call: Call
}

/** How a network names the end of its rate-limit window, besides the standard `Retry-After`. */
export interface ResetHeader {
  /** Lower case, as Node gives headers: `x-rate-limit-reset`. */
  readonly name: string
  readonly form: "epoch-seconds" | "iso-8601" | "delta-seconds"
}

export interface Options {
  /** The network's id (`PublishError.network`). */
  readonly network: string
  /** Its name for people, in messages ("Mastodon"). */
  readonly name: string
  /** The adapter's error table: what a status ≥ 400 means. */
  readonly refusal: (refusal: Refusal) => PublishError.PublishError
  /** A success status that still refuses (a 200 carrying only `errors`); undefined: it did not. */
  readonly refusedIn?: ((refusal: Refusal) => PublishError.PublishError | undefined) | undefined
  readonly resetHeader?: ResetHeader | undefined
  /** Prepended to a request's address when it starts with `/`. */
  readonly baseUrl?: string | undefined
  /** Headers every call carries (an API version). */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** The most of an answer's body read, bytes; defaults to `defaultMaxAnswerBytes`. */
  readonly maxAnswerBytes?: number | undefined
  /** How a JSON body is parsed, for a network whose numbers JavaScript cannot hold (int64 ids). */
  readonly reviver?: ((key: string, value: unknown, context?: { readonly source?: string }) => unknown) | undefined
}

/** 4 MiB: far above any JSON answer a network's API gives, far below what would hold the process. */
export const defaultMaxAnswerBytes = 4 * 1024 * 1024

export interface NetworkClient {
  readonly network: string
  /** The client underneath, with the base URL and headers applied (for `MediaDownload.download`). */
  readonly http: HttpClient.HttpClient
  /** The answer when its status is below 400, its body not read (for answers told by headers or status). */
  readonly execute: (
    request: HttpClientRequest.HttpClientRequest,
    call?: Call
  ) => Effect.Effect<HttpClientResponse.HttpClientResponse, PublishError.PublishError>
  /** A successful answer's body, decoded with `schema`. */
  readonly decode: <A>(
    response: HttpClientResponse.HttpClientResponse,
    schema: Schema.Decoder<A>,
    call?: Call
  ) => Effect.Effect<A, PublishError.PublishError>
  /** `execute` then `decode`. */
  readonly send: <A>(
    request: HttpClientRequest.HttpClientRequest,
    schema: Schema.Decoder<A>,
    call?: Call
  ) => Effect.Effect<A, PublishError.PublishError>
}

/** The lost-answer rule: no answer, or one that cannot be read, leaves a post-making call's outcome unknown. */
export const lost = (options: Pick<Options, "network" | "name">, call: Call, what: string): PublishError.PublishError =>
  call === "makesPost"
    ? PublishError.outcomeUnknown(options.network, `${options.name}'s answer was lost (${what}); the post may have been made`)
    : PublishError.transient(options.network, `${options.name} did not answer (${what})`)

/** The wait a reset header names, from `now`; undefined when absent or unreadable. */
export const resetWaitMs = (header: ResetHeader, value: string | undefined, now: number): number | undefined => {
  if (value === undefined || value.trim() === "") return undefined
  const at = header.form === "iso-8601"
    ? Date.parse(value)
    : header.form === "epoch-seconds"
    ? Number(value) * 1000
    : now + Number(value) * 1000
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined
}

const pathOf = (url: string) => {
  const query = url.indexOf("?")
  return query === -1 ? url : url.slice(0, query)
}

const bodyOf = (bytes: Uint8Array, reviver: Options["reviver"]): unknown => {
  if (bytes.length === 0) return undefined
  const text = new TextDecoder().decode(bytes)
  // eslint-disable-next-line no-restricted-syntax -- a body that is not JSON is kept as text, and the adapter's reviver (ids past 2^53) is JSON.parse's alone
  try {
    // eslint-disable-next-line no-restricted-properties -- as above
    return JSON.parse(text, reviver as Parameters<typeof JSON.parse>[1])
  } catch {
    return text
  }
}

/** The kit's client for one network, built from the adapter's `HttpClient`. */
export const make = (options: Options): Effect.Effect<NetworkClient, never, HttpClient.HttpClient> =>
  Effect.map(HttpClient.HttpClient, (client) => fromHttp(client, options))

/** As `make`, from a client in hand. */
export const fromHttp = (client: HttpClient.HttpClient, options: Options): NetworkClient => {
  const most = options.maxAnswerBytes ?? defaultMaxAnswerBytes
  const { baseUrl, headers } = options
  const http = HttpClient.mapRequest(client, (request) => {
    const based = baseUrl !== undefined && request.url.startsWith("/") ? HttpClientRequest.prependUrl(request, baseUrl) : request
    // The call's own headers win over the defaults.
    return headers === undefined ? based : HttpClientRequest.setHeaders(based, { ...headers, ...based.headers })
  })

  /** The body, or `undefined` when it was over the bound or cut off (the caller decides what that means). */
  const body = (response: HttpClientResponse.HttpClientResponse) =>
    Effect.orElseSucceed(Effect.map(readAtMost(response.stream, most), (bytes) => bodyOf(bytes, options.reviver)), () => undefined)

  const refusalOf = (response: HttpClientResponse.HttpClientResponse, call: Call, read: unknown) =>
    Effect.map(Clock.currentTimeMillis, (now): Refusal => ({
      status: response.status,
      body: read,
      headers: response.headers,
      path: pathOf(response.request.url),
      retryAfterMs: retryAfterMs(response.headers["retry-after"], now) ??
        (options.resetHeader === undefined
          ? undefined
          : resetWaitMs(options.resetHeader, response.headers[options.resetHeader.name], now)),
      now,
      call
    }))

  const execute = (request: HttpClientRequest.HttpClientRequest, call: Call = "read") =>
    http.execute(request).pipe(
      Effect.mapError((error) => lost(options, call, detailOf(error))),
      Effect.flatMap((response) =>
        response.status < 400
          ? Effect.succeed(response)
          : Effect.flatMap(body(response), (read) =>
            Effect.flatMap(refusalOf(response, call, read), (refusal) => Effect.fail(options.refusal(refusal)))))
    )

  const decode = <A>(response: HttpClientResponse.HttpClientResponse, schema: Schema.Decoder<A>, call: Call = "read") =>
    Effect.flatMap(body(response), (read) =>
      Effect.catch(Schema.decodeUnknownEffect(schema)(read), () =>
        Effect.flatMap(refusalOf(response, call, read), (refusal) =>
          Effect.fail(
            options.refusedIn?.(refusal) ??
              lost(options, call, `unexpected answer from ${refusal.path}`)
          ))))

  return {
    network: options.network,
    http,
    execute,
    decode,
    send: (request, schema, call = "read") => Effect.flatMap(execute(request, call), (response) => decode(response, schema, call))
  }
}
