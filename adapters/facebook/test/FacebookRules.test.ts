import { assert } from "@effect/vitest"
import { type Adapter, SimulatorRules } from "@herald/adapter-kit"
import { AdapterSuite, RulesSuite } from "@herald/adapter-kit/testing"
import { Effect, Redacted } from "effect"
import { FacebookAdapter, FacebookConfig, FacebookRules, FacebookSimulator } from "../src/index.ts"

// Every rule of the simulator's table, broken alone by a request sent over HTTP, is refused with Graph's
// error body (400, OAuthException, the rule's code, its words); a request that keeps every rule is taken. A
// rule added to the table without a breaking example here fails the coverage test.

type Call = FacebookRules.GraphCall<never>

/** Where a call goes: its path under the Graph version, and whether its body is JSON. */
const routes = new Map<Call, { readonly path: (page: string, post: string) => string; readonly json?: true }>([
  [FacebookRules.photos, { path: (page) => `${page}/photos` }],
  [FacebookRules.feed, { path: (page) => `${page}/feed` }],
  [FacebookRules.videos, { path: (page) => `${page}/videos` }],
  [FacebookRules.comments, { path: (_, post) => `${post}/comments` }],
  [FacebookRules.subscribedApps, { path: (page) => `${page}/subscribed_apps` }],
  [FacebookRules.messages, { path: (page) => `${page}/messages`, json: true }]
])

const photo = "https://example.com/photo.jpg"
const long = "a".repeat(63_207)

/** A request per rule that breaks that rule and no other, by the rule's words. */
const breaking: ReadonlyArray<{ readonly call: Call; readonly rule: string; readonly input: unknown }> = [
  { call: FacebookRules.photos, rule: "a photo by `url`", input: { url: "not an address" } },
  { call: FacebookRules.photos, rule: "`published` a boolean", input: { url: photo, published: "maybe" } },
  { call: FacebookRules.photos, rule: "`caption` of at most", input: { url: photo, caption: long } },
  { call: FacebookRules.photos, rule: "`message` of at most", input: { url: photo, message: long } },
  { call: FacebookRules.feed, rule: "`attached_media` a JSON list", input: { message: "x", attached_media: "[{\"id\":1}]" } },
  { call: FacebookRules.feed, rule: "a `message` or attached media", input: { message: "  " } },
  { call: FacebookRules.feed, rule: "`message` of at most", input: { message: long } },
  { call: FacebookRules.videos, rule: "a video by `file_url`", input: { file_url: "ftp://example.com/clip.mp4" } },
  { call: FacebookRules.videos, rule: "`description` of at most", input: { file_url: "https://example.com/clip.mp4", description: long } },
  { call: FacebookRules.comments, rule: "a `message`, unless an attachment", input: { message: "" } },
  { call: FacebookRules.subscribedApps, rule: "`subscribed_fields`, required", input: {} },
  { call: FacebookRules.subscribedApps, rule: "each of `subscribed_fields`", input: { subscribed_fields: "feed,tweets" } },
  { call: FacebookRules.messages, rule: "a `recipient` object", input: { recipient: "1", message: { text: "Hi" } } },
  { call: FacebookRules.messages, rule: "`messaging_type` one of", input: { recipient: { id: "1" }, messaging_type: "PROMO", message: { text: "Hi" } } },
  { call: FacebookRules.messages, rule: "a `message` with a non-empty", input: { recipient: { id: "1" }, message: { text: " " } } }
]

const send = (ctx: AdapterSuite.Context, account: Adapter.Account, postId: string, call: Call, input: unknown) =>
  Effect.promise(async () => {
    const route = routes.get(call)!
    const url = `${ctx.baseUrl}/sandbox/facebook/${FacebookConfig.apiVersion}/${route.path(account.networkAccountId, postId)}`
    const response = await fetch(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${Redacted.value(account.accessToken)}`,
        "content-type": route.json ? "application/json" : "application/x-www-form-urlencoded"
      },
      body: route.json ? JSON.stringify(input) : new URLSearchParams(input as Record<string, string>).toString()
    })
    return { status: response.status, body: (await response.json()) as Record<string, Record<string, unknown>> }
  })

AdapterSuite.withHarness({ makeAdapter: FacebookAdapter.make, makeSimulator: FacebookSimulator.simulator })("facebook simulator rules", (it) => {
  const context = Effect.service(AdapterSuite.Harness)
  /** A Page with a post, and a person who wrote to it. */
  const setUp = Effect.gen(function*() {
    const ctx = yield* context
    const { account } = yield* AdapterSuite.connect(ctx, "fb_rules_page")
    const post = yield* AdapterSuite.publishToEnd(ctx.adapter, { account, post: AdapterSuite.post({ text: `rules ${Date.now()}` }) })
    const written = yield* AdapterSuite.control(ctx, "messages", { username: "fb_rules_page", author: "rosa", text: "Hello?" })
    return { ctx, account, postId: post.id, person: (written.body["from"] as { readonly id: string }).id }
  })

  it.effect("every rule of the table has a breaking example, and every call a route", () =>
    Effect.sync(() => {
      for (const call of FacebookRules.rules) assert.isTrue([...routes.keys()].some((key) => key === call), `${call.call} has no route`)
      RulesSuite.covers(FacebookRules.rules, breaking)
    }))

  it.effect("each request that breaks one rule is refused with Graph's error for it", () =>
    Effect.gen(function*() {
      const { ctx, account, postId } = yield* setUp
      for (const example of breaking) {
        const message = RulesSuite.brokenAlone({ ...example, input: example.input as never })
        const { status, body } = yield* send(ctx, account, postId, example.call, example.input)
        assert.strictEqual(status, 400, example.rule)
        assert.strictEqual(body["error"]?.["type"], "OAuthException")
        assert.strictEqual(body["error"]?.["message"], message)
        assert.strictEqual(body["error"]?.["code"], SimulatorRules.refusal(example.call, example.input as never)?.rule.error?.code ?? 100)
        assert.isString(body["error"]?.["fbtrace_id"])
      }
    }))

  it.effect("a request that keeps every rule is taken", () =>
    Effect.gen(function*() {
      const { ctx, account, postId, person } = yield* setUp
      const keeping: ReadonlyArray<readonly [Call, unknown]> = [
        [FacebookRules.photos, { url: photo, published: "false", alt_text_custom: "A cup" }],
        [FacebookRules.feed, { message: "Kept every rule" }],
        [FacebookRules.videos, { file_url: "https://example.com/clip.mp4", description: "A clip" }],
        [FacebookRules.comments, { message: "First!" }],
        [FacebookRules.subscribedApps, { subscribed_fields: "feed,messages" }],
        [FacebookRules.messages, { recipient: { id: person }, messaging_type: "RESPONSE", message: { text: "Hello, Rosa" } }]
      ]
      for (const [call, input] of keeping) {
        const { status, body } = yield* send(ctx, account, postId, call, input)
        assert.strictEqual(status, 200, `${call.call}: ${JSON.stringify(body)}`)
      }
    }))
})
