/**
 * Verifying the webhooks Herald sends, for receivers. Plain functions over `node:crypto`, no other dependency.
 *
 * `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the endpoint's
 * whole signing secret (`whsec_…`, prefix included) as a UTF-8 string, as Stripe does. See docs/webhooks.md.
 */
import { createHmac, timingSafeEqual } from "node:crypto"

/** The delivery envelope: the body of every webhook request. `id` is the same on every attempt. */
export interface WebhookEvent {
  readonly id: string
  readonly event: string
  readonly createdAt: string
  readonly data: unknown
}

export type WebhookVerificationReason =
  | "missing_header"
  | "malformed_header"
  | "timestamp_too_old"
  | "timestamp_in_future"
  | "signature_mismatch"
  | "malformed_body"

export interface VerifyWebhookOptions {
  /** How far `t` may be from the current time, either way. Default 300 (5 minutes). */
  readonly toleranceSeconds?: number | undefined
  /** The current time, as a `Date` or in milliseconds since the epoch (as `Date.now()` gives). Default: now. */
  readonly now?: Date | number | undefined
}

/** A request that must not be trusted. Answer it with 400; `reason` says what was wrong. */
export class WebhookVerificationError extends Error {
  readonly reason: WebhookVerificationReason

  constructor(reason: WebhookVerificationReason, message: string) {
    super(message)
    this.name = "WebhookVerificationError"
    this.reason = reason
  }
}

const defaultToleranceSeconds = 300
const secretPrefix = "whsec_"
const encoder = new TextEncoder()
const decoder = new TextDecoder("utf-8", { fatal: true })

/**
 * Checks that a request came from Herald and returns its envelope. Throws `WebhookVerificationError` when it
 * did not (or is too old or too new to be trusted); throws `TypeError` when called wrongly (no secret, a parsed
 * body instead of the raw one), because that is the receiver's bug, not the request's.
 *
 * `secret` may be a list: during a rotation pass the new and the old secret, and either one verifies.
 * The signature is checked before the time, so a `timestamp_*` reason means the request was genuine but
 * late or early: a replay, or a receiver clock that is off.
 */
export const verifyWebhook = (
  rawBody: string | Uint8Array,
  signatureHeader: string | ReadonlyArray<string> | null | undefined,
  secret: string | ReadonlyArray<string>,
  options: VerifyWebhookOptions = {}
): WebhookEvent => {
  checkRawBody(rawBody, "verifyWebhook")
  const secrets = typeof secret === "string" ? [secret] : secret
  if (secrets.length === 0) {
    throw new TypeError("verifyWebhook needs at least one signing secret (whsec_…).")
  }
  secrets.forEach((each) => checkSecret(each, "verifyWebhook"))
  const toleranceSeconds = options.toleranceSeconds ?? defaultToleranceSeconds
  if (Number.isNaN(toleranceSeconds) || toleranceSeconds < 0) {
    throw new TypeError(`toleranceSeconds must be zero or more; got ${toleranceSeconds}.`)
  }
  const nowMillis = options.now === undefined
    ? Date.now()
    : typeof options.now === "number"
    ? options.now
    : options.now.getTime()
  if (!Number.isFinite(nowMillis)) {
    throw new TypeError("now must be a valid Date or a number of milliseconds since the epoch.")
  }

  const header = typeof signatureHeader === "string" ? signatureHeader : signatureHeader?.join(",")
  if (header === undefined || header.trim() === "") {
    throw new WebhookVerificationError(
      "missing_header",
      "The request has no Service-Signature header: it was not sent by Herald, " +
        "or something on the way dropped the header."
    )
  }
  const { signatures, timestamp } = parseHeader(header)

  const matches = secrets.some((each) => {
    const expected = encoder.encode(sign(timestamp, rawBody, each))
    return signatures.some((candidate) => {
      const given = encoder.encode(candidate)
      // timingSafeEqual throws on different lengths; a signature of the wrong length is simply not a match.
      return given.length === expected.length && timingSafeEqual(given, expected)
    })
  })
  if (!matches) {
    throw new WebhookVerificationError("signature_mismatch", mismatchMessage(secrets))
  }

  // Whole seconds on both sides, as `t` is: a request signed at 12:00:00.9 and checked at 12:05:00.8 is 300 s old.
  const nowSeconds = Math.floor(nowMillis / 1000)
  if (nowSeconds - timestamp > toleranceSeconds) {
    throw new WebhookVerificationError(
      "timestamp_too_old",
      `The signature was made ${nowSeconds - timestamp} s ago; at most ${toleranceSeconds} s is accepted. ` +
        "This is a replayed request, or this machine's clock is ahead (check NTP)."
    )
  }
  if (timestamp - nowSeconds > toleranceSeconds) {
    throw new WebhookVerificationError(
      "timestamp_in_future",
      `The signature's time is ${timestamp - nowSeconds} s ahead of this machine's clock; at most ` +
        `${toleranceSeconds} s is accepted. This machine's clock is probably behind (check NTP).`
    )
  }
  return parseEnvelope(rawBody)
}

/**
 * The `Service-Signature` value Herald would send for this body, for a receiver's own tests.
 * `timestamp` is in unix seconds; default now.
 */
export const signWebhook = (
  rawBody: string | Uint8Array,
  secret: string,
  timestamp: number = Math.floor(Date.now() / 1000)
): string => {
  checkRawBody(rawBody, "signWebhook")
  checkSecret(secret, "signWebhook")
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new TypeError(`signWebhook needs a timestamp in whole unix seconds; got ${timestamp}.`)
  }
  return `t=${timestamp},v1=${sign(timestamp, rawBody, secret)}`
}

const sign = (timestamp: number, rawBody: string | Uint8Array, secret: string): string =>
  createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex")

const checkRawBody = (rawBody: unknown, caller: string): void => {
  if (typeof rawBody !== "string" && !(rawBody instanceof Uint8Array)) {
    throw new TypeError(
      `${caller} needs the raw body exactly as received (a string or bytes), not parsed JSON: ` +
        "parsing and serialising again changes the bytes that were signed."
    )
  }
}

const checkSecret = (secret: unknown, caller: string): void => {
  if (typeof secret !== "string" || secret === "") {
    throw new TypeError(`${caller} needs the endpoint's signing secret (whsec_…); got an empty one.`)
  }
}

// `t=…` once, any number of `v1=…` (two during a secret rotation), other schemes ignored so that Herald
// can add one without breaking receivers. Spaces around items are tolerated.
const parseHeader = (header: string): { readonly timestamp: number; readonly signatures: ReadonlyArray<string> } => {
  let timestamp: number | undefined
  const signatures: Array<string> = []
  for (const item of header.split(",")) {
    const part = item.trim()
    if (part === "") continue
    const equals = part.indexOf("=")
    if (equals <= 0) {
      throw malformedHeader("every item must be a key=value pair")
    }
    const key = part.slice(0, equals).trim()
    const value = part.slice(equals + 1).trim()
    if (key === "t") {
      if (timestamp !== undefined) throw malformedHeader("t= appears more than once")
      if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(Number(value))) {
        throw malformedHeader("t= must be a whole number of unix seconds")
      }
      timestamp = Number(value)
    } else if (key === "v1") {
      signatures.push(value)
    }
  }
  if (timestamp === undefined) throw malformedHeader("it has no t= timestamp")
  if (signatures.length === 0) throw malformedHeader("it has no v1= signature")
  return { timestamp, signatures }
}

const malformedHeader = (detail: string): WebhookVerificationError =>
  new WebhookVerificationError(
    "malformed_header",
    `The Service-Signature header is not of the form t=<unix seconds>,v1=<hex signature>: ${detail}.`
  )

const mismatchMessage = (secrets: ReadonlyArray<string>): string => {
  const hints = [
    "No v1 signature in the Service-Signature header matches this body with the secret given. " +
      "Verify the raw body exactly as received (not JSON parsed and serialised again), " +
      "with the endpoint's whole signing secret."
  ]
  if (secrets.some((each) => !each.startsWith(secretPrefix))) {
    hints.push(`A secret given does not start with ${secretPrefix}: the key is the whole secret, prefix included.`)
  }
  if (secrets.some((each) => each.trim() !== each)) {
    hints.push("A secret given has leading or trailing whitespace (a newline from a file or environment variable?).")
  }
  return hints.join(" ")
}

const parseEnvelope = (rawBody: string | Uint8Array): WebhookEvent => {
  let text: string
  try {
    text = typeof rawBody === "string" ? rawBody : decoder.decode(rawBody)
  } catch {
    throw malformedBody("it is not UTF-8")
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw malformedBody("it is not JSON")
  }
  if (!isObject(json)) throw malformedBody("it is not a JSON object")
  const { createdAt, data, event, id } = json
  if (typeof id !== "string" || id === "") throw malformedBody("id is not a non-empty string")
  if (typeof event !== "string" || event === "") throw malformedBody("event is not a non-empty string")
  if (typeof createdAt !== "string" || Number.isNaN(Date.parse(createdAt))) {
    throw malformedBody("createdAt is not an ISO 8601 time")
  }
  if (!isObject(data)) throw malformedBody("data is not an object")
  return { id, event, createdAt, data }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const malformedBody = (detail: string): WebhookVerificationError =>
  new WebhookVerificationError(
    "malformed_body",
    `The signature is valid but the body is not a webhook envelope { id, event, createdAt, data }: ${detail}.`
  )
