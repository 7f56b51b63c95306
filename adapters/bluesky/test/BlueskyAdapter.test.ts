import { assert } from "@effect/vitest"
import { PostVersion } from "@herald/adapter-kit"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { Effect, Option } from "effect"
import { BlueskyAdapter, BlueskySimulator } from "../src/index.ts"

AdapterSuite.suite("bluesky", {
  makeAdapter: BlueskyAdapter.make,
  makeSimulator: BlueskySimulator.simulator,
  optionSamples: [{
    values: { thread: ["the thread goes on"] },
    expect: (stored, ctx) => {
      const replies = [...ctx.simulator.state.posts.values()].filter((entry) => entry.replyTo === stored.id)
      assert.deepStrictEqual(replies.map((entry) => entry.text), ["the thread goes on"])
    }
  }],
  extra: (it, context) => {
    it.effect("links the post at /profile/<handle>/post/<rkey> and keeps its at:// URI as the id", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx, "link_author")
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, { account, post: AdapterSuite.post({ text: `link ${Date.now()}` }) })
        assert.match(published.id, /^at:\/\/did:plc:\w+\/app\.bsky\.feed\.post\/\w+$/)
        const rkey = published.id.slice(published.id.lastIndexOf("/") + 1)
        assert.strictEqual(published.url, `${ctx.baseUrl}/sandbox/bluesky/profile/link_author/post/${rkey}`)
        const page = yield* Effect.promise(() => fetch(published.url).then((response) => response.text()))
        assert.include(page, "link ")
      }))

    it.effect("chains a thread as replies (root stays the first post, parent the one above) and the first comment under the post", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx)
        const stamp = Date.now()
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: `1/ ${stamp}`, thread: [`2/ ${stamp}`, `3/ ${stamp}`], firstComment: `comment ${stamp}` })
        })
        const byText = (text: string) => [...ctx.simulator.state.posts.values()].find((post) => post.text === text)!
        const record = (text: string) => byText(text).details["record"] as { reply?: { root: { uri: string }; parent: { uri: string } } }
        const second = byText(`2/ ${stamp}`)
        assert.isUndefined(record(`1/ ${stamp}`).reply)
        assert.deepStrictEqual(
          [record(`2/ ${stamp}`).reply?.root.uri, record(`2/ ${stamp}`).reply?.parent.uri],
          [published.id, published.id]
        )
        assert.deepStrictEqual(
          [record(`3/ ${stamp}`).reply?.root.uri, record(`3/ ${stamp}`).reply?.parent.uri],
          [published.id, second.id]
        )
        assert.deepStrictEqual(
          [record(`comment ${stamp}`).reply?.root.uri, record(`comment ${stamp}`).reply?.parent.uri],
          [published.id, published.id]
        )
      }))

    it.effect("a reply that fails in a thread is retried alone: the first post is never sent again", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx, "flaky_thread")
        const stamp = Date.now()
        const input = { account, post: AdapterSuite.post({ text: `start ${stamp}`, thread: [`wobbly #sandbox-flaky ${stamp}`] }) }
        const first = yield* ctx.adapter.publish(input)
        assert.strictEqual(first._tag, "Processing")
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

    it.effect("sends links (bare domains too), hashtags and resolved mentions as facets, and images with their blobs", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const friend = yield* AdapterSuite.connect(ctx, "friend.sandbox.test")
        const { account } = yield* AdapterSuite.connect(ctx)
        const text = `Hé @friend.sandbox.test, see https://example.com and bsky.app/about #news ${Date.now()}`
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text, media: [AdapterSuite.media.photo(ctx, 1), AdapterSuite.media.photo(ctx, 2)] })
        })
        const record = ctx.simulator.state.posts.get(published.id)!.details["record"] as {
          facets: ReadonlyArray<{ index: { byteStart: number; byteEnd: number }; features: ReadonlyArray<Record<string, string>> }>
          embed: { $type: string; images: ReadonlyArray<{ alt: string; image: { ref: { $link: string } } }> }
        }
        assert.deepStrictEqual(record.facets.map((facet) => facet.features[0]!["$type"]), [
          "app.bsky.richtext.facet#mention",
          "app.bsky.richtext.facet#link",
          "app.bsky.richtext.facet#link",
          "app.bsky.richtext.facet#tag"
        ])
        // Bluesky's app links a bare domain as https://.
        assert.strictEqual(record.facets[2]!.features[0]!["uri"], "https://bsky.app/about")
        assert.strictEqual(record.facets[0]!.features[0]!["did"], friend.profile.networkAccountId)
        // "Hé " is 4 bytes: the mention starts at byte 4, not at index 3.
        assert.deepStrictEqual(record.facets[0]!.index, { byteStart: 4, byteEnd: 4 + "@friend.sandbox.test".length })
        assert.strictEqual(record.embed.$type, "app.bsky.embed.images")
        assert.strictEqual(record.embed.images.length, 2)
        assert.isTrue(record.embed.images.every((image) => image.alt === "" && image.image.ref.$link.startsWith("bafkrei")))
        const page = yield* Effect.promise(() => fetch(published.url).then((response) => response.text()))
        assert.include(page, "the sandbox keeps no copy of its bytes")
        assert.notInclude(page, "<img")
      }))

    it.effect("sends each image's alt text in the embed, and an empty one for an image without", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx, "alt_texts")
        const described = new PostVersion.MediaItem({ ...AdapterSuite.media.photo(ctx, 1), alt: "A heron on one leg" })
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account,
          post: AdapterSuite.post({ text: "alt", media: [described, AdapterSuite.media.photo(ctx, 2)] })
        })
        const record = ctx.simulator.state.posts.get(published.id)!.details["record"] as {
          embed: { images: ReadonlyArray<{ alt: string }> }
        }
        assert.deepStrictEqual(record.embed.images.map((image) => image.alt), ["A heron on one leg", ""])
      }))

    it.effect("counts 300 graphemes, not characters: a long emoji text passes, a 301st grapheme does not", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        // 300 flags are 600 code points and 2,400 bytes: within both of Bluesky's limits.
        assert.deepStrictEqual(ctx.adapter.validate(AdapterSuite.post({ text: "🇫🇷".repeat(300) })), [])
        assert.deepStrictEqual(
          ctx.adapter.validate(AdapterSuite.post({ text: "a".repeat(301) })).map((violation) => violation.message),
          ["bluesky: text is 301 graphemes; the limit is 300"]
        )
        assert.deepStrictEqual(
          ctx.adapter.validate(AdapterSuite.post({ text: "ok", thread: ["b".repeat(302)] })).map((violation) => violation.field),
          ["thread"]
        )
        const { account } = yield* AdapterSuite.connect(ctx, "long_texts")
        const refused = yield* Effect.flip(ctx.adapter.publish({ account, post: AdapterSuite.post({ text: "a".repeat(301) }) }))
        assert.strictEqual(refused.reason._tag, "Rejected")
        assert.strictEqual(ctx.simulator.state.postsOf(account.networkAccountId).length, 0)
      }))

    it.effect("connects with a handle and an app password, and refuses a wrong one in words a person can act on", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        assert.strictEqual(ctx.adapter.connect.method, "credentials")
        assert.deepStrictEqual(ctx.adapter.connect.fields.map((field) => [field.name, field.secret]), [["identifier", false], ["password", true]])
        const signedIn = yield* ctx.adapter.credentials!.signIn({ identifier: "@signin.test", password: "abcd-efgh-ijkl-mnop" })
        assert.strictEqual(signedIn.profile.username, "signin.test")
        assert.strictEqual(signedIn.profile.displayName, "Sandbox signin.test")
        assert.isTrue(Option.isSome(signedIn.tokens.refreshToken))
        const refused = yield* Effect.flip(ctx.adapter.credentials!.signIn({ identifier: "signin.test", password: "wrong" }))
        assert.strictEqual(refused._tag, "SignInRefused")
        assert.include(refused.message, "app password")
        assert.notInclude(refused.message, "wrong")
      }))

    it.effect("renews a session once per refresh JWT, as Bluesky rotates them", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { tokens } = yield* AdapterSuite.connect(ctx)
        const renewed = yield* ctx.adapter.credentials!.refresh!(Option.getOrThrow(tokens.refreshToken), { server: null })
        assert.isTrue(Option.isSome(renewed.refreshToken))
        const reused = yield* Effect.flip(ctx.adapter.credentials!.refresh!(Option.getOrThrow(tokens.refreshToken), { server: null }))
        assert.strictEqual(reused.reason._tag, "NeedsReconnect")
        yield* ctx.adapter.credentials!.refresh!(Option.getOrThrow(renewed.refreshToken), { server: null })
      }))

    it.effect("reads a mention by another account as a comment on that account's post", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const inbox = AdapterSuite.inboxOf(ctx)
        const mentioned = yield* AdapterSuite.connect(ctx, "mentioned.test")
        const first = yield* inbox.fetch({ account: mentioned.account, cursor: null })
        assert.deepStrictEqual(first.comments, [])
        const author = yield* AdapterSuite.connect(ctx, "author.test")
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
          account: author.account,
          post: AdapterSuite.post({ text: `Thanks @mentioned.test for the help ${Date.now()}` })
        })
        const page = yield* inbox.fetch({ account: mentioned.account, cursor: first.cursor })
        assert.deepStrictEqual(
          page.comments.map((comment) => [comment.id, comment.postId, comment.replyTo, comment.author.username]),
          [[published.id, published.id, null, "author.test"]]
        )
        yield* AdapterSuite.checkNothingNew(ctx, mentioned.account, page.cursor, { sameCursor: true })
      }))

    it.effect("reads people's replies as comments once each, and answers one with a reply in its thread", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account, published, cursor } = yield* AdapterSuite.startInbox(ctx, "inbox_owner")
        const inbox = AdapterSuite.inboxOf(ctx)
        yield* AdapterSuite.control(ctx, "comments", { username: "inbox_owner", author: "reader.test", text: "Nice post" })
        const page = yield* inbox.fetch({ account, cursor })
        assert.strictEqual(page.comments.length, 1)
        const comment = page.comments[0]!
        assert.deepStrictEqual(
          [comment.postId, comment.replyTo, comment.author.username, comment.text],
          [published.id, null, "reader.test", "Nice post"]
        )
        assert.match(comment.permalink ?? "", /\/profile\/reader\.test\/post\/\w+$/)
        yield* AdapterSuite.checkNothingNew(ctx, account, page.cursor, { sameCursor: true })

        const reply = yield* inbox.replyToComment({ account, comment, text: "Thank you" })
        const stored = ctx.simulator.state.comments.get(reply.id.slice(reply.id.lastIndexOf("/") + 1))
        assert.deepStrictEqual([stored?.text, stored?.postId, stored?.replyTo], ["Thank you", published.id, comment.id.slice(comment.id.lastIndexOf("/") + 1)])
        // The account's own reply is no news.
        yield* AdapterSuite.checkNothingNew(ctx, account, page.cursor, { sameCursor: true })

        yield* AdapterSuite.control(ctx, "comments", { username: "inbox_owner", author: "reader.test", text: "Welcome", replyTo: stored!.id })
        const next = yield* inbox.fetch({ account, cursor: page.cursor })
        assert.deepStrictEqual(next.comments.map((entry) => [entry.text, entry.replyTo]), [["Welcome", reply.id]])
        const none = yield* AdapterSuite.checkNoMessages(ctx, {
          account,
          cursor: next.cursor,
          message: { username: "inbox_owner", author: "reader.test", text: "psst" }
        })
        assert.strictEqual(none.sent.status, 201)
      }))

    it.effect("refuses a photo whose file is gone from Herald (404) for good: a retry cannot bring it back", () =>
      Effect.flatMap(context, (ctx) => AdapterSuite.checkGoneMediaRefused(ctx, "gone_media")))
  }
})
