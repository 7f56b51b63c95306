import type { Adapter } from "@herald/adapter-kit"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { FetchHttpClient } from "effect/http"
import { createHmac } from "node:crypto"
import * as FacebookAdapter from "../src/FacebookAdapter.ts"

// Meta's Page webhook as Herald serves it: the adapter's `inbox.webhook` called directly, with
// signatures and the verify token computed here from Meta's documented scheme, not by the adapter.

const appSecret = "sandbox-secret"

const webhook = Effect.gen(function*() {
  const adapter = yield* FacebookAdapter.make({
    apiBaseUrl: "http://127.0.0.1:9/sandbox/facebook",
    authBaseUrl: "http://127.0.0.1:9/sandbox/facebook",
    webBaseUrl: "http://127.0.0.1:9/sandbox/facebook",
    clientId: "sandbox-client",
    clientSecret: Redacted.make(appSecret)
  })
  assert.isDefined(adapter.inbox?.webhook, "the Facebook adapter has no webhook")
  return adapter.inbox!.webhook!
}).pipe(Effect.provide(FetchHttpClient.layer))

/** What the README tells the operator to compute. */
const verifyToken = createHmac("sha256", appSecret).update("herald:facebook:webhook-verify-token").digest("hex")

const sign = (body: Uint8Array, secret = appSecret) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`

const bytes = (payload: unknown) => new TextEncoder().encode(JSON.stringify(payload))

const receive = (hook: Adapter.NetworkWebhook, body: Uint8Array, signature: string | undefined) =>
  hook.receive({ headers: { "content-type": "application/json", "x-hub-signature-256": signature }, body })

const comment = (pageId: string, verb = "add") => ({
  id: pageId,
  time: 1767225600,
  changes: [{
    field: "feed",
    value: {
      item: "comment",
      verb,
      post_id: `${pageId}_111`,
      comment_id: "111_222",
      from: { id: "987", name: "Carla" },
      message: "Love this",
      created_time: 1767225600
    }
  }]
})

const message = (pageId: string) => ({
  id: pageId,
  time: 1767225600000,
  messaging: [{
    sender: { id: "psid-1" },
    recipient: { id: pageId },
    timestamp: 1767225600000,
    message: { mid: "m_1", text: "Can we talk?" }
  }]
})

describe("facebook webhook", () => {
  it.effect("answers Meta's subscription check with the challenge when the verify token is Herald's", () =>
    Effect.gen(function*() {
      const hook = yield* webhook
      assert.isDefined(hook.handshake)
      const answer = hook.handshake!({ "hub.mode": "subscribe", "hub.verify_token": verifyToken, "hub.challenge": "1158201444" })
      assert.deepStrictEqual(answer, Option.some({ status: 200, body: "1158201444" }))
    }))

  it.effect("refuses a subscription check with another verify token, another mode or no challenge", () =>
    Effect.gen(function*() {
      const hook = yield* webhook
      const check = hook.handshake!
      assert.isTrue(Option.isNone(check({ "hub.mode": "subscribe", "hub.verify_token": "guess", "hub.challenge": "1" })))
      assert.isTrue(Option.isNone(check({ "hub.mode": "subscribe", "hub.verify_token": `${verifyToken}0`, "hub.challenge": "1" })))
      assert.isTrue(Option.isNone(check({ "hub.mode": "unsubscribe", "hub.verify_token": verifyToken, "hub.challenge": "1" })))
      assert.isTrue(Option.isNone(check({ "hub.mode": "subscribe", "hub.verify_token": verifyToken })))
      assert.isTrue(Option.isNone(check({})))
    }))

  it.effect("a signed notification names each Page with a new comment or message, once", () =>
    Effect.gen(function*() {
      const hook = yield* webhook
      const body = bytes({ object: "page", entry: [comment("1001"), message("2002"), comment("1001"), message("1001")] })
      const accounts = yield* receive(hook, body, sign(body))
      assert.deepStrictEqual(accounts, ["1001", "2002"])
    }))

  it.effect("ignores what is not inbox news: other feed items and verbs, receipts, other fields and objects", () =>
    Effect.gen(function*() {
      const hook = yield* webhook
      const entries = [
        { id: "3003", changes: [{ field: "feed", value: { item: "reaction", verb: "add", reaction_type: "like" } }] },
        { id: "3004", changes: [{ field: "feed", value: { item: "status", verb: "add", post_id: "3004_1" } }] },
        comment("3005", "edited"),
        comment("3006", "remove"),
        { id: "3007", changes: [{ field: "name", value: "New Page name" }] },
        { id: "3008", messaging: [{ sender: { id: "psid-2" }, recipient: { id: "3008" }, read: { watermark: 1 } }] },
        { id: "3009", messaging: [{ sender: { id: "psid-3" }, recipient: { id: "3009" }, delivery: { mids: ["m_2"] } }] }
      ]
      const page = bytes({ object: "page", entry: entries })
      assert.deepStrictEqual(yield* receive(hook, page, sign(page)), [])
      const instagram = bytes({ object: "instagram", entry: [comment("4001")] })
      assert.deepStrictEqual(yield* receive(hook, instagram, sign(instagram)), [])
    }))

  it.effect("refuses a notification with a wrong or missing signature", () =>
    Effect.gen(function*() {
      const hook = yield* webhook
      const body = bytes({ object: "page", entry: [comment("1001")] })
      const wrongKey = yield* Effect.flip(receive(hook, body, sign(body, "another-secret")))
      assert.strictEqual(wrongKey._tag, "WebhookRejected")
      const missing = yield* Effect.flip(receive(hook, body, undefined))
      assert.strictEqual(missing._tag, "WebhookRejected")
      // The older SHA-1 form is not accepted in place of SHA-256.
      const sha1 = `sha1=${createHmac("sha1", appSecret).update(body).digest("hex")}`
      assert.strictEqual((yield* Effect.flip(receive(hook, body, sha1)))._tag, "WebhookRejected")
    }))

  it.effect("refuses a body changed by one byte after signing", () =>
    Effect.gen(function*() {
      const hook = yield* webhook
      const body = bytes({ object: "page", entry: [comment("1001")] })
      const signature = sign(body)
      const changed = Uint8Array.from(body)
      const at = new TextDecoder().decode(body).indexOf("1001")
      changed[at] = "2".charCodeAt(0)
      const refused = yield* Effect.flip(receive(hook, changed, signature))
      assert.strictEqual(refused._tag, "WebhookRejected")
    }))

  it.effect("refuses a signed body that is not a notification", () =>
    Effect.gen(function*() {
      const hook = yield* webhook
      const body = new TextEncoder().encode("not json")
      const refused = yield* Effect.flip(receive(hook, body, sign(body)))
      assert.strictEqual(refused._tag, "WebhookRejected")
    }))
})
