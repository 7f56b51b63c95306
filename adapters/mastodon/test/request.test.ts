import { assert, describe, it } from "@effect/vitest"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { NetworkClient } from "@herald/adapter-kit"
import * as Errors from "../src/internal/errors.ts"
import * as Request from "../src/internal/request.ts"
import { MastodonLimits, MastodonOptions } from "../src/index.ts"
import { Schema } from "effect"
import { Headers } from "effect/http"

describe("Mastodon statuses", () => {
  it("sends the options as Mastodon's fields, sensitive only with media and always under a content warning", () => {
    const settings = Request.settingsOf(AdapterSuite.post({ settings: { visibility: "private", spoilerText: "CW", sensitive: false, language: "fr" } }))
    assert.deepStrictEqual(Request.statusBody({ text: "Salut", settings, mediaIds: ["7"] }), {
      status: "Salut",
      visibility: "private",
      spoiler_text: "CW",
      language: "fr",
      media_ids: ["7"],
      sensitive: true
    })
    assert.deepStrictEqual(Request.statusBody({ text: "Hi", settings: Request.settingsOf(AdapterSuite.post()), inReplyTo: "9" }), {
      status: "Hi",
      visibility: "public",
      in_reply_to_id: "9"
    })
  })

  it("keys each step of a post the same on every try, and anything else differently", () => {
    const post = AdapterSuite.post({ text: "Same", thread: ["two"] })
    const key = Request.idempotencyKey("1@a.example", post, "root")
    assert.strictEqual(Request.idempotencyKey("1@a.example", AdapterSuite.post({ text: "Same", thread: ["two"] }), "root"), key)
    assert.notStrictEqual(Request.idempotencyKey("1@b.example", post, "root"), key)
    assert.notStrictEqual(Request.idempotencyKey("1@a.example", post, "reply 0 5"), key)
    assert.notStrictEqual(Request.idempotencyKey("1@a.example", AdapterSuite.post({ text: "Same", thread: ["two"], settings: { visibility: "direct" } }), "root"), key)
    assert.isAtMost(key.length, 64)
    // Herald's post going to the account names the status: another post with the same text is another status.
    const named = Request.idempotencyKey("1@a.example", post, "root", "pst_1/acc_1")
    assert.strictEqual(Request.idempotencyKey("1@a.example", post, "root", "pst_1/acc_1"), named)
    assert.notStrictEqual(Request.idempotencyKey("1@a.example", post, "root", "pst_2/acc_1"), named)
  })

  it("writes a handle for each stage and reads only its own back", () => {
    const replies: Request.Progress = { _tag: "Replies", root: { id: "11", url: "https://m.example/@a/11" }, parent: "12", next: 1 }
    const media: Request.Progress = { _tag: "Media", mediaIds: ["1", "2"] }
    assert.deepStrictEqual(Request.decodeProgress(Request.encodeProgress(replies)), replies)
    assert.deepStrictEqual(Request.decodeProgress(Request.encodeProgress(media)), media)
    assert.isUndefined(Request.decodeProgress("replies 1 2"))
    assert.isUndefined(Request.decodeProgress("media"))
    assert.isUndefined(Request.decodeProgress("other 1"))
  })

  it("orders snowflake ids by number and makes account ids unique per instance", () => {
    assert.isAbove(Request.compareIds("110000000000000001", "99"), 0)
    assert.isBelow(Request.compareIds("109", "110"), 0)
    assert.strictEqual(Request.localId("1234@mastodon.social"), "1234")
    assert.strictEqual(Request.hostOf("https://mastodon.social/@Gargron"), "mastodon.social")
  })
})

describe("Mastodon errors", () => {
  const refused = (status: number, error: string, retryAfterMs?: number): NetworkClient.Refusal => ({
    status,
    body: { error },
    headers: Headers.empty,
    path: "https://mastodon.example/api/v1/statuses",
    retryAfterMs,
    now: 0,
    call: "read"
  })
  const reason = (status: number, error: string) => Errors.refusal(refused(status, error)).reason._tag

  it("maps each answer to what Herald does next", () => {
    assert.strictEqual(reason(401, "The access token expired"), "AuthExpired")
    assert.strictEqual(reason(401, "The access token was revoked"), "NeedsReconnect")
    assert.strictEqual(reason(401, "The access token is invalid"), "NeedsReconnect")
    assert.strictEqual(reason(401, "This method requires an authenticated user"), "NeedsReconnect")
    assert.strictEqual(reason(422, "Validation failed: Text character limit of 500 exceeded"), "Rejected")
    assert.strictEqual(reason(404, "Record not found"), "Rejected")
    assert.strictEqual(reason(503, "Service Unavailable"), "Transient")
    // The kit reads `X-RateLimit-Reset` into the wait; without one, Mastodon's 5-minute window.
    const limited = Errors.refusal(refused(429, "Too many requests", 120_000))
    assert.deepStrictEqual([limited.reason._tag, limited.retryAfterMs], ["RateLimited", 120_000])
    assert.strictEqual(Errors.refusal(refused(429, "Too many requests")).retryAfterMs, 300_000)
    assert.strictEqual(
      NetworkClient.resetWaitMs(Errors.resetHeader, "2026-11-24T10:05:00.000Z", Date.parse("2026-11-24T10:00:00.000Z")),
      300_000
    )
  })

  it("takes a 401 for an expired token only on Doorkeeper's own words, matched whole", () => {
    // Mastodon gives no code for a refused token, only Doorkeeper's text: other words that mention expiry
    // are some other refusal, which a wait and a retry would not mend.
    assert.strictEqual(reason(401, "the access token expired"), "NeedsReconnect")
    assert.strictEqual(reason(401, "The access token expired; it was revoked"), "NeedsReconnect")
    assert.strictEqual(reason(403, "The access token expired"), "Rejected")
  })
})

describe("Mastodon options and limits", () => {
  const decode = Schema.decodeUnknownOption(Schema.Struct(MastodonOptions.options.fields))

  it("takes the four visibilities and ISO 639-1 languages, and nothing else", () => {
    assert.strictEqual(decode({ visibility: "unlisted", language: "de", spoilerText: null, sensitive: true, thread: [] })._tag, "Some")
    assert.strictEqual(decode({ ...MastodonOptions.options.defaults, visibility: "everyone" })._tag, "None")
    assert.strictEqual(decode({ ...MastodonOptions.options.defaults, language: "German" })._tag, "None")
  })

  it("holds a stock instance to 500 characters and 4 media, one video alone", () => {
    const post = MastodonLimits.limits.forms.post
    assert.deepStrictEqual([post.text.max, post.media.maxItems, post.media.maxVideos, post.media.mixing], [500, 4, 1, false])
  })
})
