import { Clock, Context, Effect, Layer, Redacted, Schema } from "effect"
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto"
import { SecretKey } from "./SecretKey.ts"

/** Why a link was refused; the message is for the person who opened it. */
export class LinkRefused extends Schema.TaggedError<LinkRefused>()("LinkRefused", {
  reason: Schema.Literals(["malformed", "tampered", "expired"])
}) {
  override get message() {
    switch (this.reason) {
      case "malformed":
        return "This link is not one Herald made: check that it was copied completely"
      case "tampered":
        return "This link has been altered, so Herald does not accept it"
      case "expired":
        return "This link has expired: ask for a new one"
    }
  }
}

/**
 * Links that carry their own proof: `<id>.<expiry, unix seconds>.<HMAC-SHA256>` under a key derived from
 * `HERALD_SECRET_KEY` for this use alone, and bound to a purpose (an invitation link is no review link). The
 * database needs no token column, any process can check a link, and changing the id or the expiry breaks
 * it. What the id points at (used already, revoked) is the caller's to check.
 */
export class SignedLinks extends Context.Service<SignedLinks, {
  sign(purpose: string, id: string, expiresAt: Date): string
  verify(purpose: string, token: string): Effect.Effect<{ readonly id: string; readonly expiresAt: Date }, LinkRefused>
}>()("@herald/core/SignedLinks") {
  static readonly layer = Layer.effect(
    SignedLinks,
    Effect.map(Effect.service(SecretKey), (secretKey) => {
      const key = Buffer.from(hkdfSync("sha256", Buffer.from(Redacted.value(secretKey)), "herald", "signed links", 32))
      const mac = (purpose: string, id: string, expires: string) =>
        createHmac("sha256", key).update(`${purpose}|${id}|${expires}`).digest()
      return SignedLinks.of({
        sign: (purpose, id, expiresAt) => {
          const expires = String(Math.floor(expiresAt.getTime() / 1000))
          return `${id}.${expires}.${mac(purpose, id, expires).toString("base64url")}`
        },
        verify: (purpose, token) =>
          Effect.gen(function*() {
            const match = /^([A-Za-z0-9_]{1,64})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token)
            if (match === null) return yield* new LinkRefused({ reason: "malformed" })
            const [, id = "", expires = "", given = ""] = match
            if (!timingSafeEqual(Buffer.from(given, "base64url"), mac(purpose, id, expires))) {
              return yield* new LinkRefused({ reason: "tampered" })
            }
            const expiresAt = new Date(Number(expires) * 1000)
            if ((yield* Clock.currentTimeMillis) >= expiresAt.getTime()) return yield* new LinkRefused({ reason: "expired" })
            return { id, expiresAt }
          })
      })
    })
  )
}
