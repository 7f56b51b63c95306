import { assert } from "@effect/vitest"
import { PostVersion } from "@herald/adapter-kit"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { Effect, Option } from "effect"
import { ThreadsAdapter, ThreadsSimulator } from "../src/index.ts"

AdapterSuite.suite("threads", {
  makeAdapter: ThreadsAdapter.make,
  makeSimulator: ThreadsSimulator.simulator,
  extra: (it, context) => {
    // Threads takes videos of at most 5 minutes: the simulator reads the length from the file it fetches,
    // whatever the post says, and ends a longer one's container ERROR with INVALID_DURATION (issue 31).
    it.effect("refuses a video over 5 minutes by its file's length, in words, and takes one of 5 minutes", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx, "long_video")
        const video = (durationMs: number) =>
          new PostVersion.MediaItem({ ...AdapterSuite.media.video(ctx, 1, durationMs), durationMs: null })
        const long = yield* Effect.flip(AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: `six minutes ${Date.now()}`, media: [video(360_000)] })
        }))
        assert.strictEqual(long.reason._tag, "Rejected")
        assert.strictEqual(
          long.reason.message,
          "Threads does not take the video's length: a video may be at most 5 minutes (INVALID_DURATION)"
        )
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: `five minutes ${Date.now()}`, media: [video(300_000)] })
        })
        assert.isString(published.id)
        // The sandbox fetches only from its own origin: an address elsewhere is never fetched, its length unknown.
        const elsewhere = new PostVersion.MediaItem({ ...video(360_000), url: "http://127.0.0.2:9/video1-360000ms.mp4" })
        const unfetched = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: `elsewhere ${Date.now()}`, media: [elsewhere] })
        })
        assert.isString(unfetched.id)
      }))

    it.effect("publishes a carousel of 2 photos once both items are ready", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx, "carousel_author")
        const text = `carousel ${Date.now()}`
        const photos = [AdapterSuite.media.photo(ctx, 1), AdapterSuite.media.photo(ctx, 2)]
        const input = { account, post: AdapterSuite.post({ text, media: photos }) }
        const first = yield* ctx.adapter.publish(input)
        assert.strictEqual(first._tag, "Processing")
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, input)
        const stored = ctx.simulator.state.posts.get(published.id)
        assert.strictEqual(stored?.text, text)
        assert.deepStrictEqual(stored?.media, photos.map((photo) => photo.url))
        assert.strictEqual(stored?.details["mediaType"], "CAROUSEL")
        assert.isTrue(published.url.startsWith(`${ctx.baseUrl}/sandbox/threads/@carousel_author/post/`), published.url)
      }))

    it.effect("counts an emoji as its UTF-8 bytes, as Threads does: 497 letters and a face are refused by both", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const over = AdapterSuite.post({ text: `${"a".repeat(497)}😀` })
        assert.deepStrictEqual(ctx.adapter.validate(over).map((violation) => violation.message), [
          "threads: text is 501 characters; the limit is 500"
        ])
        const refused = yield* Effect.flip(AdapterSuite.publishToEnd(ctx.adapter, { account, post: over }))
        assert.match(refused.message, /at most 500 characters/)
        const fits = AdapterSuite.post({ text: `${Date.now()}😀`.padEnd(500, "a").slice(0, 496) })
        assert.deepStrictEqual(ctx.adapter.validate(fits), [])
        yield* AdapterSuite.publishToEnd(ctx.adapter, { account, post: fits })
      }))

    it.effect("sends each photo's and video's alt text as alt_text, carousel items included", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const described = new PostVersion.MediaItem({ ...AdapterSuite.media.photo(ctx, 1), alt: "Two cups of coffee" })
        const clip = new PostVersion.MediaItem({ ...AdapterSuite.media.video(ctx), alt: "Steam rising" })
        const carousel = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: `alt ${Date.now()}`, media: [described, AdapterSuite.media.photo(ctx, 2), clip] })
        })
        assert.deepStrictEqual(ctx.simulator.state.posts.get(carousel.id)?.details["altTexts"], ["Two cups of coffee", null, "Steam rising"])
        const single = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: `one ${Date.now()}`, media: [described] })
        })
        assert.deepStrictEqual(ctx.simulator.state.posts.get(single.id)?.details["altTexts"], ["Two cups of coffee"])
      }))

    it.effect("waits while a video container is IN_PROGRESS, then publishes it", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const input = { account, post: AdapterSuite.post({ text: `clip ${Date.now()}`, media: [AdapterSuite.media.video(ctx)] }) }
        const first = yield* ctx.adapter.publish(input)
        assert.strictEqual(first._tag, "Processing")
        assert.strictEqual(ctx.simulator.state.postsOf(account.networkAccountId).length, 0)
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, input)
        assert.strictEqual(ctx.simulator.state.posts.get(published.id)?.details["mediaType"], "VIDEO")
      }))

    // `threads_publish` of the post is called in the `Post` step only, so its lost answer comes with the
    // container that reconcile asks first: published or not is Threads' word, not a guess by text.
    it.effect("a lost threads_publish answer is found by reconcile through its container, not mistaken for an older post", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        yield* AdapterSuite.checkFoundThroughHandle(ctx, account, AdapterSuite.post({ text: `same text ${Date.now()}` }), /threads_publish$/)
        // A photo alone has no text to look for, and its container still tells.
        const photo = AdapterSuite.post({ media: [AdapterSuite.media.photo(ctx)] })
        const step = yield* ctx.adapter.publish({ account, post: photo })
        const handle = (step as { readonly handle: string }).handle
        assert.isTrue(Option.isNone(yield* ctx.adapter.reconcile!({ account, post: photo, handle })))
      }))

    it.effect("posts the first comment as a reply to the published post", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const stamp = Date.now()
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: `post ${stamp}`, firstComment: `comment ${stamp}` })
        })
        const comment = [...ctx.simulator.state.posts.values()].find((post) => post.text === `comment ${stamp}`)
        assert.strictEqual(comment?.replyTo, published.id)
      }))

    it.effect("a first comment Threads refuses does not fail the post that is out: it ends published with its link", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const stamp = Date.now()
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: `post ${stamp}`, firstComment: `refused #sandbox-fail ${stamp}` })
        })
        const stored = ctx.simulator.state.posts.get(published.id)
        assert.strictEqual(stored?.text, `post ${stamp}`)
        assert.strictEqual(published.url, stored?.url)
        assert.isUndefined([...ctx.simulator.state.posts.values()].find((post) => post.text.startsWith("refused #sandbox-fail")))
      }))

    it.effect("keeps the link limit as data: a 6th link is refused before anything is sent", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        assert.strictEqual(ctx.adapter.limits.forms.post.text.maxLinks, 5)
        const links = (count: number) =>
          Array.from({ length: count }, (_, index) => `https://example${index}.com`).join(" ")
        assert.deepStrictEqual(ctx.adapter.validate(AdapterSuite.post({ text: links(5) })), [])
        const violations = ctx.adapter.validate(AdapterSuite.post({ text: links(6) }))
        assert.deepStrictEqual(violations.map((violation) => violation.message), ["threads: text has 6 links; the limit is 5"])
      }))

    it.effect("is rejected by Threads itself past 5 links, with its error", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const text = Array.from({ length: 6 }, (_, index) => `https://example${index}.com`).join(" ")
        const error = yield* Effect.flip(AdapterSuite.publishToEnd(ctx.adapter, { account, post: AdapterSuite.post({ text }) }))
        assert.strictEqual(error.reason._tag, "Rejected")
        assert.include(error.reason.message, "LINK_LIMIT")
      }))

    it.effect("validates 500 characters and up to 20 mixed items", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        assert.deepStrictEqual(
          ctx.adapter.validate(AdapterSuite.post({ text: "a".repeat(501) })).map((violation) => violation.message),
          ["threads: text is 501 characters; the limit is 500"]
        )
        const mixed = [AdapterSuite.media.photo(ctx, 1), AdapterSuite.media.video(ctx, 1)]
        assert.deepStrictEqual(ctx.adapter.validate(AdapterSuite.post({ text: "mix", media: mixed })), [])
        const many = Array.from({ length: 21 }, (_, index) => AdapterSuite.media.photo(ctx, index))
        assert.strictEqual(ctx.adapter.validate(AdapterSuite.post({ text: "many", media: many }))[0]?.field, "media")
      }))
  }
})
