import { assert } from "@effect/vitest"
import { Effect, Option } from "effect"
import { PostVersion } from "@herald/adapter-kit"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { YouTubeAdapter, YouTubeSimulator } from "../src/index.ts"
import * as Videos from "./videos.ts"

const video = (context: AdapterSuite.Context) => AdapterSuite.media.video(context)
const twentyMinutes = 20 * 60 * 1000

AdapterSuite.suite("youtube", {
  makeAdapter: YouTubeAdapter.make,
  makeSimulator: YouTubeSimulator.simulator,
  // The network refuses with a code only: the sandbox cannot put the trigger in its words.
  refusalInWords: false,
  // A YouTube post is a titled video; the text is its description.
  textPost: (context) => AdapterSuite.post({ media: [video(context)], title: "Conformance upload" }),
  optionSamples: [{
    values: { youtubeTitle: "A title of its own", youtubeThumbnail: "med_photo1" },
    expect: (stored) => {
      assert.strictEqual(stored.details["title"], "A title of its own")
      assert.isNotNull(stored.details["thumbnail"] ?? null, "the thumbnail was not set")
    }
  }],
  extra: (it, harness) => {
    it.effect("requires a title, under 101 characters and without angle brackets", () =>
      Effect.gen(function*() {
        const { adapter } = yield* harness
        const untitled = adapter.validate(AdapterSuite.post({ text: "d", media: [video(yield* harness)] }))
        assert.deepStrictEqual(untitled.map((violation) => violation.message), ["youtube: a title is required"])
        const bad = adapter.validate(
          AdapterSuite.post({ text: "d", media: [video(yield* harness)], title: `<${"a".repeat(100)}>` })
        )
        assert.deepStrictEqual(bad.map((violation) => violation.field), ["title", "title"])
      }))

    it.effect("counts the description in UTF-8 bytes and takes no photos", () =>
      Effect.gen(function*() {
        const context = yield* harness
        // 1,700 three-byte characters are 5,100 bytes.
        const violations = context.adapter.validate(
          AdapterSuite.post({ text: "€".repeat(1700), media: [AdapterSuite.media.photo(context)], title: "t" })
        )
        assert.deepStrictEqual(violations.map((violation) => violation.field).sort(), ["media", "text"])
      }))

    it.effect("uploads, sets the thumbnail, waits for processing, and links the video", () =>
      Effect.gen(function*() {
        const context = yield* harness
        const { account } = yield* AdapterSuite.connect(context, "thumbnail_channel")
        const input = {
          account,
          post: AdapterSuite.post({
            text: `with a thumbnail ${Date.now()}`,
            media: [video(context)],
            title: "Thumbnail test",
            thumbnail: AdapterSuite.media.photo(context, 7)
          })
        }
        const first = yield* context.adapter.publish(input)
        assert.strictEqual(first._tag, "Processing")
        const stored = context.simulator.state.posts.get(first._tag === "Processing" ? first.handle : "")!
        assert.deepStrictEqual(stored.details, {
          title: "Thumbnail test",
          privacy: "public",
          thumbnail: { contentType: "image/jpeg", bytes: AdapterSuite.media.photo(context, 7).bytes }
        })
        // YouTube is still processing the upload; it can be watched after the next look.
        const processing = yield* context.adapter.poll!(input, stored.id)
        assert.strictEqual(processing._tag, "Processing")
        const done = yield* context.adapter.poll!(input, stored.id)
        assert.deepStrictEqual(done, {
          _tag: "Published",
          published: { id: stored.id, url: `${context.baseUrl}/sandbox/youtube/watch?v=${stored.id}` }
        })
      }))

    it.effect("fails a video YouTube rejects after processing, with its reason", () =>
      Effect.gen(function*() {
        const context = yield* harness
        const { account } = yield* AdapterSuite.connect(context)
        const input = {
          account,
          post: AdapterSuite.post({ text: `#sandbox-fail ${Date.now()}`, media: [video(context)], title: "Refused" })
        }
        const first = yield* context.adapter.publish(input)
        assert.strictEqual(first._tag, "Processing")
        const error = yield* Effect.flip(AdapterSuite.publishToEnd(context.adapter, input))
        assert.strictEqual(error.reason._tag, "Rejected")
        assert.include(error.reason.message, "inappropriate")
      }))

    it.effect("refuses a 20-minute video for an unverified channel before sending any of it", () =>
      Effect.scoped(Effect.gen(function*() {
        const context = yield* harness
        const { account } = yield* AdapterSuite.connect(context, "unverified_channel")
        const bytes = Videos.withDuration(twentyMinutes)
        const url = yield* Videos.serve(bytes)
        const from = context.cutter.log.length
        const error = yield* Effect.flip(context.adapter.publish({
          account,
          post: AdapterSuite.post({ text: `long ${Date.now()}`, media: [Videos.item(url, bytes.length, twentyMinutes)], title: "Long" })
        }))
        assert.strictEqual(error.reason._tag, "Rejected")
        assert.strictEqual(
          error.message,
          `youtube: video 1 is 20 min long; this channel can upload videos of at most 15 min until it is verified (${context.baseUrl}/sandbox/youtube/verify)`
        )
        assert.deepStrictEqual(context.cutter.log.slice(from), ["GET /youtube/v3/channels"])
        assert.deepStrictEqual(Videos.uploadsSince(context, from), [])
      })))

    it.effect("publishes the same video to a channel allowed long uploads", () =>
      Effect.scoped(Effect.gen(function*() {
        const context = yield* harness
        const { account } = yield* AdapterSuite.connect(context, "verified_channel")
        const changed = yield* Videos.setLongUploads(context, { username: "verified_channel", longUploadsStatus: "allowed" })
        assert.strictEqual(changed.status, 200)
        const bytes = Videos.withDuration(twentyMinutes)
        const url = yield* Videos.serve(bytes)
        const published = yield* AdapterSuite.publishToEnd(context.adapter, {
          account,
          post: AdapterSuite.post({ text: `long ${Date.now()}`, media: [Videos.item(url, bytes.length, twentyMinutes)], title: "Long" })
        })
        assert.strictEqual(context.simulator.state.posts.get(published.id)?.accountId, account.networkAccountId)
      })))

    it.effect("does not read the channel for a video of 15 minutes or of unknown length", () =>
      Effect.gen(function*() {
        const context = yield* harness
        const { account } = yield* AdapterSuite.connect(context, "unverified_channel")
        for (const durationMs of [15 * 60 * 1000, null]) {
          const from = context.cutter.log.length
          const step = yield* context.adapter.publish({
            account,
            post: AdapterSuite.post({ text: `short ${durationMs} ${Date.now()}`, media: [new PostVersion.MediaItem({ ...video(context), durationMs })], title: "Short" })
          })
          assert.strictEqual(step._tag, "Processing")
          assert.notInclude(context.cutter.log.slice(from), "GET /youtube/v3/channels")
        }
      }))

    it.effect("keeps the refresh token Google does not rotate, and refreshes with it twice", () =>
      Effect.gen(function*() {
        const context = yield* harness
        const { tokens } = yield* AdapterSuite.connect(context)
        const refreshToken = Option.getOrThrow(tokens.refreshToken)
        const once = yield* context.adapter.oauth.refresh!(refreshToken)
        assert.strictEqual(Option.getOrThrow(once.refreshToken), refreshToken)
        const twice = yield* context.adapter.oauth.refresh!(Option.getOrThrow(once.refreshToken))
        assert.isTrue(Option.isSome(twice.expiresAt))
      }))
  }
})
