import { assert } from "@effect/vitest"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { Pkce } from "@herald/adapter-kit"
import { Effect, Redacted } from "effect"
import { MastodonAdapter, MastodonSimulator } from "../src/index.ts"

// Mastodon's instances as the adapter meets them: Herald registered on each, OAuth with PKCE there, limits
// read from the instance, and the inbox of mentions and direct conversations.

const harness = { makeAdapter: MastodonAdapter.make, makeSimulator: MastodonSimulator.simulator }

const post = (url: string, body: unknown) =>
  Effect.promise(() =>
    fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then(async (response) => ({
      status: response.status,
      body: await response.json() as Record<string, unknown>
    }))
  )

AdapterSuite.withHarness(harness)("Mastodon instances", (it) => {
  const context = Effect.service(AdapterSuite.Harness)

  it.effect("registers Herald on the instance and connects with the app registered there, PKCE checked", () =>
    Effect.gen(function*() {
      const { adapter, baseUrl, redirectUri } = yield* context
      const server = `${baseUrl}/sandbox/mastodon`
      const app = yield* adapter.oauth.registerApp!({ server, redirectUri })
      assert.notStrictEqual(app.clientId, "sandbox-client")
      const verifier = Pkce.verifier()
      const consent = (challenge: string, redirect = redirectUri) => {
        const url = new URL(adapter.oauth.authorizeUrl({ server, client: app, state: "s1", redirectUri: redirect, codeChallenge: challenge }))
        url.searchParams.set("sandbox_username", "registered_user")
        return Effect.promise(() => fetch(url, { redirect: "manual" }))
      }
      const authorized = new URL(adapter.oauth.authorizeUrl({ server, client: app, state: "s1", redirectUri, codeChallenge: "c" }))
      assert.deepStrictEqual(
        [authorized.searchParams.get("scope"), authorized.searchParams.get("code_challenge_method")],
        ["read:accounts read:statuses read:notifications write:statuses write:media", "S256"]
      )
      // Another redirect address than the one registered is refused.
      assert.strictEqual((yield* consent(Pkce.challenge(verifier), `${baseUrl}/elsewhere`)).status, 400)
      const answer = yield* consent(Pkce.challenge(verifier))
      assert.strictEqual(answer.status, 302)
      const code = new URL(answer.headers.get("location")!).searchParams.get("code")!
      const wrongVerifier = yield* Effect.flip(adapter.oauth.exchange({ server, client: app, code, redirectUri, codeVerifier: Pkce.verifier() }))
      assert.strictEqual(wrongVerifier.reason._tag, "Rejected")
      const again = new URL((yield* consent(Pkce.challenge(verifier))).headers.get("location")!).searchParams.get("code")!
      const tokens = yield* adapter.oauth.exchange({ server, client: app, code: again, redirectUri, codeVerifier: verifier })
      assert.isTrue(tokens.expiresAt._tag === "None" && tokens.refreshToken._tag === "None", "Mastodon tokens neither expire nor refresh")
      const profile = yield* adapter.oauth.profile(tokens.accessToken, { server, client: app })
      assert.strictEqual(profile.username, "registered_user")
      assert.match(profile.networkAccountId, /^\d+@127\.0\.0\.1:\d+$/)
      // An app the instance does not know cannot send anyone to consent.
      const unknown = new URL(adapter.oauth.authorizeUrl({
        server,
        client: { clientId: "nobody", clientSecret: Redacted.make("x") },
        state: "s",
        redirectUri,
        codeChallenge: undefined
      }))
      assert.strictEqual((yield* Effect.promise(() => fetch(unknown, { redirect: "manual" }))).status, 401)
    }))

  it.effect("reads each instance's limits, keeps them an hour, and validates with them", () =>
    Effect.gen(function*() {
      const { adapter, baseUrl } = yield* context
      const server = `${baseUrl}/sandbox/mastodon`
      const changed = yield* post(`${server}/_control/instance`, { maxCharacters: 5000, maxMedia: 6 })
      assert.strictEqual(changed.status, 200)
      const limits = yield* adapter.limitsFor!(server)
      assert.deepStrictEqual([limits.forms.post.text.max, limits.forms.post.media.maxPhotos], [5000, 6])
      const long = AdapterSuite.post({ text: "a".repeat(1200) })
      assert.deepStrictEqual(adapter.validate(long, limits), [])
      assert.strictEqual(adapter.validate(long)[0]?.field, "text", "the stock 500 characters apply without the instance's")
      // Read once an hour: a change on the instance is seen at the next reading, not at once.
      yield* post(`${server}/_control/instance`, { maxCharacters: 600 })
      assert.strictEqual((yield* adapter.limitsFor!(`${server}/`)).forms.post.text.max, 5000)
      const refused = yield* post(`${server}/_control/instance`, { maxCharacters: "lots" })
      assert.strictEqual(refused.status, 400)
      yield* post(`${server}/_control/instance`, { maxCharacters: 500, maxMedia: 4 })
    }))

  it.effect("counts text as Mastodon does: a long link is 23 characters, a remote mention its local part", () =>
    Effect.gen(function*() {
      const { adapter } = yield* context
      // Nearly 800 characters as written; as Mastodon counts them 469 + 1 + 23 (the link) + 1 + 6 (@alice) = 500.
      const link = `https://example.com/${"p".repeat(280)}`
      const text = `${"a".repeat(469)} ${link} @alice@mastodon.social`
      assert.isAbove(text.length, 750)
      assert.deepStrictEqual(adapter.validate(AdapterSuite.post({ text })), [])
      assert.strictEqual(adapter.validate(AdapterSuite.post({ text: `${text}!` }))[0]?.field, "text")
    }))

  it.effect("reads mentions as comments and direct conversations as messages, and answers both", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor, first, published } = yield* AdapterSuite.startInbox(ctx, "inbox_owner")
      assert.deepStrictEqual([first.comments, first.messages], [[], []])
      const comment = yield* AdapterSuite.control(ctx, "comments", { username: "inbox_owner", author: "reader", text: "Nice & <b>bold</b>\n\nsecond" })
      assert.strictEqual(comment.status, 201)
      const message = yield* AdapterSuite.control(ctx, "messages", { username: "inbox_owner", author: "friend", text: "Psst", attachments: 1 })
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      assert.lengthOf(page.comments, 1)
      const arrived = page.comments[0]!
      assert.deepStrictEqual(
        [arrived.id, arrived.postId, arrived.replyTo, arrived.author.username, arrived.text],
        [comment.body["id"], published.id, null, "reader", "Nice & <b>bold</b>\n\nsecond"]
      )
      const received = AdapterSuite.checkMessageArrived(page, message.body)
      yield* AdapterSuite.checkNothingNew(ctx, account, page.cursor, { sameCursor: true })

      const { stored } = yield* AdapterSuite.answerComment(ctx, { account, comment: arrived, text: "Thanks!", postId: published.id })
      assert.strictEqual(stored.text, "@reader Thanks!", "the reply names the person, so Mastodon tells them")
      const { kept } = yield* AdapterSuite.answerMessage(ctx, { account, conversationId: received.conversationId, text: "Hi back" })
      assert.strictEqual(kept.text, "@friend Hi back")
      const unknown = yield* Effect.flip(AdapterSuite.inboxOf(ctx).sendMessage({ account, conversationId: "404", text: "x" }))
      assert.strictEqual(unknown.reason._tag, "Rejected")
      // The account's own answers are not news.
      const after = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: page.cursor })
      assert.deepStrictEqual(after.comments, [])
      assert.isTrue(after.messages.every((entry) => entry.outgoing))
      yield* AdapterSuite.checkAnswerErrors(ctx, { account, cursor: page.cursor, comment: arrived })
    }))

  it.effect("reads every direct message that came between two reads, not only a conversation's last", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor } = yield* AdapterSuite.startInbox(ctx, "busy_inbox")
      for (const text of ["one", "two", "three"]) {
        yield* AdapterSuite.control(ctx, "messages", { username: "busy_inbox", author: "chatty", text })
      }
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      assert.deepStrictEqual(page.messages.map((message) => message.text), ["one", "two", "three"])
      assert.strictEqual(new Set(page.messages.map((message) => message.conversationId)).size, 1)
      yield* AdapterSuite.control(ctx, "messages", { username: "busy_inbox", author: "chatty", text: "four" })
      const next = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: page.cursor })
      assert.deepStrictEqual(next.messages.map((message) => message.text), ["four"])
    }))

  it.effect("reads another account's status that names the account as a mention", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor } = yield* AdapterSuite.startInbox(ctx, "mentioned_one")
      const other = yield* AdapterSuite.connect(ctx, "mentioner")
      const text = `Hello @mentioned_one ${Date.now()}`
      yield* AdapterSuite.publishToEnd(ctx.adapter, { account: other.account, post: AdapterSuite.post({ text }) })
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      assert.deepStrictEqual(page.comments.map((comment) => [comment.author.username, comment.text]), [["mentioner", text]])
    }))
})
