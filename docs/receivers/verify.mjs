// Verifies a webhook from Herald with node:crypto alone (Node 18 or later): copy this file into your receiver.
// The scheme, from docs/webhooks.md: `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`,
// keyed with the endpoint's whole secret (`whsec_…`, prefix included) as UTF-8 text.
import { createHmac, timingSafeEqual } from "node:crypto"
import { pathToFileURL } from "node:url"

const toleranceSeconds = 300

export class WebhookVerificationError extends Error {
  constructor(reason, message) {
    super(`${reason}: ${message}`)
    this.reason = reason // answer the request with 400
  }
}

/**
 * Returns the event `{ id, event, createdAt, data }` when the request is Herald's, else throws
 * WebhookVerificationError. `rawBody`: the body exactly as received (Buffer or string, never parsed JSON);
 * `header`: the Service-Signature value; `secrets`: the secret, or `[newSecret, oldSecret]` while rotating.
 */
export function verifyHeraldWebhook(rawBody, header, secrets, nowSeconds = Math.floor(Date.now() / 1000)) {
  if (typeof header !== "string" || header.trim() === "") {
    throw new WebhookVerificationError("missing_header", "no Service-Signature header")
  }
  let timestamp
  const signatures = []
  for (const item of header.split(",")) {
    const [key, value = ""] = item.trim().split("=", 2)
    if (key === "t") {
      if (timestamp !== undefined || !/^[0-9]+$/.test(value)) {
        throw new WebhookVerificationError("malformed_header", "t= must appear once, in whole unix seconds")
      }
      timestamp = Number(value)
    } else if (key === "v1") {
      signatures.push(Buffer.from(value)) // several during a rotation; other schemes are ignored
    }
  }
  if (timestamp === undefined || signatures.length === 0) {
    throw new WebhookVerificationError("malformed_header", "expected t=<unix seconds>,v1=<signature>")
  }
  const matches = [secrets].flat().some((secret) => {
    const expected = Buffer.from(createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex"))
    // Constant-time compare; a signature of another length is simply not a match.
    return signatures.some((given) => given.length === expected.length && timingSafeEqual(given, expected))
  })
  if (!matches) {
    throw new WebhookVerificationError("signature_mismatch", "not signed with this secret over this exact body")
  }
  // Checked after the signature: a genuine request outside 5 minutes is a replay, or a clock is off.
  if (nowSeconds - timestamp > toleranceSeconds) {
    throw new WebhookVerificationError("timestamp_too_old", `signed ${nowSeconds - timestamp} s ago`)
  }
  if (timestamp - nowSeconds > toleranceSeconds) {
    throw new WebhookVerificationError("timestamp_in_future", `signed ${timestamp - nowSeconds} s ahead of this clock`)
  }
  return JSON.parse(Buffer.from(rawBody).toString("utf8"))
}

// As a script, to check a captured request: node verify.mjs '<Service-Signature>' [now, unix seconds] < body
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const secrets = [process.env.HERALD_WEBHOOK_SECRET, process.env.HERALD_WEBHOOK_SECRET_OLD].filter(Boolean)
  if (secrets.length === 0) throw new Error("Set HERALD_WEBHOOK_SECRET to the endpoint's whsec_… secret")
  const chunks = []
  for await (const chunk of process.stdin) chunks.push(chunk)
  const now = process.argv[3] === undefined ? undefined : Number(process.argv[3])
  try {
    const event = verifyHeraldWebhook(Buffer.concat(chunks), process.argv[2], secrets, now)
    console.log(`verified ${event.event} ${event.id}`)
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error
    console.error(`refused: ${error.message}`)
    process.exitCode = 1
  }
}
