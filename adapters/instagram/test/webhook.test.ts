import type { Adapter } from "@herald/adapter-kit"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { assert, layer } from "@effect/vitest"
import { Effect, Exit, Option, Redacted } from "effect"
import { createHmac } from "node:crypto"
import * as InstagramAdapter from "../src/InstagramAdapter.ts"
import * as InstagramConfig from "../src/InstagramConfig.ts"
import * as InstagramSimulator from "../src/InstagramSimulator.ts"

// Meta's webhook for Instagram, called the way Herald's `/networks/instagram/webhook` calls it. Signatures and
// the verify token are computed here with node:crypto, as the README tells the operator, not with the adapter.

/** The app secret the kit's harness gives every adapter. */
const secret = "sandbox-secret"
const verifyToken = createHmac("sha256", secret).update("herald:instagram:webhook-verify-token").digest("hex")
const sign = (body: Uint8Array | string, key = secret) => `sha256=${createHmac("sha256", key).update(body).digest("hex")}`
const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))

const webhookOf = (context: AdapterSuite.Context): Adapter.NetworkWebhook => {
  const webhook = context.adapter.inbox?.webhook
  assert.isDefined(webhook, "the Instagram adapter has no webhook")
  return webhook!
}

const comment = (accountId: string, field = "comments") => ({
  object: "instagram",
  entry: [{
    id: accountId,
    time: 1_716_300_000,
    changes: [{
      field,
      value: { id: "17865799348089039", from: { id: "1234", username: "fan" }, text: "Nice!", media: { id: "1790", media_product_type: "FEED" } }
    }]
  }]
})

const message = (accountId: string) => ({
  object: "instagram",
  entry: [{
    id: accountId,
    time: 1_716_300_000,
    messaging: [{
      sender: { id: "9876" },
      recipient: { id: accountId },
      timestamp: 1_716_300_000,
      message: { mid: "aWdfZG1", text: "hello" }
    }]
  }]
})

const receive = (context: AdapterSuite.Context, body: Uint8Array, headers: Record<string, string | undefined>) =>
  Effect.exit(webhookOf(context).receive({ headers, body }))

const assertRejected = (exit: Exit.Exit<ReadonlyArray<string>, { readonly _tag: "WebhookRejected"; readonly message: string }>) => {
  const error = Exit.findErrorOption(exit)
  assert.isTrue(Option.isSome(error) && error.value._tag === "WebhookRejected", "the notification was accepted")
}

layer(
  AdapterSuite.harness({ makeAdapter: InstagramAdapter.make, makeSimulator: InstagramSimulator.simulator }),
  { excludeTestServices: true }
)(
  "instagram webhook",
  (it) => {
    const context = Effect.service(AdapterSuite.Harness)

    it.effect("the verification echoes the challenge for the verify token, and nothing for another", () =>
      Effect.gen(function*() {
        const webhook = webhookOf(yield* context)
        assert.isDefined(webhook.handshake)
        const check = webhook.handshake!
        assert.deepStrictEqual(
          check({ "hub.mode": "subscribe", "hub.verify_token": verifyToken, "hub.challenge": "1158201444" }),
          Option.some({ status: 200, body: "1158201444" })
        )
        assert.isTrue(Option.isNone(check({ "hub.mode": "subscribe", "hub.verify_token": "guess", "hub.challenge": "1158201444" })))
        assert.isTrue(Option.isNone(check({ "hub.mode": "subscribe", "hub.challenge": "1158201444" })))
        assert.isTrue(Option.isNone(check({ "hub.mode": "unsubscribe", "hub.verify_token": verifyToken, "hub.challenge": "1" })))
        assert.isTrue(Option.isNone(check({ "hub.mode": "subscribe", "hub.verify_token": verifyToken })))
        // The token the adapter would tell the operator is the one the README's command prints.
        assert.strictEqual(
          InstagramAdapter.webhookVerifyToken(InstagramConfig.realConfig("client-id", Redacted.make(secret))),
          verifyToken
        )
      }))

    it.effect("a signed comment or message names the account Herald connected, once", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx, "ig_webhook_owner")
        const comments = bytes(comment(account.networkAccountId))
        assert.deepStrictEqual(
          yield* webhookOf(ctx).receive({ headers: { "x-hub-signature-256": sign(comments) }, body: comments }),
          [account.networkAccountId]
        )
        const messages = bytes(message(account.networkAccountId))
        assert.deepStrictEqual(
          yield* webhookOf(ctx).receive({ headers: { "x-hub-signature-256": sign(messages) }, body: messages }),
          [account.networkAccountId]
        )
        // Two entries for one account (a batch) and one for another: each account once. Hex in capitals is
        // the same signature.
        const batch = bytes({
          object: "instagram",
          entry: [...comment("17841400000000001").entry, ...message("17841400000000001").entry, ...comment("17841400000000002").entry]
        })
        assert.deepStrictEqual(
          yield* webhookOf(ctx).receive({ headers: { "x-hub-signature-256": `sha256=${sign(batch).slice(7).toUpperCase()}` }, body: batch }),
          ["17841400000000001", "17841400000000002"]
        )
      }))

    it.effect("a missing, wrong or foreign signature, or a body changed by one byte, is rejected", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const body = bytes(comment("17841400000000001"))
        assertRejected(yield* receive(ctx, body, {}))
        assertRejected(yield* receive(ctx, body, { "x-hub-signature-256": "" }))
        assertRejected(yield* receive(ctx, body, { "x-hub-signature-256": sign(body, "another-secret") }))
        assertRejected(yield* receive(ctx, body, { "x-hub-signature-256": sign(body).slice(0, -2) }))
        // Meta's old SHA-1 header alone is not enough.
        assertRejected(yield* receive(ctx, body, { "x-hub-signature": `sha1=${createHmac("sha1", secret).update(body).digest("hex")}` }))
        const changed = Uint8Array.from(body)
        changed[changed.length - 3] = changed[changed.length - 3]! ^ 1
        assertRejected(yield* receive(ctx, changed, { "x-hub-signature-256": sign(body) }))
        // Signed but not a notification.
        const junk = new TextEncoder().encode("not json")
        assertRejected(yield* receive(ctx, junk, { "x-hub-signature-256": sign(junk) }))
      }))

    it.effect("fields that are not inbox news, and other objects, name no account", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const none = [
          comment("17841400000000001", "story_insights"),
          comment("17841400000000001", "mentions"),
          comment("17841400000000001", "live_comments"),
          { ...comment("17841400000000001"), object: "page" },
          // A message being read is no new message.
          {
            object: "instagram",
            entry: [{ id: "17841400000000001", time: 1, messaging: [{ sender: { id: "9876" }, recipient: { id: "17841400000000001" }, timestamp: 1, read: { mid: "aWdfZG1" } }] }]
          }
        ]
        for (const payload of none) {
          const body = bytes(payload)
          assert.deepStrictEqual(yield* webhookOf(ctx).receive({ headers: { "x-hub-signature-256": sign(body) }, body }), [])
        }
        // Business Login's examples put the field on the entry itself.
        const flat = bytes({ object: "instagram", entry: [{ id: "17841400000000003", time: 1, field: "comments", value: { id: "1" } }] })
        assert.deepStrictEqual(
          yield* webhookOf(ctx).receive({ headers: { "x-hub-signature-256": sign(flat) }, body: flat }),
          ["17841400000000003"]
        )
      }))
  }
)
