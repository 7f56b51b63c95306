import { Effect, Option, Redacted } from "effect"
import { createHmac, timingSafeEqual } from "node:crypto"
import type { NetworkWebhook } from "./Adapter.ts"

// What every network's webhook check is made of: an HMAC-SHA256 over bytes, compared in constant time, and
// for the networks on Meta's platform (Instagram, Facebook Pages, Threads) the subscription handshake and
// the `X-Hub-Signature-256` header (https://developers.facebook.com/docs/graph-api/webhooks/getting-started).

/** HMAC-SHA256 of `data` keyed with `key`, as hex (Meta) or base64 (X). */
export const hmac = (key: Redacted.Redacted<string>, data: string | Uint8Array, encoding: "hex" | "base64") =>
  createHmac("sha256", Redacted.value(key)).update(data).digest(encoding)

/** Equal strings, compared in constant time, so a forger learns nothing from how long a refusal takes. */
export const sameSecret = (given: string, expected: string): boolean => {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * The verify token to enter in Meta's App Dashboard for a network. Herald's config has no field for one, so
 * it is derived from the app secret: stable across restarts, unknown to anyone without the secret, and
 * computable by the operator (each adapter's README gives the command). Changing the secret changes it.
 */
export const verifyToken = (network: string, appSecret: Redacted.Redacted<string>): string =>
  hmac(appSecret, `herald:${network}:webhook-verify-token`, "hex")

/**
 * Meta's subscription check: a `GET` with `hub.mode=subscribe`, `hub.verify_token` and `hub.challenge`,
 * answered with the challenge when the token is Herald's. Anything else is not answered (Herald says 400).
 */
export const metaHandshake = (query: Readonly<Record<string, string>>, token: string) => {
  const challenge = query["hub.challenge"]
  return query["hub.mode"] === "subscribe" && challenge !== undefined && sameSecret(query["hub.verify_token"] ?? "", token)
    ? Option.some({ status: 200, body: challenge })
    : Option.none()
}

/** Whether `X-Hub-Signature-256` is `sha256=<hex HMAC of the raw body>` keyed with the app secret (any case of hex). */
export const metaSignatureValid = (
  headers: Readonly<Record<string, string | undefined>>,
  body: Uint8Array,
  appSecret: Redacted.Redacted<string>
): boolean => {
  const given = /^sha256=([0-9a-fA-F]{64})$/.exec(headers["x-hub-signature-256"] ?? "")
  return given !== null && sameSecret(given[1]!.toLowerCase(), hmac(appSecret, body, "hex"))
}

/**
 * A whole webhook for a network on Meta's platform: the subscription check with the network's derived verify
 * token, the `X-Hub-Signature-256` check, then `accounts` reads the notification (its raw text) into the
 * account ids with news, or `None` when it is not a notification of this network's shape.
 */
export const meta = (options: {
  readonly network: string
  readonly appSecret: Redacted.Redacted<string>
  readonly accounts: (text: string) => Option.Option<ReadonlyArray<string>>
}): NetworkWebhook => {
  const token = verifyToken(options.network, options.appSecret)
  const rejected = (message: string) => Effect.fail({ _tag: "WebhookRejected" as const, message })
  return {
    handshake: (query) => metaHandshake(query, token),
    receive: ({ body, headers }) => {
      if (!metaSignatureValid(headers, body, options.appSecret)) return rejected("X-Hub-Signature-256 does not match the body")
      return Option.match(options.accounts(Buffer.from(body).toString("utf8")), {
        onNone: () => rejected(`the body is not a ${options.network} webhook notification`),
        onSome: (ids) => Effect.succeed([...new Set(ids)])
      })
    }
  }
}
