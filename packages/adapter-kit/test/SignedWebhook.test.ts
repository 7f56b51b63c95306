import { assert, describe, it } from "@effect/vitest"
import { Option, Redacted } from "effect"
import { createHmac } from "node:crypto"
import { SignedWebhook } from "../src/index.ts"

// The pieces of every network's webhook check, against HMACs computed here with node:crypto.

const secret = Redacted.make("app-secret")
const body = new TextEncoder().encode(`{"object":"page","entry":[]}`)
const hex = createHmac("sha256", "app-secret").update(body).digest("hex")

describe("signed webhooks", () => {
  it("signs as hex or base64", () => {
    assert.strictEqual(SignedWebhook.hmac(secret, body, "hex"), hex)
    assert.strictEqual(SignedWebhook.hmac(secret, "token", "base64"), createHmac("sha256", "app-secret").update("token").digest("base64"))
  })

  it("accepts Meta's X-Hub-Signature-256 over the exact body, and nothing else", () => {
    assert.isTrue(SignedWebhook.metaSignatureValid({ "x-hub-signature-256": `sha256=${hex}` }, body, secret))
    assert.isTrue(SignedWebhook.metaSignatureValid({ "x-hub-signature-256": `sha256=${hex.toUpperCase()}` }, body, secret))
    assert.isFalse(SignedWebhook.metaSignatureValid({}, body, secret))
    assert.isFalse(SignedWebhook.metaSignatureValid({ "x-hub-signature-256": `sha1=${hex}` }, body, secret))
    assert.isFalse(SignedWebhook.metaSignatureValid({ "x-hub-signature-256": `sha256=${hex}` }, new TextEncoder().encode(`{"object":"page","entry":[ ]}`), secret))
    assert.isFalse(SignedWebhook.metaSignatureValid({ "x-hub-signature-256": `sha256=${hex}` }, body, Redacted.make("other")))
  })

  it("answers Meta's subscription check only with Herald's verify token", () => {
    const token = SignedWebhook.verifyToken("facebook", secret)
    assert.strictEqual(token, createHmac("sha256", "app-secret").update("herald:facebook:webhook-verify-token").digest("hex"))
    assert.notStrictEqual(token, SignedWebhook.verifyToken("instagram", secret))
    const query = { "hub.mode": "subscribe", "hub.verify_token": token, "hub.challenge": "1158201444" }
    assert.deepStrictEqual(SignedWebhook.metaHandshake(query, token), Option.some({ status: 200, body: "1158201444" }))
    assert.isTrue(Option.isNone(SignedWebhook.metaHandshake({ ...query, "hub.verify_token": "guess" }, token)))
    assert.isTrue(Option.isNone(SignedWebhook.metaHandshake({ ...query, "hub.mode": "unsubscribe" }, token)))
    assert.isTrue(Option.isNone(SignedWebhook.metaHandshake({ "hub.mode": "subscribe", "hub.verify_token": token }, token)))
  })

  it("compares secrets only when they are the same length and the same bytes", () => {
    assert.isTrue(SignedWebhook.sameSecret("abc", "abc"))
    assert.isFalse(SignedWebhook.sameSecret("abc", "abd"))
    assert.isFalse(SignedWebhook.sameSecret("abc", "abcd"))
  })
})
