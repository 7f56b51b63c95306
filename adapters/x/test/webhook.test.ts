import { assert, describe, it } from "@effect/vitest"
import type { Adapter } from "@herald/adapter-kit"
import { Effect, Option, Redacted } from "effect"
import { FetchHttpClient } from "effect/http"
import { createHmac } from "node:crypto"
import { XAdapter } from "../src/index.ts"

// X's webhook called directly, as Herald's `/networks/x/webhook` calls it. Signatures are computed here with
// node:crypto from X's docs (https://docs.x.com/x-api/webhooks/quickstart), not with the adapter's code.

const secret = "sandbox-secret"
const root = "http://localhost:1/sandbox/x"

const webhook = Effect.gen(function*() {
  const adapter = yield* XAdapter.make({
    apiBaseUrl: root,
    authBaseUrl: root,
    webBaseUrl: root,
    clientId: "sandbox-x",
    clientSecret: Redacted.make(secret)
  })
  assert.isDefined(adapter.inbox?.webhook, "the X adapter has no webhook")
  return adapter.inbox!.webhook!
}).pipe(Effect.provide(FetchHttpClient.layer))

const base64Hmac = (message: string | Buffer) => createHmac("sha256", secret).update(message).digest("base64")

const delivery = (event: unknown, sign: (body: Buffer) => string | undefined = (body) => `sha256=${base64Hmac(body)}`) => {
  const body = Buffer.from(JSON.stringify(event))
  const signature = sign(body)
  return { headers: { "content-type": "application/json", "x-twitter-webhooks-signature": signature }, body }
}

const receive = (hook: Adapter.NetworkWebhook, input: ReturnType<typeof delivery>) =>
  hook.receive({ headers: input.headers, body: new Uint8Array(input.body) })

const mention = {
  for_user_id: "2244994945",
  tweet_create_events: [{
    id_str: "1924465506158878979",
    text: "@herald_owner love this",
    in_reply_to_status_id_str: "1924465506158870000",
    in_reply_to_user_id_str: "2244994945",
    user: { id_str: "3001969357", screen_name: "furiouscamper" }
  }]
}

describe("x webhook", () => {
  it.effect("answers the CRC with the base64 HMAC of crc_token", () =>
    Effect.gen(function*() {
      const hook = yield* webhook
      const answer = hook.handshake?.({ crc_token: "9b4507b3-9040-4669-9ca3-6b94edb50553" }) ?? Option.none()
      assert.isTrue(Option.isSome(answer))
      const { status, body } = Option.getOrThrow(answer)
      assert.strictEqual(status, 200)
      assert.deepStrictEqual(JSON.parse(body), {
        response_token: `sha256=${base64Hmac("9b4507b3-9040-4669-9ca3-6b94edb50553")}`
      })
    }))

  it.effect("answers a crc_token of the shape X sends, and the answer verifies", () =>
    Effect.gen(function*() {
      const hook = yield* webhook
      // As X sent it on 2026-01-27 (base64 of a UUID, without padding).
      const token = "M2RkODJkZmMtYjlkYi00NmQ4LTk0MGUtM2JjYzkwM2Q4MjQ0"
      const answer = hook.handshake!({ crc_token: token, nonce: "MTc2OTUxODI5MjkxNA" })
      assert.isTrue(Option.isSome(answer))
      const { response_token } = JSON.parse(Option.getOrThrow(answer).body)
      assert.strictEqual(response_token, `sha256=${base64Hmac(token)}`)
      // Padded base64 and the URL-safe alphabet are X-shaped too.
      for (const other of ["YWJjZA==", "a-b_c+d/e="]) assert.isTrue(Option.isSome(hook.handshake!({ crc_token: other })), other)
    }))

  it.effect("a crc_token that is a delivery body is not signed, so the CRC cannot forge a delivery", () =>
    Effect.gen(function*() {
      const hook = yield* webhook
      // The attack: ask the CRC to sign a delivery body, then send that body with the answer as its signature.
      const answer = hook.handshake!({ crc_token: JSON.stringify(mention) })
      const signature = Option.getOrUndefined(Option.map(answer, ({ body }) => JSON.parse(body).response_token as string))
      assert.isUndefined(signature, "the CRC signed a delivery body")
      const error = yield* Effect.flip(receive(hook, delivery(mention, () => signature)))
      assert.strictEqual(error._tag, "WebhookRejected")
      const refused = [
        "{}", "[]", "\"x\"", "123", "true", "null", // anything that parses as JSON
        "a b", "a:b", "a,b", "a.b", "a%7Bb", // characters X's tokens do not have
        "a".repeat(129) // longer than any token X sends
      ]
      for (const token of refused) assert.isTrue(Option.isNone(hook.handshake!({ crc_token: token })), token)
      assert.isTrue(Option.isSome(hook.handshake!({ crc_token: "a".repeat(128) })))
    }))

  it.effect("refuses a GET that is not X's check", () =>
    Effect.gen(function*() {
      const hook = yield* webhook
      assert.isTrue(Option.isNone(hook.handshake!({})))
      assert.isTrue(Option.isNone(hook.handshake!({ crc_token: "" })))
      // Meta's verification is not X's.
      assert.isTrue(Option.isNone(hook.handshake!({ "hub.mode": "subscribe", "hub.challenge": "abc" })))
    }))

  it.effect("a signed reply or mention names the subscribed user", () =>
    Effect.gen(function*() {
      const hook = yield* webhook
      assert.deepStrictEqual(yield* receive(hook, delivery(mention)), ["2244994945"])
    }))

  it.effect("a signed direct message names the subscribed user", () =>
    Effect.gen(function*() {
      const hook = yield* webhook
      const message = {
        for_user_id: "4337869213",
        direct_message_events: [{
          type: "message_create",
          id: "954491830116155396",
          created_timestamp: "1516403560557",
          message_create: {
            target: { recipient_id: "4337869213" },
            sender_id: "3001969357",
            message_data: { text: "Hello World!" }
          }
        }],
        users: { "3001969357": { id: "3001969357", screen_name: "furiouscamper" } }
      }
      assert.deepStrictEqual(yield* receive(hook, delivery(message)), ["4337869213"])
    }))

  it.effect("X Activity's mentions and DMs name the filtered user", () =>
    Effect.gen(function*() {
      const hook = yield* webhook
      const envelope = (eventType: string, userId: string) => ({
        data: { event_uuid: "2080765813578191303", filter: { user_id: userId }, event_type: eventType, payload: {} }
      })
      assert.deepStrictEqual(yield* receive(hook, delivery(envelope("post.mention.create", "1111111111111111111"))), [
        "1111111111111111111"
      ])
      assert.deepStrictEqual(yield* receive(hook, delivery(envelope("dm.received", "1111111111111111111"))), [
        "1111111111111111111"
      ])
      assert.deepStrictEqual(yield* receive(hook, delivery(envelope("dm.sent", "2222222222222222222"))), [
        "2222222222222222222"
      ])
      for (const other of ["profile.update.bio", "like.create", "follow.follow", "dm.indicate_typing", "dm.read"]) {
        assert.deepStrictEqual(yield* receive(hook, delivery(envelope(other, "1111111111111111111"))), [], other)
      }
    }))

  it.effect("events the inbox does not read name no one", () =>
    Effect.gen(function*() {
      const hook = yield* webhook
      const events: ReadonlyArray<unknown> = [
        { for_user_id: "2244994945", favorite_events: [{ id: "a7ba59eab0bfcba386f7acedac279542" }] },
        { for_user_id: "2244994945", follow_events: [{ type: "follow" }] },
        {
          for_user_id: "4337869213",
          direct_message_indicate_typing_events: [{ sender_id: "3284025577", target: { recipient_id: "3001969357" } }]
        },
        { for_user_id: "930524282358325248", tweet_delete_events: [{ status: { id: "1045405559317569537" } }] },
        // A post that only tags the account is not a comment.
        { for_user_id: "2244994945", tweet_create_events: [{ id_str: "1", text: "hi @herald_owner", in_reply_to_status_id_str: null }] },
        { user_event: { revoke: { source: { user_id: "63046977" } } } }
      ]
      for (const event of events) {
        assert.deepStrictEqual(yield* receive(hook, delivery(event)), [], JSON.stringify(event))
      }
    }))

  it.effect("a wrong or missing signature is rejected", () =>
    Effect.gen(function*() {
      const hook = yield* webhook
      const forged = [
        delivery(mention, () => undefined),
        delivery(mention, () => "sha256=00"),
        delivery(mention, (body) => `sha256=${createHmac("sha256", "another-secret").update(body).digest("base64")}`),
        // Meta's form (hex) of the right HMAC is not X's.
        delivery(mention, (body) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`)
      ]
      for (const input of forged) {
        const error = yield* Effect.flip(receive(hook, input))
        assert.strictEqual(error._tag, "WebhookRejected")
      }
    }))

  it.effect("a body changed by one byte after signing is rejected", () =>
    Effect.gen(function*() {
      const hook = yield* webhook
      const signed = delivery(mention)
      const body = Buffer.from(signed.body)
      body[body.indexOf("2244994945")] = "3".charCodeAt(0)
      const error = yield* Effect.flip(receive(hook, { ...signed, body }))
      assert.strictEqual(error._tag, "WebhookRejected")
    }))

  it.effect("a signed body that is not JSON is rejected", () =>
    Effect.gen(function*() {
      const hook = yield* webhook
      const body = Buffer.from("not json")
      const error = yield* Effect.flip(hook.receive({
        headers: { "x-twitter-webhooks-signature": `sha256=${base64Hmac(body)}` },
        body: new Uint8Array(body)
      }))
      assert.strictEqual(error._tag, "WebhookRejected")
    }))
})
