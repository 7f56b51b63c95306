import { assert } from "@effect/vitest"
import { lexicons } from "@atproto/api"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { Effect, Redacted } from "effect"
import { BlueskyAdapter, BlueskySimulator } from "../src/index.ts"

/** The lexicon's own bound of a blob property, read here as a test reads a specification. */
const maxSizeOf = (def: string, property: string) => {
  const blob = lexicons.getDefOrThrow(def, ["object"]).properties[property]
  assert.strictEqual(blob?.type, "blob")
  return blob?.type === "blob" ? blob.maxSize! : 0
}

interface Answer {
  readonly status: number
  readonly body: Record<string, unknown>
}

AdapterSuite.withHarness({ makeAdapter: BlueskyAdapter.make, makeSimulator: BlueskySimulator.simulator })(
  "bluesky simulator, held to the official lexicons",
  (it) => {
    /** A signed-in sandbox account and the simulator's XRPC methods as a client calls them. */
    const session = (username: string) =>
      Effect.gen(function*() {
        const ctx = yield* AdapterSuite.Harness
        const { account } = yield* AdapterSuite.connect(ctx, username)
        const root = `${ctx.baseUrl}/sandbox/bluesky/xrpc`
        const headers = { authorization: `Bearer ${Redacted.value(account.accessToken)}` }
        const answer = (response: Response) =>
          response.json().then((body) => ({ status: response.status, body: body as Record<string, unknown> }))
        const upload = (bytes: number, mimeType: string) =>
          Effect.promise(() =>
            fetch(`${root}/com.atproto.repo.uploadBlob`, {
              method: "POST",
              headers: { ...headers, "content-type": mimeType },
              body: new Uint8Array(bytes).fill(7)
            }).then(answer)
          ).pipe(Effect.map((uploaded) => uploaded.body["blob"] as Record<string, unknown>))
        const create = (record: Record<string, unknown>) =>
          Effect.promise((): Promise<Answer> =>
            fetch(`${root}/com.atproto.repo.createRecord`, {
              method: "POST",
              headers: { ...headers, "content-type": "application/json" },
              body: JSON.stringify({ repo: account.networkAccountId, collection: "app.bsky.feed.post", record })
            }).then(answer)
          )
        return { upload, create }
      })

    const post = (fields: Record<string, unknown>) => ({
      $type: "app.bsky.feed.post",
      text: "hello",
      createdAt: "2026-12-03T10:00:00.000Z",
      ...fields
    })

    /** Bluesky's answer to a record it refuses: a 400 `InvalidRequest` naming what breaks. */
    const refused = (answer: Answer, problem: string) => {
      assert.strictEqual(answer.status, 400, JSON.stringify(answer.body))
      assert.strictEqual(answer.body["error"], "InvalidRequest")
      assert.strictEqual(answer.body["message"], `Invalid app.bsky.feed.post record: ${problem}`)
    }

    it.effect("refuses a record that breaks app.bsky.feed.post's lexicon, in the lexicon's words", () =>
      Effect.gen(function*() {
        const { create } = yield* session("lexicon_breaker")
        refused(
          yield* create(post({ createdAt: "yesterday" })),
          "Record/createdAt must be an valid atproto datetime (both RFC-3339 and ISO-8601)"
        )
        refused(yield* create(post({ text: "a".repeat(301) })), "Record/text must not be longer than 300 graphemes")
        refused(
          yield* create(post({
            text: "@bob.test",
            facets: [{ index: { byteStart: 0, byteEnd: 9 }, features: [{ $type: "app.bsky.richtext.facet#mention", did: "bob.test" }] }]
          })),
          "Record/facets/0/features/0/did must be a valid did"
        )
        refused(
          yield* create(post({ reply: { root: { uri: "at://did:plc:abc/app.bsky.feed.post/1", cid: "nope" }, parent: { uri: "at://did:plc:abc/app.bsky.feed.post/1", cid: "nope" } } })),
          "Record/reply/root/cid must be a cid string"
        )
        const valid = yield* create(post({}))
        assert.strictEqual(valid.status, 200, JSON.stringify(valid.body))
        assert.strictEqual(valid.body["validationStatus"], "valid")
      }))

    it.effect("takes an image of the lexicon's maxSize (2,000,000 bytes) and refuses one byte more", () =>
      Effect.gen(function*() {
        const maxSize = maxSizeOf("app.bsky.embed.images#image", "image")
        assert.strictEqual(maxSize, 2_000_000)
        const { upload, create } = yield* session("big_images")
        const images = (blob: Record<string, unknown>) => post({ embed: { $type: "app.bsky.embed.images", images: [{ image: blob, alt: "" }] } })
        const fits = yield* create(images(yield* upload(maxSize, "image/jpeg")))
        assert.strictEqual(fits.status, 200, JSON.stringify(fits.body))
        refused(
          yield* create(images(yield* upload(maxSize + 1, "image/jpeg"))),
          `blob too big (maximum ${maxSize}, got ${maxSize + 1}) at $.record.embed.images[0].image`
        )
        // The lexicon's `accept` is image/*: a video is no image.
        refused(
          yield* create(images(yield* upload(10, "video/mp4"))),
          "Expected \"image/*\" (got \"video/mp4\") at $.record.embed.images[0].image.mimeType"
        )
      }))

    it.effect("takes an MP4 video and refuses another kind, as app.bsky.embed.video accepts video/mp4 only", () =>
      Effect.gen(function*() {
        assert.isAtLeast(maxSizeOf("app.bsky.embed.video", "video"), 300_000_000)
        const { upload, create } = yield* session("video_kinds")
        const video = (blob: Record<string, unknown>) => post({ embed: { $type: "app.bsky.embed.video", video: blob } })
        const mp4 = yield* create(video(yield* upload(100, "video/mp4")))
        assert.strictEqual(mp4.status, 200, JSON.stringify(mp4.body))
        refused(
          yield* create(video(yield* upload(100, "video/quicktime"))),
          "Expected \"video/mp4\" (got \"video/quicktime\") at $.record.embed.video.mimeType"
        )
      }))
  }
)
