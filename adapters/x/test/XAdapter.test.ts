import { assert } from "@effect/vitest"
import { PostVersion } from "@herald/adapter-kit"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { Effect } from "effect"
import { XAdapter, XSimulator } from "../src/index.ts"

AdapterSuite.suite("x", {
  makeAdapter: XAdapter.make,
  makeSimulator: XSimulator.simulator,
  optionSamples: [{
    values: { xThread: ["the thread goes on"] },
    expect: (stored, ctx) => {
      const replies = [...ctx.simulator.state.posts.values()].filter((entry) => entry.replyTo === stored.id)
      assert.deepStrictEqual(replies.map((entry) => entry.text), ["the thread goes on"])
    }
  }],
  extra: (it, context) => {
    it.effect("publishes a 3-post thread as a reply chain, each reply pointing at the previous post", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx, "thread_author")
        const stamp = Date.now()
        const texts = [`thread 1/3 ${stamp}`, `thread 2/3 ${stamp}`, `thread 3/3 ${stamp}`]
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: texts[0]!, thread: texts.slice(1) })
        })
        const posts = [...ctx.simulator.state.posts.values()]
        const [first, second, third] = texts.map((text) => posts.find((post) => post.text === text))
        assert.isDefined(first)
        assert.isDefined(second)
        assert.isDefined(third)
        assert.strictEqual(published.id, first!.id)
        assert.strictEqual(published.url, `${ctx.baseUrl}/sandbox/x/thread_author/status/${first!.id}`)
        assert.isUndefined(first!.replyTo)
        assert.strictEqual(second!.replyTo, first!.id)
        assert.strictEqual(third!.replyTo, second!.id)
      }))

    it.effect("posts the first comment as a reply to the last post of the thread", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const stamp = Date.now()
        yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: `root ${stamp}`, thread: [`follow-up ${stamp}`], firstComment: `comment ${stamp}` })
        })
        const posts = [...ctx.simulator.state.posts.values()]
        const followUp = posts.find((post) => post.text === `follow-up ${stamp}`)
        const comment = posts.find((post) => post.text === `comment ${stamp}`)
        assert.strictEqual(comment?.replyTo, followUp?.id)
      }))

    it.effect("continues a thread after a transient failure without posting the first post again", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const stamp = Date.now()
        const input = {
          account,
          post: AdapterSuite.post({ text: `steady ${stamp}`, thread: [`wobbly #sandbox-flaky ${stamp}`] })
        }
        const first = yield* ctx.adapter.publish(input)
        assert.strictEqual(first._tag, "Processing")
        if (first._tag !== "Processing") return
        const failure = yield* Effect.flip(ctx.adapter.poll!(input, first.handle))
        assert.strictEqual(failure.reason._tag, "Transient")
        const again = yield* ctx.adapter.poll!(input, first.handle)
        assert.strictEqual(again._tag, "Published")
        const roots = [...ctx.simulator.state.posts.values()].filter((post) => post.text === `steady ${stamp}`)
        assert.strictEqual(roots.length, 1)
      }))

    it.effect("uploads a video in chunks and waits for X to process it before posting", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const text = `video processing ${Date.now()}`
        const input = { account, post: AdapterSuite.post({ text, media: [AdapterSuite.media.video(ctx)] }) }
        const step = yield* ctx.adapter.publish(input)
        assert.strictEqual(step._tag, "Processing")
        assert.isUndefined([...ctx.simulator.state.posts.values()].find((post) => post.text === text))
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, input)
        const stored = ctx.simulator.state.posts.get(published.id)
        assert.strictEqual(stored?.text, text)
        assert.strictEqual(stored?.media.length, 1)
        assert.isTrue(stored!.media[0]!.endsWith(".mp4"))
      }))

    it.effect("attaches up to 4 photos to one post", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const photos = [1, 2, 3, 4].map((index) => AdapterSuite.media.photo(ctx, index))
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: "", media: photos })
        })
        assert.strictEqual(ctx.simulator.state.posts.get(published.id)?.media.length, 4)
      }))

    it.effect("sends each photo's alt text through the media metadata endpoint, and none for a photo without", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const described = new PostVersion.MediaItem({ ...AdapterSuite.media.photo(ctx, 1), alt: "A cat asleep on a keyboard" })
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: "alt text", media: [described, AdapterSuite.media.photo(ctx, 2)] })
        })
        assert.deepStrictEqual(ctx.simulator.state.posts.get(published.id)?.details["altTexts"], ["A cat asleep on a keyboard", null])
        const tooLong = new PostVersion.MediaItem({ ...described, alt: "x".repeat(1_001) })
        assert.deepStrictEqual(
          ctx.adapter.validate(AdapterSuite.post({ text: "long alt", media: [tooLong] })).map((violation) => [violation.item, violation.message]),
          [[0, "x: the alt text of photo 1 is 1001 characters; the limit is 1000"]]
        )
      }))

    it.effect("is rejected when the same text is posted twice, as X refuses duplicates", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const input = { account, post: AdapterSuite.post({ text: `once only ${Date.now()}` }) }
        yield* AdapterSuite.publishToEnd(ctx.adapter, input)
        const error = yield* Effect.flip(AdapterSuite.publishToEnd(ctx.adapter, input))
        assert.strictEqual(error.reason._tag, "Rejected")
        assert.include(error.reason.message, "duplicate content")
      }))

    it.effect("validates with X's weighted count and the thread limits from its data", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const long = AdapterSuite.post({ text: "界".repeat(141) })
        assert.deepStrictEqual(ctx.adapter.validate(long).map((violation) => violation.message), [
          "x: text is 282 characters; the limit is 280"
        ])
        const threadTooLong = AdapterSuite.post({ text: "first", thread: Array.from({ length: 25 }, () => "more") })
        assert.strictEqual(ctx.adapter.validate(threadTooLong)[0]?.field, "thread")
        const mixed = AdapterSuite.post({ text: "mixed", media: [AdapterSuite.media.photo(ctx), AdapterSuite.media.video(ctx)] })
        assert.isAbove(ctx.adapter.validate(mixed).length, 0)
      }))

    it.effect("refuses a photo whose file is gone from Herald (404) for good: a retry cannot bring it back", () =>
      Effect.flatMap(context, (ctx) => AdapterSuite.checkGoneMediaRefused(ctx, "gone_media")))
  }
})
