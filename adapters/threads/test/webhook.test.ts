import { assert, layer } from "@effect/vitest"
import type { Adapter } from "@herald/adapter-kit"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { Effect, Option } from "effect"
import { createHmac } from "node:crypto"
import { ThreadsAdapter, ThreadsSimulator } from "../src/index.ts"

// Threads' webhook, called the way Herald's `/networks/threads/webhook` route calls it. Signatures and the
// verify token are computed here with node:crypto, as the README tells the operator, not with the adapter's
// code, so a mistake in one cannot hide in the other.

/** The harness's sandbox app secret. */
const secret = "sandbox-secret"
const verifyToken = createHmac("sha256", secret).update("herald:threads:webhook-verify-token").digest("hex")
const sign = (body: Uint8Array | string) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`

const webhookOf = (context: AdapterSuite.Context): Adapter.NetworkWebhook => {
  const webhook = context.adapter.inbox?.webhook
  assert.isDefined(webhook, "the threads adapter has no webhook")
  return webhook!
}

/** A notification shaped like Meta's documented sample (https://developers.facebook.com/docs/threads/webhooks). */
const notification = (field: string, value: Readonly<Record<string, unknown>>) =>
  new TextEncoder().encode(JSON.stringify({
    app_id: "sandbox-client",
    topic: field === "replies" || field === "delete" ? "moderate" : "interaction",
    target_id: "78901",
    time: 1723226877,
    subscription_id: "234567",
    has_uid_field: false,
    values: { value, field }
  }))

const reply = (ownerId: string) => ({
  id: "8901234",
  username: "a_fan",
  text: "Nice post",
  media_type: "TEXT_POST",
  permalink: "https://www.threads.net/@a_fan/post/Pp",
  replied_to: { id: "567890" },
  root_post: { id: "567890", owner_id: ownerId, username: "the_account" },
  shortcode: "Pp",
  timestamp: "2024-08-07T10:33:16+0000"
})

const receive = (context: AdapterSuite.Context, body: Uint8Array, signature: string | undefined) =>
  webhookOf(context).receive({ headers: { "x-hub-signature-256": signature, "content-type": "application/json" }, body })

/** The notification is refused as Herald answers 401 to, not accepted nor failed otherwise. */
const rejected = (context: AdapterSuite.Context, body: Uint8Array, signature: string | undefined) =>
  Effect.map(Effect.flip(receive(context, body, signature)), (error) => assert.strictEqual(error._tag, "WebhookRejected"))

layer(
  AdapterSuite.harness({ makeAdapter: ThreadsAdapter.make, makeSimulator: ThreadsSimulator.simulator }),
  { excludeTestServices: true }
)("threads webhook", (it) => {
  const context = Effect.service(AdapterSuite.Harness)

  it.effect("answers Meta's subscription check with the challenge when the verify token is right", () =>
    Effect.gen(function*() {
      const handshake = webhookOf(yield* context).handshake!
      const query = { "hub.mode": "subscribe", "hub.verify_token": verifyToken, "hub.challenge": "1158201444" }
      assert.deepStrictEqual(handshake(query), Option.some({ status: 200, body: "1158201444" }))
    }))

  it.effect("refuses the check with a wrong or missing verify token, another mode or no challenge", () =>
    Effect.gen(function*() {
      const handshake = webhookOf(yield* context).handshake!
      const good = { "hub.mode": "subscribe", "hub.verify_token": verifyToken, "hub.challenge": "42" }
      assert.isTrue(Option.isNone(handshake({ ...good, "hub.verify_token": `${verifyToken.slice(0, -1)}0` })))
      assert.isTrue(Option.isNone(handshake({ ...good, "hub.verify_token": "sandbox-secret" })))
      assert.isTrue(Option.isNone(handshake({ "hub.mode": "subscribe", "hub.challenge": "42" })))
      assert.isTrue(Option.isNone(handshake({ ...good, "hub.mode": "unsubscribe" })))
      assert.isTrue(Option.isNone(handshake({ "hub.mode": "subscribe", "hub.verify_token": verifyToken })))
    }))

  it.effect("a signed reply names the account that owns the post, the id Herald knows it by", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account } = yield* AdapterSuite.connect(ctx, "hooked_owner")
      const body = notification("replies", reply(account.networkAccountId))
      assert.deepStrictEqual(yield* receive(ctx, body, sign(body)), [account.networkAccountId])
    }))

  it.effect("reads `values` given as an array too, each account once, and only its replies", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const body = new TextEncoder().encode(JSON.stringify({
        app_id: "sandbox-client",
        topic: "moderate",
        target_id: "78901",
        time: 1723226877,
        subscription_id: "234567",
        has_uid_field: false,
        values: [
          { field: "replies", value: reply("111") },
          { field: "replies", value: { ...reply("111"), id: "8901235" } },
          { field: "mentions", value: { id: "9", root_post: { id: "1", owner_id: "333" } } },
          { field: "replies", value: reply("222") }
        ]
      }))
      assert.deepStrictEqual(yield* receive(ctx, body, sign(body)), ["111", "222"])
    }))

  it.effect("refuses a wrong, malformed or missing signature", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const body = notification("replies", reply("111"))
      const otherKey = `sha256=${createHmac("sha256", "another-secret").update(body).digest("hex")}`
      yield* rejected(ctx, body, otherKey)
      yield* rejected(ctx, body, sign(body).replace("sha256=", "sha1="))
      yield* rejected(ctx, body, sign(body).toUpperCase())
      yield* rejected(ctx, body, "sha256=00")
      yield* rejected(ctx, body, undefined)
    }))

  it.effect("refuses a body changed by one byte after signing", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const body = notification("replies", reply("111"))
      const signature = sign(body)
      const changed = Uint8Array.from(body)
      const at = new TextDecoder().decode(body).indexOf("111")
      changed[at] = "2".charCodeAt(0)
      yield* rejected(ctx, changed, signature)
      assert.deepStrictEqual(yield* receive(ctx, body, signature), ["111"])
    }))

  it.effect("names no account for fields that are no inbox news: mentions, publish, delete", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const mention = notification("mentions", { id: "8901234", text: "@the_account hi", root_post: { id: "1", owner_id: "111" } })
      const publish = notification("publish", { id: "8901234", media_type: "TEXT_POST", username: "the_account" })
      const deleted = notification("delete", { id: "8901234", owner: { owner_id: "111" }, deleted_at: "2024-08-07T10:33:16+0000" })
      for (const body of [mention, publish, deleted]) {
        assert.deepStrictEqual(yield* receive(ctx, body, sign(body)), [])
      }
    }))

  it.effect("refuses a signed body that is not a notification", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const body = new TextEncoder().encode("not json")
      yield* rejected(ctx, body, sign(body))
    }))
})
