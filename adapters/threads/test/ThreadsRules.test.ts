import { assert } from "@effect/vitest"
import { type Adapter, SimulatorRules } from "@herald/adapter-kit"
import { AdapterSuite, RulesSuite } from "@herald/adapter-kit/testing"
import { Effect, Redacted } from "effect"
import { ThreadsAdapter, ThreadsRules, ThreadsSimulator } from "../src/index.ts"

// Every rule of the simulator's table, broken alone by a request sent over HTTP, is refused with Graph's
// error body (400, OAuthException, code 100, its words, `error_user_msg` where Threads names the refusal); a
// request that keeps every rule is taken. A rule added to the table without a breaking example here fails the
// coverage test.

type Call = ThreadsRules.GraphCall<ThreadsRules.Form>

const paths = new Map<Call, string>([[ThreadsRules.threads, "threads"], [ThreadsRules.threadsPublish, "threads_publish"]])

const photo = "https://example.com/photo.jpg"
const sixLinks = [1, 2, 3, 4, 5, 6].map((index) => `https://example.com/${index}`).join(" ")

/** A request per rule that breaks that rule and no other, by the rule's words. */
const breaking: ReadonlyArray<{ readonly call: Call; readonly rule: string; readonly input: ThreadsRules.Form }> = [
  { call: ThreadsRules.threads, rule: "`media_type`, required", input: { text: "No type" } },
  { call: ThreadsRules.threads, rule: "`is_carousel_item` true or false", input: { media_type: "IMAGE", image_url: photo, is_carousel_item: "1" } },
  { call: ThreadsRules.threads, rule: "`text` of at most", input: { media_type: "TEXT", text: `${"a".repeat(497)}😀` } },
  { call: ThreadsRules.threads, rule: "at most 5 distinct links", input: { media_type: "TEXT", text: sixLinks } },
  { call: ThreadsRules.threads, rule: "`text`, required for", input: { media_type: "TEXT", text: "  " } },
  { call: ThreadsRules.threads, rule: "`image_url`, an http(s) URL", input: { media_type: "IMAGE", image_url: "photo.jpg" } },
  { call: ThreadsRules.threads, rule: "`video_url`, an http(s) URL", input: { media_type: "VIDEO", image_url: photo } },
  { call: ThreadsRules.threads, rule: "`alt_text` only on an image", input: { media_type: "TEXT", text: "Hi", alt_text: "A cup" } },
  { call: ThreadsRules.threads, rule: "a CAROUSEL's `children`", input: { media_type: "CAROUSEL", children: "1" } },
  { call: ThreadsRules.threadsPublish, rule: "`creation_id`, required", input: {} }
]

const send = (ctx: AdapterSuite.Context, account: Adapter.Account, call: Call, input: ThreadsRules.Form) =>
  Effect.promise(async () => {
    const response = await fetch(`${ctx.baseUrl}/sandbox/threads/v1.0/${account.networkAccountId}/${paths.get(call)}`, {
      method: "POST",
      headers: { authorization: `Bearer ${Redacted.value(account.accessToken)}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(input).toString()
    })
    return { status: response.status, body: (await response.json()) as Record<string, Record<string, unknown>> }
  })

AdapterSuite.withHarness({ makeAdapter: ThreadsAdapter.make, makeSimulator: ThreadsSimulator.simulator })("threads simulator rules", (it) => {
  const context = Effect.service(AdapterSuite.Harness)
  const setUp = Effect.flatMap(context, (ctx) => Effect.map(AdapterSuite.connect(ctx, "threads_rules"), ({ account }) => ({ ctx, account })))

  it.effect("every rule of the table has a breaking example, and every call a path", () =>
    Effect.sync(() => {
      for (const call of ThreadsRules.rules) assert.isTrue([...paths.keys()].some((key) => key === call), `${call.call} has no route`)
      RulesSuite.covers(ThreadsRules.rules, breaking)
    }))

  it.effect("each request that breaks one rule is refused with Graph's error for it", () =>
    Effect.gen(function*() {
      const { ctx, account } = yield* setUp
      for (const example of breaking) {
        const message = RulesSuite.brokenAlone(example)
        const { status, body } = yield* send(ctx, account, example.call, example.input)
        const expected = SimulatorRules.refusal(example.call, example.input)
        assert.strictEqual(status, 400, example.rule)
        assert.strictEqual(body["error"]?.["type"], "OAuthException")
        assert.strictEqual(body["error"]?.["message"], message)
        assert.strictEqual(body["error"]?.["code"], expected?.rule.error?.code ?? 100)
        assert.strictEqual(body["error"]?.["error_user_msg"], expected?.rule.error?.error_user_msg)
        assert.isString(body["error"]?.["fbtrace_id"])
      }
    }))

  it.effect("a request that keeps every rule is taken", () =>
    Effect.gen(function*() {
      const { ctx, account } = yield* setUp
      const container = yield* send(ctx, account, ThreadsRules.threads, { media_type: "TEXT", text: "Kept every rule 😀" })
      assert.strictEqual(container.status, 200, JSON.stringify(container.body))
      const published = yield* send(ctx, account, ThreadsRules.threadsPublish, { creation_id: container.body["id"] as unknown as string })
      assert.strictEqual(published.status, 200, JSON.stringify(published.body))
    }))
})
