import { PostVersion } from "@herald/adapter-kit"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { assert } from "@effect/vitest"
import { Effect, Option } from "effect"
import * as FacebookAdapter from "../src/FacebookAdapter.ts"
import * as FacebookSimulator from "../src/FacebookSimulator.ts"

AdapterSuite.suite("facebook", {
  makeAdapter: FacebookAdapter.make,
  makeSimulator: FacebookSimulator.simulator,
  extra: (it, context) => {
    it.effect("connects the Page, with a Page token that does not expire", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { profile, tokens } = yield* AdapterSuite.connect(ctx, "herald_page")
        assert.strictEqual(profile.displayName, "Sandbox herald_page")
        assert.isTrue(ctx.simulator.state.accounts.has(profile.networkAccountId))
        assert.isTrue(Option.isNone(tokens.expiresAt))
        assert.isTrue(Option.isNone(tokens.refreshToken))
      }))

    it.effect("publishes several photos as one post with attached media", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const photos = [AdapterSuite.media.photo(ctx, 1), AdapterSuite.media.photo(ctx, 2), AdapterSuite.media.photo(ctx, 3)]
        const text = `album ${Date.now()}`
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, { account, post: AdapterSuite.post({ text, media: photos }) })
        const posts = [...ctx.simulator.state.posts.values()].filter((post) => post.text === text)
        assert.strictEqual(posts.length, 1, "one post, not one per photo")
        assert.strictEqual(posts[0]!.id, published.id)
        assert.deepStrictEqual(posts[0]!.media, photos.map((photo) => photo.url))
        assert.match(published.url, new RegExp(`/${account.networkAccountId}/posts/\\d+/$`))
      }))

    it.effect("sends each photo's alt text as alt_text_custom, on one photo and on several", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const described = new PostVersion.MediaItem({ ...AdapterSuite.media.photo(ctx, 1), alt: "Two cups of coffee" })
        const album = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: `alt ${Date.now()}`, media: [described, AdapterSuite.media.photo(ctx, 2)] })
        })
        assert.deepStrictEqual(ctx.simulator.state.posts.get(album.id)?.details["altTexts"], ["Two cups of coffee", null])
        const single = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: `one ${Date.now()}`, media: [described] })
        })
        assert.deepStrictEqual(ctx.simulator.state.posts.get(single.id)?.details["altTexts"], ["Two cups of coffee"])
      }))

    it.effect("publishes a video once Facebook has processed it, with a full link", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const input = { account, post: AdapterSuite.post({ text: `clip ${Date.now()}`, media: [AdapterSuite.media.video(ctx)] }) }
        const first = yield* ctx.adapter.publish(input)
        assert.strictEqual(first._tag, "Processing")
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, input)
        assert.strictEqual(published.url, `${ctx.baseUrl}/sandbox/facebook/${account.networkAccountId}/videos/${published.id}/`)
      }))

    it.effect("posts the first comment under the post", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: `with a comment ${Date.now()}`, firstComment: "Link in the comments: https://herald.example" })
        })
        const comments = [...ctx.simulator.state.comments.values()].filter((entry) => entry.postId === published.id)
        assert.deepStrictEqual(comments.map((comment) => [comment.text, comment.author.id, comment.replyTo]), [
          ["Link in the comments: https://herald.example", account.networkAccountId, null]
        ])
      }))

    it.effect("says why #sandbox-fail was refused, and will not guess about a post without text", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const error = yield* Effect.flip(AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: `#sandbox-fail ${Date.now()}` })
        }))
        assert.strictEqual(error.reason._tag, "Rejected")
        assert.include(error.message, "facebook: Facebook refused this content")
        const unknown = yield* Effect.flip(ctx.adapter.reconcile!({
          account,
          post: AdapterSuite.post({ media: [AdapterSuite.media.photo(ctx)] })
        }))
        assert.strictEqual(unknown.reason._tag, "OutcomeUnknown")
      }))

    it.effect("validates Facebook's limits before anything is sent", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const fields = (post: ReturnType<typeof AdapterSuite.post>) => ctx.adapter.validate(post).map((violation) => violation.field)
        assert.deepStrictEqual(fields(AdapterSuite.post({ text: "text alone is fine" })), [])
        assert.deepStrictEqual(fields(AdapterSuite.post({})), ["text"])
        assert.include(ctx.adapter.validate(AdapterSuite.post({ text: "x".repeat(63_207) }))[0]?.message, "63207")
        const mixed = [AdapterSuite.media.photo(ctx), AdapterSuite.media.video(ctx)]
        assert.deepStrictEqual(
          ctx.adapter.validate(AdapterSuite.post({ media: mixed })).map((violation) => violation.message),
          ["facebook: photos and videos cannot be mixed in one post"]
        )
        const eleven = Array.from({ length: 11 }, (_, index) => AdapterSuite.media.photo(ctx, index + 1))
        assert.deepStrictEqual(fields(AdapterSuite.post({ media: eleven })), ["media"])
      }))
  }
})
