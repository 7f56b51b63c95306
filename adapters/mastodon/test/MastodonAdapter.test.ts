import { assert } from "@effect/vitest"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { PostVersion } from "@herald/adapter-kit"
import { Effect } from "effect"
import { MastodonAdapter, MastodonOptions, MastodonSimulator } from "../src/index.ts"

/** A photo of the suite's server with alt text (read defensively until every `MediaItem` carries `alt`). */
const withAlt = (item: PostVersion.MediaItem, alt: string) => new PostVersion.MediaItem({ ...item, alt } as ConstructorParameters<typeof PostVersion.MediaItem>[0])

AdapterSuite.suite("mastodon", {
  makeAdapter: MastodonAdapter.make,
  makeSimulator: MastodonSimulator.simulator,
  optionSamples: [{
    values: { visibility: "unlisted", spoilerText: "spoilers", sensitive: true, language: "de", thread: ["the thread goes on"] },
    expect: (stored, ctx) => {
      assert.deepInclude(stored.details, { visibility: "unlisted", spoilerText: "spoilers", sensitive: true, language: "de" })
      const replies = [...ctx.simulator.state.posts.values()].filter((entry) => entry.replyTo === stored.id)
      assert.deepStrictEqual(replies.map((entry) => [entry.text, entry.details["visibility"]]), [["the thread goes on", "unlisted"]])
    }
  }],
  extra: (it, context) => {
    it.effect("links the status at /@<username>/<id>, its page shows it, and the account id names its instance", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx, "link_author")
        assert.match(account.networkAccountId, /^\d+@127\.0\.0\.1:\d+$/)
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, { account, post: AdapterSuite.post({ text: `link ${Date.now()}` }) })
        assert.match(published.id, /^\d+$/)
        assert.strictEqual(published.url, `${ctx.baseUrl}/sandbox/mastodon/@link_author/${published.id}`)
        const page = yield* Effect.promise(() => fetch(published.url).then((response) => response.text()))
        assert.include(page, "link ")
      }))

    it.effect("a status sent again after its answer was lost is the first one (same Idempotency-Key), never a second", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx, "lost_answer")
        const input = { account, post: AdapterSuite.post({ text: `sent twice ${Date.now()}` }) }
        const first = yield* ctx.adapter.publish(input)
        // The engine, not knowing the first answer, sends it again without looking.
        const again = yield* ctx.adapter.publish(input)
        assert.deepStrictEqual(again, first)
        assert.lengthOf(ctx.simulator.state.postsOf(account.networkAccountId), 1)
        // Another post of the same account is its own status.
        const other = yield* ctx.adapter.publish({ account, post: AdapterSuite.post({ text: `${input.post.text} (2)` }) })
        assert.notDeepEqual(other, first)
        assert.lengthOf(ctx.simulator.state.postsOf(account.networkAccountId), 2)
      }))

    it.effect("sends visibility, content warning, sensitive media and language from its options, on every status of a thread", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const stamp = Date.now()
        const parts = MastodonOptions.options.version({
          ...MastodonOptions.options.defaults,
          visibility: "unlisted",
          spoilerText: "Spoilers",
          sensitive: true,
          language: "de",
          thread: [`2/ ${stamp}`, `3/ ${stamp}`]
        }, () => undefined)
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({
            text: `1/ ${stamp}`,
            media: [AdapterSuite.media.photo(ctx, 1)],
            thread: parts.thread ?? [],
            settings: parts.settings ?? {},
            firstComment: `comment ${stamp}`
          })
        })
        const byText = (text: string) => [...ctx.simulator.state.posts.values()].find((post) => post.text === text)!
        const root = byText(`1/ ${stamp}`)
        assert.strictEqual(root.id, published.id)
        assert.deepInclude(root.details, { visibility: "unlisted", spoilerText: "Spoilers", sensitive: true, language: "de" })
        const second = byText(`2/ ${stamp}`)
        assert.strictEqual(second.replyTo, root.id)
        assert.strictEqual(byText(`3/ ${stamp}`).replyTo, second.id)
        assert.strictEqual(byText(`comment ${stamp}`).replyTo, root.id)
        for (const text of [`2/ ${stamp}`, `3/ ${stamp}`, `comment ${stamp}`]) {
          assert.deepInclude(byText(text).details, { visibility: "unlisted", spoilerText: "Spoilers", language: "de" })
        }
      }))

    it.effect("a post without options goes out public, with no content warning", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, { account, post: AdapterSuite.post({ text: `plain ${Date.now()}` }) })
        assert.deepInclude(ctx.simulator.state.posts.get(published.id)!.details, { visibility: "public", spoilerText: "", sensitive: false, language: null })
      }))

    it.effect("holds the content warning and the text to one limit, as Mastodon does: 480 + 30 is refused by both", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const settings = { visibility: "public", spoilerText: "w".repeat(30), sensitive: false, language: null }
        const over = AdapterSuite.post({ text: "a".repeat(480), settings })
        assert.deepStrictEqual(ctx.adapter.validate(over).map((violation) => violation.message), [
          "mastodon: text with its content warning is 510 characters; the limit is 500"
        ])
        const refused = yield* Effect.flip(AdapterSuite.publishToEnd(ctx.adapter, { account, post: over }))
        assert.match(refused.message, /character limit of 500 exceeded/)
        const fits = AdapterSuite.post({ text: `${Date.now()} `.padEnd(470, "a"), settings })
        assert.deepStrictEqual(ctx.adapter.validate(fits), [])
        yield* AdapterSuite.publishToEnd(ctx.adapter, { account, post: fits })
      }))

    it.effect("uploads images with their alt text as description, and waits for a video's processing before the status", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const photos = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({
            text: `photos ${Date.now()}`,
            media: [withAlt(AdapterSuite.media.photo(ctx, 1), "A red kite over a field"), AdapterSuite.media.photo(ctx, 2)]
          })
        })
        assert.deepStrictEqual(ctx.simulator.state.posts.get(photos.id)!.details["descriptions"], ["A red kite over a field", null])

        const input = { account, post: AdapterSuite.post({ text: `video ${Date.now()}`, media: [AdapterSuite.media.video(ctx, 1)] }) }
        const uploaded = yield* ctx.adapter.publish(input)
        assert.strictEqual(uploaded._tag, "Processing")
        assert.lengthOf(ctx.simulator.state.postsOf(account.networkAccountId).filter((post) => post.text === input.post.text), 0)
        const handle = uploaded._tag === "Processing" ? uploaded.handle : ""
        const stillProcessing = yield* ctx.adapter.poll!(input, handle)
        assert.strictEqual(stillProcessing._tag, "Processing")
        const done = yield* ctx.adapter.poll!(input, handle)
        assert.strictEqual(done._tag, "Published")
        assert.lengthOf(ctx.simulator.state.postsOf(account.networkAccountId).filter((post) => post.text === input.post.text), 1)
      }))

    it.effect("a resumed reply step looks among the replies first, for a reply its cut-off try made past the key's hour", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx, "late_resume")
        const stamp = Date.now()
        const input = { account, post: AdapterSuite.post({ text: `root ${stamp}`, thread: [`reply ${stamp}`] }) }
        const first = yield* ctx.adapter.publish(input)
        const handle = first._tag === "Processing" ? first.handle : ""
        const root = ctx.simulator.state.postsOf(account.networkAccountId)[0]!
        // The reply the stopped try made, as the instance keeps it once the Idempotency-Key is forgotten.
        ctx.simulator.state.record({
          id: ctx.simulator.state.id(),
          accountId: account.networkAccountId,
          text: `reply ${stamp}`,
          media: [],
          replyTo: root.id,
          url: `${root.url}-reply`,
          details: { visibility: "public" }
        })
        const done = yield* ctx.adapter.poll!({ ...input, resumed: true }, handle)
        assert.deepStrictEqual(done, { _tag: "Published", published: { id: root.id, url: root.url } })
        assert.lengthOf(ctx.simulator.state.postsOf(account.networkAccountId).filter((post) => post.text === `reply ${stamp}`), 1)
      }))

    it.effect("a reply that fails in a thread is retried alone: the status is never sent again", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx, "flaky_thread")
        const stamp = Date.now()
        const input = { account, post: AdapterSuite.post({ text: `start ${stamp}`, thread: [`wobbly #sandbox-flaky ${stamp}`] }) }
        const first = yield* ctx.adapter.publish(input)
        const handle = first._tag === "Processing" ? first.handle : ""
        const failed = yield* Effect.flip(ctx.adapter.poll!(input, handle))
        assert.isTrue(failed.retryable)
        const done = yield* ctx.adapter.poll!(input, handle)
        assert.strictEqual(done._tag, "Published")
        assert.deepStrictEqual(
          ctx.simulator.state.postsOf(account.networkAccountId).map((post) => post.text).reverse(),
          [`start ${stamp}`, `wobbly #sandbox-flaky ${stamp}`]
        )
      }))

    it.effect("refuses a photo whose file is gone from Herald (404) for good: a retry cannot bring it back", () =>
      Effect.flatMap(context, (ctx) => AdapterSuite.checkGoneMediaRefused(ctx, "gone_media")))
  }
})
