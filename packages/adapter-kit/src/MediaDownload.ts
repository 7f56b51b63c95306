import { Clock, Effect } from "effect"
import { type HttpClient, HttpClientRequest } from "effect/http"
import { detailOf as errorDetail, readAtMost } from "./internal/boundedBody.ts"
import type { MediaLimits } from "./Limits.ts"
import * as PublishError from "./PublishError.ts"

// The bytes of a post's media item, read from Herald's media address by the adapters that upload bytes
// rather than hand the network a URL. One table says what each answer means (decision 0075): a passing fault
// is retried by the engine, a file that is gone or too large is refused for good, and a body is never read
// past the most the network takes.

/**
 * The largest file Herald stores, the bound when the network sets none: the core's largest upload
 * (`Media.defaultLimits.video`, 512 MiB), which the kit does not depend on.
 */
export const heraldMaxBytes = 512 * 1024 * 1024

/** What reading a media address came to, when it is not the bytes. */
export type Answer =
  /** No answer: the connection was refused, reset or timed out before a status. */
  | { readonly _tag: "Unreachable"; readonly detail: string }
  /** The address is not a URL Herald can ask. */
  | { readonly _tag: "NotAUrl" }
  /** A status other than 2xx; `retryAfterMs` from `Retry-After`, when given. */
  | { readonly _tag: "Status"; readonly status: number; readonly retryAfterMs: number | undefined }
  /** `Content-Length` over the bound: refused before the body is read. */
  | { readonly _tag: "Declared"; readonly bytes: number; readonly most: number }
  /** The body went past the bound while it was read: reading stopped there. */
  | { readonly _tag: "Overran"; readonly most: number }
  /** The body ended early: the connection dropped while it was read. */
  | { readonly _tag: "CutOff"; readonly detail: string }

export interface Rule {
  /** The answer, in words (the decision's table). */
  readonly answer: string
  readonly when: (answer: Answer) => boolean
  readonly reason: PublishError.ReasonTag
  /** What the person reads; `path` is the address without its query (media URLs may carry signatures). */
  readonly says: (answer: Answer, path: string, network: string) => string
}

const statusOf = (answer: Answer) => answer._tag === "Status" ? answer.status : 0
const detailOf = (answer: Answer) => answer._tag === "Unreachable" || answer._tag === "CutOff" ? answer.detail : ""
const mostOf = (answer: Answer) => answer._tag === "Declared" || answer._tag === "Overran" ? answer.most : 0

/** Statuses that say "not now": a timeout, too early, too many, or a server fault. */
const passing = (status: number) => status === 408 || status === 425 || status === 429 || status >= 500

/** First matching row wins. */
export const table: ReadonlyArray<Rule> = [
  {
    answer: "connection failure",
    when: (answer) => answer._tag === "Unreachable",
    reason: "Transient",
    says: (answer, path) => `could not reach Herald's media server for ${path} (${detailOf(answer)})`
  },
  {
    answer: "body cut off while reading",
    when: (answer) => answer._tag === "CutOff",
    reason: "Transient",
    says: (answer, path) => `the media file ${path} was cut off while it was read (${detailOf(answer)})`
  },
  {
    answer: "429 with Retry-After",
    when: (answer) => answer._tag === "Status" && answer.status === 429 && answer.retryAfterMs !== undefined,
    reason: "RateLimited",
    says: (_, path) => `Herald's media server is busy for ${path} (HTTP 429)`
  },
  {
    answer: "408, 425, 429, 5xx",
    when: (answer) => answer._tag === "Status" && passing(answer.status),
    reason: "Transient",
    says: (answer, path) => `the media file ${path} could not be read now (HTTP ${statusOf(answer)})`
  },
  {
    // Herald's media server answers 404 for media deleted since the post was made: retrying cannot help.
    answer: "404, 410",
    when: (answer) => answer._tag === "Status" && (answer.status === 404 || answer.status === 410),
    reason: "Rejected",
    says: (answer, path) => `the media file ${path} is gone (HTTP ${statusOf(answer)}); attach it again`
  },
  {
    answer: "any other status outside 2xx",
    when: (answer) => answer._tag === "Status",
    reason: "Rejected",
    says: (answer, path) => `the media file ${path} could not be read (HTTP ${statusOf(answer)})`
  },
  {
    answer: "Content-Length over the bound",
    when: (answer) => answer._tag === "Declared",
    reason: "Rejected",
    says: (answer, path, network) =>
      `the media file ${path} is ${answer._tag === "Declared" ? answer.bytes : 0} bytes; ${network} takes at most ${mostOf(answer)}`
  },
  {
    answer: "body passing the bound while read",
    when: (answer) => answer._tag === "Overran",
    reason: "Rejected",
    says: (answer, path, network) => `the media file ${path} is over ${mostOf(answer)} bytes, the most ${network} takes`
  },
  {
    answer: "an address that is not a URL",
    when: (answer) => answer._tag === "NotAUrl",
    reason: "Rejected",
    says: (_, path) => `the media address ${path} is not a URL`
  }
]

/** An address without its query and fragment, which may carry signatures. */
export const pathOf = (url: string): string => {
  if (!URL.canParse(url)) return "(not a URL)"
  return new URL(url).pathname
}

/** The table applied to one answer. */
export const toPublishError = (network: string, url: string, answer: Answer): PublishError.PublishError => {
  const rule = table.find((row) => row.when(answer)) ?? table[table.length - 1]!
  const retryAfterMs = answer._tag === "Status" ? answer.retryAfterMs ?? 0 : 0
  return PublishError.of(network, rule.reason, rule.says(answer, pathOf(url), network), retryAfterMs)
}

/**
 * `Retry-After` in milliseconds from `nowMillis`: delay-seconds or an HTTP-date
 * (https://www.rfc-editor.org/rfc/rfc9110#field.retry-after); undefined when absent or unreadable.
 */
export const retryAfterMs = (header: string | undefined, nowMillis: number): number | undefined => {
  if (header === undefined) return undefined
  const value = header.trim()
  if (/^\d+$/.test(value)) return Number(value) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMillis)
}

/** The bound for an item of this kind under a network's media limits: its photo or video size, else none. */
export const maxBytesOf = (media: MediaLimits | undefined, kind: "image" | "video"): number | undefined =>
  kind === "image" ? media?.maxPhotoBytes : media?.maxVideoBytes

/**
 * The answer at `url` once it is the file (a 2xx), its body not yet read, for an adapter that streams the
 * bytes on to the network rather than holding them; any other answer is the table's `PublishError`.
 */
export const open = Effect.fn("MediaDownload.open")(function*(http: HttpClient.HttpClient, network: string, url: string) {
  const fail = (answer: Answer) => Effect.fail(toPublishError(network, url, answer))
  if (!URL.canParse(url)) return yield* fail({ _tag: "NotAUrl" })
  const response = yield* Effect.catch(
    http.execute(HttpClientRequest.get(url)),
    (error) => fail({ _tag: "Unreachable", detail: errorDetail(error) })
  )
  if (response.status < 200 || response.status >= 300) {
    const now = yield* Clock.currentTimeMillis
    return yield* fail({ _tag: "Status", status: response.status, retryAfterMs: retryAfterMs(response.headers["retry-after"], now) })
  }
  return response
})

/**
 * The bytes at `url`, read with the adapter's own `HttpClient` (so its tests' faults and tracing apply), at
 * most `maxBytes` of them (the network's limit for the item's kind; undefined: Herald's own), or the
 * `PublishError` the table gives for what was answered instead.
 */
export const download = Effect.fn("MediaDownload.download")(function*(
  http: HttpClient.HttpClient,
  network: string,
  url: string,
  maxBytes: number | undefined
) {
  const response = yield* open(http, network, url)
  const most = Math.min(maxBytes ?? heraldMaxBytes, heraldMaxBytes)
  const declared = Number(response.headers["content-length"])
  if (Number.isFinite(declared) && declared > most) {
    return yield* Effect.fail(toPublishError(network, url, { _tag: "Declared", bytes: declared, most }))
  }
  return yield* Effect.mapError(readAtMost(response.stream, most), (short) => toPublishError(network, url, short))
})
