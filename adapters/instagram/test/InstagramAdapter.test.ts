import { type Adapter, PostVersion } from "@herald/adapter-kit"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { assert } from "@effect/vitest"
import { Effect, Option } from "effect"
import * as InstagramAdapter from "../src/InstagramAdapter.ts"
import * as InstagramSimulator from "../src/InstagramSimulator.ts"

AdapterSuite.suite("instagram", {
  makeAdapter: InstagramAdapter.make,
  makeSimulator: InstagramSimulator.simulator,
  // Every Instagram post needs media: the plain form is one photo with a caption.
  textPost: (context) => AdapterSuite.post({ media: [AdapterSuite.media.photo(context)] }),
  optionSamples: [{
    values: { instagramFormat: "story" },
    expect: (stored) => assert.deepInclude(stored.details, { media_type: "STORY", media_product_type: "STORY" })
  }],
  extra: (it, context) => {
    it.effect("publishes a story without sending its text", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ format: "story", text: "not shown", media: [AdapterSuite.media.video(ctx, 1, 10_000)] })
        })
        const stored = ctx.simulator.state.posts.get(published.id)
        assert.isDefined(stored)
        assert.strictEqual(stored!.text, "")
        assert.strictEqual(stored!.details["media_product_type"], "STORY")
        assert.include(published.url, `/stories/${account.username}/`)
      }))

    it.effect("publishes a carousel of a photo and a video after processing", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const input = {
          account,
          post: AdapterSuite.post({
            text: `carousel ${Date.now()}`,
            media: [AdapterSuite.media.photo(ctx, 1), AdapterSuite.media.video(ctx, 2)]
          })
        }
        const first = yield* ctx.adapter.publish(input)
        assert.strictEqual(first._tag, "Processing", "containers are processed before they are published")
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, input)
        const stored = ctx.simulator.state.posts.get(published.id)
        assert.isDefined(stored)
        assert.deepStrictEqual(stored!.media, input.post.media.map((item) => item.url))
        assert.strictEqual(stored!.details["media_type"], "CAROUSEL_ALBUM")
        assert.match(published.url, /\/p\/[\w-]+\/$/)
      }))

    it.effect("sends feed photos' alt text as alt_text, and none on a story, which takes none", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const described = new PostVersion.MediaItem({ ...AdapterSuite.media.photo(ctx, 1), alt: "Two cups of coffee" })
        const carousel = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: `alt ${Date.now()}`, media: [described, AdapterSuite.media.photo(ctx, 2)] })
        })
        assert.deepStrictEqual(ctx.simulator.state.posts.get(carousel.id)?.details["altTexts"], ["Two cups of coffee", null])
        const single = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: `one ${Date.now()}`, media: [described] })
        })
        assert.deepStrictEqual(ctx.simulator.state.posts.get(single.id)?.details["altTexts"], ["Two cups of coffee"])
        // The simulator refuses alt_text on anything but an image, as Instagram does: the story goes out without.
        const story = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ format: "story", media: [described] })
        })
        assert.deepStrictEqual(ctx.simulator.state.posts.get(story.id)?.details["altTexts"], [null])
      }))

    it.effect("publishes a single video as a reel", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: `reel ${Date.now()}`, media: [AdapterSuite.media.video(ctx, 1)] })
        })
        assert.strictEqual(ctx.simulator.state.posts.get(published.id)?.details["media_product_type"], "REELS")
        assert.include(published.url, "/reel/")
      }))

    it.effect("posts the first comment under the published media", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({
            text: `with a comment ${Date.now()}`,
            media: [AdapterSuite.media.photo(ctx)],
            firstComment: "#herald #sandbox"
          })
        })
        const comments = [...ctx.simulator.state.comments.values()].filter((entry) => entry.postId === published.id)
        assert.deepStrictEqual(comments.map((comment) => [comment.text, comment.author.id]), [["#herald #sandbox", account.networkAccountId]])
      }))

    it.effect("says why #sandbox-fail was refused", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const error = yield* Effect.flip(AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: `#sandbox-fail ${Date.now()}`, media: [AdapterSuite.media.photo(ctx)] })
        }))
        assert.strictEqual(error.reason._tag, "Rejected")
        assert.include(error.message, "instagram: Instagram blocked this action")
      }))

    it.effect("will not guess whether a story went out", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const error = yield* Effect.flip(ctx.adapter.reconcile!({
          account,
          post: AdapterSuite.post({ format: "story", media: [AdapterSuite.media.photo(ctx)] })
        }))
        assert.strictEqual(error.reason._tag, "OutcomeUnknown")
        const none = yield* ctx.adapter.reconcile!({
          account,
          post: AdapterSuite.post({ text: `never ${Date.now()}`, media: [AdapterSuite.media.photo(ctx)] })
        })
        assert.isTrue(Option.isNone(none))
      }))

    // `media_publish` is called in the `Container` step only, so its lost answer comes with the container that
    // reconcile asks first: published or not is Instagram's word, not a guess by caption.
    it.effect("a lost media_publish answer is found by reconcile through its container, not mistaken for an older post", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const post = AdapterSuite.post({ text: `same caption ${Date.now()}`, media: [AdapterSuite.media.photo(ctx)] })
        yield* AdapterSuite.checkFoundThroughHandle(ctx, account, post, /media_publish$/)
      }))

    it.effect("a story's container not yet published is absent to reconcile; published, it cannot be told apart", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const post = AdapterSuite.post({ format: "story", media: [AdapterSuite.media.photo(ctx)] })
        const first = yield* ctx.adapter.publish({ account, post })
        const handle = (first as { readonly handle: string }).handle
        assert.isTrue(Option.isNone(yield* ctx.adapter.reconcile!({ account, post, handle })))
        let step: Adapter.PublishStep = first
        while (step._tag === "Processing") step = yield* ctx.adapter.poll!({ account, post }, step.handle)
        const error = yield* Effect.flip(ctx.adapter.reconcile!({ account, post, handle }))
        assert.strictEqual(error.reason._tag, "OutcomeUnknown")
        assert.isFalse(ctx.adapter.makesPost?.("children:1,2") ?? true, "a carousel's children step publishes nothing")
        assert.isFalse(ctx.adapter.makesPost?.(`comment:${step.published.id}`) ?? true)
      }))

    it.effect("validates aspect ratios, counts and story rules before anything is sent", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const tall = AdapterSuite.media.photo(ctx, 1, { width: 1080, height: 1920 })
        const [ratio] = ctx.adapter.validate(AdapterSuite.post({ text: "tall", media: [tall] }))
        assert.strictEqual(ratio?.field, "media")
        assert.include(ratio?.message, "instagram: photo 1 is 9:16")
        assert.deepStrictEqual(
          ctx.adapter.validate(AdapterSuite.post({ text: "text only" })).map((violation) => violation.field),
          ["media"]
        )
        const eleven = Array.from({ length: 11 }, (_, index) => AdapterSuite.media.photo(ctx, index + 1))
        assert.isNotEmpty(ctx.adapter.validate(AdapterSuite.post({ media: eleven })))
        const longStory = AdapterSuite.post({ format: "story", media: [AdapterSuite.media.video(ctx, 1, 61_000)] })
        assert.include(ctx.adapter.validate(longStory)[0]?.message, "61.0 s")
        const storyComment = AdapterSuite.post({ format: "story", media: [tall], firstComment: "hi" })
        assert.deepStrictEqual(ctx.adapter.validate(storyComment).map((violation) => violation.field), ["firstComment"])
        assert.deepStrictEqual(ctx.adapter.validate(AdapterSuite.post({ format: "story", text: "x".repeat(3000), media: [tall] })), [])
      }))
  }
})
