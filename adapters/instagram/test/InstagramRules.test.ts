import { assert } from "@effect/vitest"
import { type Adapter, SimulatorRules } from "@herald/adapter-kit"
import { AdapterSuite, RulesSuite } from "@herald/adapter-kit/testing"
import { Effect, Redacted } from "effect"
import { InstagramAdapter, InstagramConfig, InstagramRules, InstagramSimulator } from "../src/index.ts"

// Every rule of the simulator's table, broken alone by a request sent over HTTP, is refused with Graph's
// error body (400, OAuthException, the rule's code and subcode, its words); a request that keeps every rule
// is taken. A rule added to the table without a breaking example here fails the coverage test.

type Call = InstagramRules.GraphCall<never>

/** The ids a call's path names. */
interface Ids {
  readonly account: string
  readonly media: string
  readonly comment: string
}

const routes = new Map<Call, { readonly path: (ids: Ids) => string; readonly json?: true }>([
  [InstagramRules.media, { path: (ids) => `${ids.account}/media` }],
  [InstagramRules.mediaPublish, { path: (ids) => `${ids.account}/media_publish` }],
  [InstagramRules.comments, { path: (ids) => `${ids.media}/comments` }],
  [InstagramRules.replies, { path: (ids) => `${ids.comment}/replies` }],
  [InstagramRules.subscribedApps, { path: () => "me/subscribed_apps" }],
  [InstagramRules.messages, { path: () => "me/messages", json: true }]
])

const photo = "https://example.com/photo.jpg"
const video = "https://example.com/clip.mp4"

/** A request per rule that breaks that rule and no other, by the rule's words. */
const breaking: ReadonlyArray<{ readonly call: Call; readonly rule: string; readonly input: unknown }> = [
  { call: InstagramRules.media, rule: "`media_type` one of", input: { media_type: "ALBUM", image_url: photo } },
  { call: InstagramRules.media, rule: "`is_carousel_item` a boolean", input: { image_url: photo, is_carousel_item: "yes" } },
  { call: InstagramRules.media, rule: "`share_to_feed` a boolean", input: { media_type: "REELS", video_url: video, share_to_feed: "often" } },
  { call: InstagramRules.media, rule: "`media_type=VIDEO` only", input: { media_type: "VIDEO", video_url: video } },
  { call: InstagramRules.media, rule: "the media's address: ", input: { media_type: "REELS", image_url: photo } },
  { call: InstagramRules.media, rule: "the media's address an http(s) URL", input: { image_url: "ftp://example.com/photo.jpg" } },
  { call: InstagramRules.media, rule: "`caption` of at most", input: { image_url: photo, caption: "a".repeat(2_201) } },
  { call: InstagramRules.media, rule: "`alt_text` only on an image", input: { media_type: "STORIES", image_url: photo, alt_text: "A cup" } },
  { call: InstagramRules.media, rule: "a CAROUSEL's `children`", input: { media_type: "CAROUSEL", children: "1" } },
  { call: InstagramRules.mediaPublish, rule: "`creation_id`, required", input: {} },
  { call: InstagramRules.mediaPublish, rule: "`creation_id` an unsigned integer", input: { creation_id: "17889-x" } },
  { call: InstagramRules.comments, rule: "a non-empty `message`", input: { message: " " } },
  { call: InstagramRules.replies, rule: "a non-empty `message`", input: {} },
  { call: InstagramRules.subscribedApps, rule: "`subscribed_fields`, required", input: { subscribed_fields: "" } },
  { call: InstagramRules.subscribedApps, rule: "each of `subscribed_fields`", input: { subscribed_fields: "comments,likes" } },
  { call: InstagramRules.messages, rule: "a `recipient` object", input: { message: { text: "Hi" } } },
  { call: InstagramRules.messages, rule: "`messaging_type` one of", input: { recipient: { id: "1" }, messaging_type: "PROMO", message: { text: "Hi" } } },
  { call: InstagramRules.messages, rule: "a `message` with a non-empty", input: { recipient: { id: "1" }, message: {} } }
]

const request = (ctx: AdapterSuite.Context, account: Adapter.Account, path: string, init: RequestInit = {}) =>
  Effect.promise(async () => {
    const response = await fetch(`${ctx.baseUrl}/sandbox/instagram/${InstagramConfig.apiVersion}/${path}`, {
      ...init,
      headers: { ...init.headers, authorization: `Bearer ${Redacted.value(account.accessToken)}` }
    })
    return { status: response.status, body: (await response.json()) as Record<string, Record<string, unknown>> }
  })

const send = (ctx: AdapterSuite.Context, account: Adapter.Account, ids: Ids, call: Call, input: unknown) => {
  const route = routes.get(call)!
  return request(ctx, account, route.path(ids), {
    method: "POST",
    headers: { "content-type": route.json ? "application/json" : "application/x-www-form-urlencoded" },
    body: route.json ? JSON.stringify(input) : new URLSearchParams(input as Record<string, string>).toString()
  })
}

AdapterSuite.withHarness({ makeAdapter: InstagramAdapter.make, makeSimulator: InstagramSimulator.simulator })("instagram simulator rules", (it) => {
  const context = Effect.service(AdapterSuite.Harness)
  /** An account with a photo, a comment on it, and a person who wrote to it. */
  const setUp = Effect.gen(function*() {
    const ctx = yield* context
    const { account } = yield* AdapterSuite.connect(ctx, "ig_rules_owner")
    const post = AdapterSuite.post({ text: `rules ${Date.now()}`, media: [AdapterSuite.media.photo(ctx)] })
    const published = yield* AdapterSuite.publishToEnd(ctx.adapter, { account, post })
    const comment = yield* AdapterSuite.control(ctx, "comments", { username: "ig_rules_owner", author: "lena", text: "Nice", postId: published.id })
    const written = yield* AdapterSuite.control(ctx, "messages", { username: "ig_rules_owner", author: "omar", text: "Hello?" })
    const ids: Ids = { account: account.networkAccountId, media: published.id, comment: comment.body["id"] as string }
    return { ctx, account, ids, person: (written.body["from"] as { readonly id: string }).id }
  })

  it.effect("every rule of the table has a breaking example, and every call a route", () =>
    Effect.sync(() => {
      for (const call of InstagramRules.rules) assert.isTrue([...routes.keys()].some((key) => key === call), `${call.call} has no route`)
      RulesSuite.covers(InstagramRules.rules, breaking)
    }))

  it.effect("each request that breaks one rule is refused with Graph's error for it", () =>
    Effect.gen(function*() {
      const { ctx, account, ids } = yield* setUp
      for (const example of breaking) {
        const message = RulesSuite.brokenAlone({ ...example, input: example.input as never })
        const { status, body } = yield* send(ctx, account, ids, example.call, example.input)
        const expected = SimulatorRules.refusal(example.call, example.input as never)
        assert.strictEqual(status, 400, example.rule)
        assert.strictEqual(body["error"]?.["type"], "OAuthException")
        assert.strictEqual(body["error"]?.["message"], message)
        assert.strictEqual(body["error"]?.["code"], expected?.rule.error?.code ?? 100)
        assert.strictEqual(body["error"]?.["error_subcode"], expected?.rule.error?.error_subcode)
        assert.isString(body["error"]?.["fbtrace_id"])
      }
    }))

  it.effect("a request that keeps every rule is taken", () =>
    Effect.gen(function*() {
      const { ctx, account, ids, person } = yield* setUp
      const container = yield* send(ctx, account, ids, InstagramRules.media, { image_url: photo, caption: "Kept", alt_text: "A cup" })
      assert.strictEqual(container.status, 200, JSON.stringify(container.body))
      const containerId = container.body["id"] as unknown as string
      // Instagram prepares a container over a few status reads before it can be published.
      for (let read = 0; read < 3; read++) yield* request(ctx, account, `${containerId}?fields=status_code`)
      const keeping: ReadonlyArray<readonly [Call, unknown]> = [
        [InstagramRules.media, { media_type: "REELS", video_url: video, share_to_feed: "true", caption: "A reel" }],
        [InstagramRules.mediaPublish, { creation_id: containerId }],
        [InstagramRules.comments, { message: "First!" }],
        [InstagramRules.replies, { message: "Thank you" }],
        [InstagramRules.subscribedApps, { subscribed_fields: "comments,messages" }],
        [InstagramRules.messages, { recipient: { id: person }, message: { text: "Hello, Omar" } }]
      ]
      for (const [call, input] of keeping) {
        const { status, body } = yield* send(ctx, account, ids, call, input)
        assert.strictEqual(status, 200, `${call.call}: ${JSON.stringify(body)}`)
      }
    }))
})
