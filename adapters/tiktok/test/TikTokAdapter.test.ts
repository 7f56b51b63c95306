import { assert } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { TikTokAdapter, TikTokSimulator } from "../src/index.ts"

const video = (context: AdapterSuite.Context) => AdapterSuite.media.video(context)

AdapterSuite.suite("tiktok", {
  makeAdapter: TikTokAdapter.make,
  makeSimulator: TikTokSimulator.simulator,
  // TikTok has no text-only posts: the plain form is a caption on a video.
  textPost: (context) => AdapterSuite.post({ media: [video(context)] }),
  optionSamples: [{
    values: {
      tiktok: {
        privacy: "MUTUAL_FOLLOW_FRIENDS",
        allowComments: false,
        allowDuet: false,
        allowStitch: false,
        yourBrand: true,
        brandedContent: true
      }
    },
    expect: (stored) =>
      assert.deepInclude(stored.details["postInfo"] as object, {
        privacy_level: "MUTUAL_FOLLOW_FRIENDS",
        disable_comment: true,
        disable_duet: true,
        disable_stitch: true,
        brand_organic_toggle: true,
        brand_content_toggle: true
      })
  }],
  extra: (it, harness) => {
    it.effect("sends the TikTok settings as post_info and links the public video", () =>
      Effect.gen(function*() {
        const context = yield* harness
        const { account } = yield* AdapterSuite.connect(context, "settings_user")
        const text = `settings ${Date.now()}`
        const published = yield* AdapterSuite.publishToEnd(context.adapter, {
          account,
          post: AdapterSuite.post({
            text,
            media: [video(context)],
            settings: { privacy: "MUTUAL_FOLLOW_FRIENDS", allowComments: false, allowDuet: false, yourBrand: true }
          })
        })
        const stored = context.simulator.state.posts.get(published.id)
        assert.isDefined(stored)
        assert.strictEqual(stored!.details["privacy"], "MUTUAL_FOLLOW_FRIENDS")
        assert.deepStrictEqual(stored!.details["postInfo"], {
          title: text,
          privacy_level: "MUTUAL_FOLLOW_FRIENDS",
          disable_comment: true,
          disable_duet: true,
          disable_stitch: false,
          brand_content_toggle: false,
          brand_organic_toggle: true
        })
        // The 19-digit int64 id survives JSON decoding digit for digit.
        assert.match(published.id, /^\d{19}$/)
        assert.strictEqual(
          published.url,
          `${context.baseUrl}/sandbox/tiktok/@settings_user/video/${published.id}`
        )
      }))

    it.effect("posts photos with the caption as description and no duet or stitch", () =>
      Effect.gen(function*() {
        const context = yield* harness
        const { account } = yield* AdapterSuite.connect(context, "photo_user")
        const text = `three photos ${Date.now()}`
        const photos = [1, 2, 3].map((index) => AdapterSuite.media.photo(context, index))
        const published = yield* AdapterSuite.publishToEnd(context.adapter, {
          account,
          post: AdapterSuite.post({ text, media: photos })
        })
        const stored = context.simulator.state.posts.get(published.id)!
        assert.deepStrictEqual(stored.media, photos.map((photo) => photo.url))
        assert.strictEqual(stored.text, text)
        assert.strictEqual(stored.details["kind"], "photo")
        assert.notProperty(stored.details["postInfo"], "disable_duet")
        assert.strictEqual(published.url, `${context.baseUrl}/sandbox/tiktok/@photo_user/photo/${published.id}`)
      }))

    it.effect("refuses private branded content, and the simulator refuses it too", () =>
      Effect.gen(function*() {
        const context = yield* harness
        const { account } = yield* AdapterSuite.connect(context)
        const error = yield* Effect.flip(context.adapter.publish({
          account,
          post: AdapterSuite.post({
            text: `partnership ${Date.now()}`,
            media: [video(context)],
            settings: { privacy: "SELF_ONLY", brandedContent: true }
          })
        }))
        assert.strictEqual(error.reason._tag, "Rejected")
        assert.include(error.reason.message, "SELF_ONLY")
        // The network itself, asked directly, refuses it as well.
        const response = yield* Effect.promise(() =>
          fetch(`${context.baseUrl}/sandbox/tiktok/v2/post/publish/video/init/`, {
            method: "POST",
            headers: { authorization: `Bearer ${Redacted.value(account.accessToken)}`, "content-type": "application/json" },
            body: JSON.stringify({
              post_info: { title: "partnership", privacy_level: "SELF_ONLY", brand_content_toggle: true },
              source_info: { source: "PULL_FROM_URL", video_url: video(context).url }
            })
          }).then((answer) => answer.json().then((body) => ({ status: answer.status, body: body as { error: { code: string } } })))
        )
        assert.strictEqual(response.status, 400)
        assert.strictEqual(response.body.error.code, "invalid_param")
        assert.strictEqual(context.simulator.state.postsOf(account.networkAccountId).length, 0)
      }))

    it.effect("counts the caption in UTF-16 code units, as TikTok does: 2,199 letters and an emoji are refused by both", () =>
      Effect.gen(function*() {
        const context = yield* harness
        const { account } = yield* AdapterSuite.connect(context)
        const over = AdapterSuite.post({ text: `${"a".repeat(2199)}😀`, media: [video(context)], settings: { privacy: "PUBLIC_TO_EVERYONE" } })
        assert.deepStrictEqual(context.adapter.validate(over).map((violation) => violation.message), [
          "tiktok: text is 2201 characters; the limit is 2200"
        ])
        const error = yield* Effect.flip(context.adapter.publish({ account, post: over }))
        assert.strictEqual(error.reason._tag, "Rejected")
        assert.include(error.reason.message, "2200 UTF-16 runes")
        const fits = AdapterSuite.post({ text: `${Date.now()}😀`.padEnd(2200, "a"), media: [video(context)], settings: { privacy: "PUBLIC_TO_EVERYONE" } })
        assert.deepStrictEqual(context.adapter.validate(fits), [])
        yield* AdapterSuite.publishToEnd(context.adapter, { account, post: fits })
      }))

    it.effect("links a SELF_ONLY post to the profile: TikTok gives it no public id", () =>
      Effect.gen(function*() {
        const context = yield* harness
        const { account } = yield* AdapterSuite.connect(context, "private_user")
        const published = yield* AdapterSuite.publishToEnd(context.adapter, {
          account,
          post: AdapterSuite.post({ text: `private ${Date.now()}`, media: [video(context)], settings: { privacy: "SELF_ONLY" } })
        })
        assert.strictEqual(published.url, `${context.baseUrl}/sandbox/tiktok/@private_user`)
      }))

    it.effect("is rate limited after six posts in a minute, with a wait of a minute", () =>
      Effect.gen(function*() {
        const context = yield* harness
        const { account } = yield* AdapterSuite.connect(context)
        const input = { account, post: AdapterSuite.post({ text: `burst ${Date.now()}`, media: [video(context)] }) }
        for (let count = 0; count < 6; count++) yield* context.adapter.publish(input)
        const error = yield* Effect.flip(context.adapter.publish(input))
        assert.strictEqual(error.reason._tag, "RateLimited")
        assert.strictEqual(error.retryAfterMs, 60_000)
      }))
  }
})
