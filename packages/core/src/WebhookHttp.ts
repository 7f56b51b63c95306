import { Clock, Context, Effect, Layer, Schema } from "effect"
import * as http from "node:http"
import * as https from "node:https"
import { AddressRefused, guardedLookup, hostOf, type LookupAll, parseWebhookUrl, systemLookupAll } from "./internal/publicAddress.ts"

/** The receiver answered: any status, 3xx included (redirects are never followed). */
export const Answered = Schema.TaggedStruct("Answered", {
  status: Schema.Int,
  /** The first `bodyStartCharacters` characters of the answer, decoded as UTF-8. */
  bodyStart: Schema.String,
  durationMs: Schema.Number
})

/** No answer: timed out, refused, address refused, TLS error... `error` is written for people. */
export const Failed = Schema.TaggedStruct("Failed", { error: Schema.String, durationMs: Schema.Number })

/** The outcome of one request; a schema so a delivery activity can journal it. */
export const Answer = Schema.Union([Answered, Failed])
export type Answer = typeof Answer.Type

export interface SendInput {
  readonly url: string
  readonly headers: Record<string, string>
  readonly body: Uint8Array | string
  /** The whole exchange: connecting, TLS, sending, the status and the start of the answer. */
  readonly timeoutMs: number
  /** `http://` and private addresses allowed (development only). */
  readonly allowPrivate: boolean
}

/** How much of an answer is kept (characters, i.e. code points). */
export const bodyStartCharacters = 1000

// A code point takes at most 4 bytes of UTF-8: past this many bytes the rest of the answer is not read.
const maxBodyBytes = 4 * bodyStartCharacters

type Outcome = Omit<typeof Answered.Type, "durationMs"> | Omit<typeof Failed.Type, "durationMs">

const failed = (error: string): Outcome => ({ _tag: "Failed", error })

// Node's error codes as a person would say them; anything else keeps Node's message with its code.
const reasons: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection closed by the receiver before it answered",
  EPIPE: "connection closed by the receiver before it answered",
  ETIMEDOUT: "connection timed out",
  ENOTFOUND: "host name not found",
  EAI_AGAIN: "host name lookup failed (temporary DNS failure)",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  CERT_HAS_EXPIRED: "TLS error: the certificate has expired",
  CERT_NOT_YET_VALID: "TLS error: the certificate is not valid yet",
  DEPTH_ZERO_SELF_SIGNED_CERT: "TLS error: self-signed certificate",
  SELF_SIGNED_CERT_IN_CHAIN: "TLS error: self-signed certificate in the chain",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "TLS error: the certificate's issuer is not trusted",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "TLS error: the certificate's issuer is not trusted",
  ERR_TLS_CERT_ALTNAME_INVALID: "TLS error: the certificate is not for this host name"
}

const reasonOf = (error: Error & { readonly code?: unknown }): string => {
  if (error instanceof AddressRefused) return `address refused: ${error.message}`
  const code = typeof error.code === "string" ? error.code : undefined
  if (code !== undefined && reasons[code] !== undefined) return reasons[code]
  const message = error.message === "" ? "connection failed" : error.message
  if (code !== undefined && (code.startsWith("ERR_SSL_") || code === "EPROTO")) {
    // OpenSSL's text reads "...:SSL routines:<function>:<reason>:<source file>:..."; the reason is enough.
    return `TLS error: ${/SSL routines:[^:]*:([^:]+)/.exec(message)?.[1] ?? message.trim()}`
  }
  return code === undefined ? message : `${message} (${code})`
}

const seconds = (millis: number) => `${Number((millis / 1000).toFixed(3))} s`

const decodeStart = (chunks: ReadonlyArray<Uint8Array>) =>
  Array.from(Buffer.concat(chunks).toString("utf8")).slice(0, bodyStartCharacters).join("")

interface Agents {
  /** https to public addresses only: every new connection goes through the guarded lookup. */
  readonly public: https.Agent
  readonly privateHttps: https.Agent
  readonly privateHttp: http.Agent
}

// Agents are kept apart by rule, not only by protocol: keep-alive sockets are pooled per host and port, and a
// socket opened under the permissive rule must never carry a request that has to go to a public address.
const agentFor = (agents: Agents, url: URL, allowPrivate: boolean): http.Agent =>
  !allowPrivate ? agents.public : url.protocol === "https:" ? agents.privateHttps : agents.privateHttp

// Header names and values are checked first: `http.request` would throw on a bad one.
const checkHeaders = (headers: Record<string, string>) =>
  Effect.try({
    try: () => {
      for (const [name, value] of Object.entries(headers)) {
        http.validateHeaderName(name)
        http.validateHeaderValue(name, value)
      }
    },
    catch: (error) => failed(`the request could not be made: ${(error as Error).message}`)
  })

// The deadline is a timer of the exchange itself rather than an Effect timeout around it: that one races
// two fibers per request, a third of the sender's work on the busy path.
/** Where a URL's requests go, worked out once per URL. */
interface Target {
  readonly https: boolean
  readonly host: string
  readonly port: string
  readonly path: string
  readonly agent: http.Agent
}

const exchange = (target: Target, input: SendInput) =>
  Effect.callback<Outcome>((resume) => {
    const body = typeof input.body === "string" ? Buffer.from(input.body, "utf8") : input.body
    const hasLength = Object.keys(input.headers).some((name) => name.toLowerCase() === "content-length")
    const request = (target.https ? https : http).request({
      agent: target.agent,
      method: "POST",
      host: target.host,
      port: target.port,
      path: target.path,
      headers: hasLength ? input.headers : { ...input.headers, "content-length": String(body.byteLength) }
    })
    let answer: (() => void) | undefined
    let settled = false
    const settle = (outcome: Outcome) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      resume(Effect.succeed(outcome))
    }
    const deadline = setTimeout(() => {
      settle(failed(`timed out after ${seconds(input.timeoutMs)}`))
      request.destroy()
    }, input.timeoutMs)
    request.on("error", (error) => answer !== undefined ? answer() : settle(failed(reasonOf(error))))
    request.on("response", (response) => {
      const chunks: Array<Uint8Array> = []
      let bytes = 0
      // A receiver that stops or breaks off after its status line has still answered with that status.
      answer = () => settle({ _tag: "Answered", status: response.statusCode ?? 0, bodyStart: decodeStart(chunks) })
      response.on("data", (chunk: Buffer) => {
        chunks.push(chunk)
        bytes += chunk.byteLength
        if (bytes >= maxBodyBytes) {
          answer?.()
          response.destroy()
        }
      })
      response.on("end", answer)
      response.on("error", answer)
      response.on("close", answer)
    })
    request.end(body)
    // Interrupted by the caller: abandon the request and its connection.
    return Effect.sync(() => {
      clearTimeout(deadline)
      request.destroy()
    })
  })

/**
 * How host names are resolved, both when an endpoint is saved and at every connection: the system's
 * resolver (`dns.lookup`). Tests put a resolver in its place that answers differently from one call to the
 * next, the way a DNS rebinding attack does.
 */
export const HostLookup = Context.Reference<LookupAll>("@herald/core/WebhookHttp/HostLookup", {
  defaultValue: () => systemLookupAll
})

/**
 * Sends webhook requests: POST, TLS verified, redirects never followed (a 3xx is an answer like any other),
 * public addresses only unless `allowPrivate` (checked for IP literals before connecting and for names at
 * each new connection by the guarded lookup), one deadline for the whole exchange, and at most a few
 * kilobytes of the answer read. Problems of the network are answers (`Failed`), never errors.
 *
 * A service rather than plain functions because it owns resources (the keep-alive agents, closed with its
 * layer) and so the delivery engine's tests can put a fake sender in its place.
 */
export class WebhookHttp extends Context.Service<WebhookHttp, {
  send(input: SendInput): Effect.Effect<Answer>
}>()("@herald/core/WebhookHttp") {
  static readonly layer = Layer.effect(
    WebhookHttp,
    Effect.gen(function*() {
      const lookup = yield* HostLookup
      const agents = yield* Effect.acquireRelease(
        Effect.sync((): Agents => ({
          public: new https.Agent({ keepAlive: true, lookup: guardedLookup(lookup) }),
          privateHttps: new https.Agent({ keepAlive: true }),
          privateHttp: new http.Agent({ keepAlive: true })
        })),
        (agents) =>
          Effect.sync(() => {
            agents.public.destroy()
            agents.privateHttps.destroy()
            agents.privateHttp.destroy()
          })
      )

      // The rules that need no DNS, judged once per URL: an endpoint's every attempt sends to the same one.
      // (What needs DNS is judged at each new connection, by the public agent's lookup.)
      const judged = new Map<string, Target | Outcome>()
      const judge = (text: string, allowPrivate: boolean) => {
        const key = `${allowPrivate ? "private" : "public"} ${text}`
        const known = judged.get(key)
        if (known !== undefined) return Effect.succeed(known)
        return parseWebhookUrl(text, allowPrivate).pipe(
          Effect.map((url): Target | Outcome => ({
            https: url.protocol === "https:",
            host: hostOf(url),
            port: url.port,
            path: `${url.pathname}${url.search}`,
            agent: agentFor(agents, url, allowPrivate)
          })),
          Effect.catch((error) =>
            Effect.succeed(failed(error.address === undefined ? `refused: ${error.message}` : `address refused: ${error.message}`))
          ),
          Effect.tap((verdict) =>
            Effect.sync(() => {
              if (judged.size >= 10_000) judged.clear()
              judged.set(key, verdict)
            })
          )
        )
      }

      const attempt = (input: SendInput) =>
        Effect.flatMap(judge(input.url, input.allowPrivate), (target) =>
          "agent" in target
            ? Effect.andThen(checkHeaders(input.headers), exchange(target, input))
            : Effect.succeed(target)).pipe(Effect.catch(Effect.succeed))

      const send = Effect.fnUntraced(function*(input: SendInput) {
        const started = yield* Clock.currentTimeMillis
        const outcome = yield* attempt(input)
        const durationMs = (yield* Clock.currentTimeMillis) - started
        return { ...outcome, durationMs }
      })

      return WebhookHttp.of({ send })
    })
  )
}
