import { assert } from "@effect/vitest"
import { Effect, Option } from "effect"
import { PostVersion } from "@herald/adapter-kit"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { LinkedInAdapter, LinkedInSimulator } from "../src/index.ts"

// The kit's conformance suite against the simulator over real HTTP, plus LinkedIn's own quirks. Video parts
// are made small so the fixture video goes up in several parts, as large videos do against LinkedIn.
AdapterSuite.suite("linkedin", {
  makeAdapter: LinkedInAdapter.make,
  makeSimulator: (options) => LinkedInSimulator.make({ ...options, videoPartBytes: 1_000 }),
  extra: (it, context) => {
    const root = (ctx: AdapterSuite.Context) => `${ctx.baseUrl}/sandbox/linkedin`

    it.effect("reads the member's name and picture from OpenID userinfo", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { profile, tokens } = yield* AdapterSuite.connect(ctx, "ada_lovelace")
        assert.strictEqual(profile.displayName, "ada_lovelace")
        assert.strictEqual(profile.avatarUrl, `${root(ctx)}/media/avatars/${profile.networkAccountId}.jpg`)
        assert.deepStrictEqual(tokens.scopes, ["openid", "profile", "w_member_social"])
        assert.isTrue(Option.isSome(tokens.expiresAt))
      }))

    it.effect("links to the post's page on the website", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: `permalink ${Date.now()}` })
        })
        assert.match(published.id, /^urn:li:share:\d+$/)
        assert.strictEqual(published.url, `${root(ctx)}/feed/update/${published.id}/`)
      }))

    it.effect("posts several photos as one multiImage post", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const photos = [1, 2, 3].map((index) => AdapterSuite.media.photo(ctx, index))
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: `three photos ${Date.now()}`, media: photos })
        })
        const stored = ctx.simulator.state.posts.get(published.id)
        assert.isDefined(stored)
        assert.strictEqual(stored!.media.length, 3)
        assert.isTrue(stored!.media.every((urn) => urn.startsWith("urn:li:image:")))
      }))

    it.effect("sends each image's alt text as altText, and none for an image without", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const described = new PostVersion.MediaItem({ ...AdapterSuite.media.photo(ctx, 1), alt: "Team photo on the stairs" })
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: `alt text ${Date.now()}`, media: [described, AdapterSuite.media.photo(ctx, 2)] })
        })
        const content = ctx.simulator.state.posts.get(published.id)?.details["content"] as {
          multiImage: { images: ReadonlyArray<{ id: string; altText?: string }> }
        }
        assert.deepStrictEqual(content.multiImage.images.map((image) => image.altText), ["Team photo on the stairs", undefined])
      }))

    it.effect("posts one photo on its own", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: "", media: [AdapterSuite.media.photo(ctx, 1)] })
        })
        assert.strictEqual(ctx.simulator.state.posts.get(published.id)?.media.length, 1)
      }))

    it.effect("waits for the video to be processed before posting it", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const input = {
          account,
          post: AdapterSuite.post({ text: `video ${Date.now()}`, media: [AdapterSuite.media.video(ctx, 1)] })
        }
        const first = yield* ctx.adapter.publish(input)
        assert.strictEqual(first._tag, "Processing")
        if (first._tag !== "Processing") return
        assert.match(first.handle, /^urn:li:video:/)
        const postsBefore = ctx.simulator.state.posts.size
        const second = yield* ctx.adapter.poll!(input, first.handle)
        assert.strictEqual(second._tag, "Processing", "the video is still processing at the first check")
        assert.strictEqual(ctx.simulator.state.posts.size, postsBefore, "nothing is posted while processing")
        const third = yield* ctx.adapter.poll!(input, first.handle)
        assert.strictEqual(third._tag, "Published")
        if (third._tag !== "Published") return
        assert.deepStrictEqual(ctx.simulator.state.posts.get(third.published.id)?.media, [first.handle])
      }))

    it.effect("adds the first comment under the post", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const firstComment = "Sources (and slides) at example.com/deck_v2 #talks"
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: `with a comment ${Date.now()}`, firstComment })
        })
        const comments = ctx.simulator.state.commentsAfter(account.networkAccountId, 0)
          .filter((entry) => entry.postId === published.id)
        assert.strictEqual(comments.length, 1)
        assert.strictEqual(comments[0]!.text, firstComment)
        assert.strictEqual(comments[0]!.author.id, account.networkAccountId)
        assert.isNull(comments[0]!.replyTo)
      }))

    it.effect("escapes reserved characters so LinkedIn shows the whole text", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const text = `Launch (beta) [v2] {soon} <3 a*b_c~d|e\\f @team C# #launch ${Date.now()}`
        const input = { account, post: AdapterSuite.post({ text }) }
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, input)
        assert.strictEqual(ctx.simulator.state.posts.get(published.id)?.text, text)
        // Reconcile compares with the commentary as LinkedIn stores it, escapes included.
        const found = yield* ctx.adapter.reconcile!(input)
        assert.strictEqual(Option.getOrThrow(found).id, published.id)
      }))

    it.effect("is rejected as a duplicate when the same text goes out twice", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const input = { account, post: AdapterSuite.post({ text: `twice ${Date.now()}` }) }
        const first = yield* AdapterSuite.publishToEnd(ctx.adapter, input)
        const error = yield* Effect.flip(AdapterSuite.publishToEnd(ctx.adapter, input))
        assert.strictEqual(error.reason._tag, "Rejected")
        assert.include(error.message, first.id)
      }))

    it.effect("asks for a reconnect when a refresh token is refused", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account, tokens } = yield* AdapterSuite.connect(ctx)
        ctx.simulator.state.revoke(account.networkAccountId)
        const error = yield* Effect.flip(ctx.adapter.oauth.refresh!(Option.getOrThrow(tokens.refreshToken)))
        assert.strictEqual(error.reason._tag, "NeedsReconnect")
      }))

    it.effect("refuses a photo over LinkedIn's 5 MiB from its Content-Length, before reading it or calling LinkedIn", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx, "large_media")
        const bytes = 5 * 1024 * 1024 + 1
        const error = yield* Effect.flip(ctx.adapter.publish({
          account,
          post: AdapterSuite.post({ text: `large ${Date.now()}`, media: [AdapterSuite.media.photoOfBytes(ctx, bytes)] })
        }))
        assert.strictEqual(error.reason._tag, "Rejected")
        assert.strictEqual(error.reason.message, `the media file /media/photo1-${bytes}b.jpg is ${bytes} bytes; linkedin takes at most ${bytes - 1}`)
        assert.lengthOf(ctx.simulator.state.postsOf(account.networkAccountId), 0)
      }))

    it.effect("refuses a photo whose file is gone from Herald (404) for good: a retry cannot bring it back", () =>
      Effect.flatMap(context, (ctx) => AdapterSuite.checkGoneMediaRefused(ctx, "gone_media")))
  }
})
