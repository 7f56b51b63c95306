import { assert } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import type { VersionParts } from "../PostOptions.ts"
import type { PostVersion } from "../PostVersion.ts"
import { count } from "../TextCounter.ts"
import type { Context, Harness, Methods, Options } from "./suiteHarness.ts"
import { claimed, connect, media, post, publishToEnd, reasonOf, refreshOf, textPost } from "./suiteSteps.ts"

/**
 * The suite's cases of connecting and of text posts: OAuth and refresh, the sandbox triggers, the declared
 * text limits, the network's own options, and a revoked grant.
 */
export const textCases = (it: Methods, context: Effect.Effect<Context, never, Harness>, options: Options) => {
  it.effect("connects through OAuth and reads the profile", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { profile, tokens } = yield* connect(ctx, "conformance_user")
      assert.strictEqual(profile.username, "conformance_user")
      assert.isAbove(Redacted.value(tokens.accessToken).length, 8)
      assert.isTrue(ctx.adapter.validate(post({ text: "x" })).length >= 0)
    }))

  it.effect("publishes and the network has the post, with a link under its address", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account } = yield* connect(ctx)
      const text = `Hello from the conformance suite ${Date.now()}`
      const published = yield* publishToEnd(ctx.adapter, { account, post: textPost(options, ctx, text) })
      assert.isTrue(published.url.startsWith(`${ctx.baseUrl}/sandbox/${ctx.simulator.network}`), published.url)
      const stored = [...ctx.simulator.state.posts.values()].find((entry) => entry.text === text)
      assert.isDefined(stored, "the simulator has no post with that text")
    }))

  it.effect("refreshes an expired token and publishes again", (test) =>
    Effect.gen(function*() {
      const ctx = yield* context
      yield* claimed(test, ctx.adapter, "refresh")
      const { account, tokens } = yield* connect(ctx)
      ctx.simulator.state.expire(account.networkAccountId)
      const expired = yield* Effect.flip(
        publishToEnd(ctx.adapter, { account, post: textPost(options, ctx, `expired ${Date.now()}`) })
      )
      assert.strictEqual(reasonOf(expired), "AuthExpired")
      const refreshed = yield* refreshOf(ctx.adapter)(Option.getOrThrow(tokens.refreshToken), { server: account.server })
      const again = yield* publishToEnd(ctx.adapter, {
        account: { ...account, accessToken: refreshed.accessToken },
        post: textPost(options, ctx, `refreshed ${Date.now()}`)
      })
      assert.isString(again.id)
    }))

  it.effect("is rejected for #sandbox-fail with the network's reason", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account } = yield* connect(ctx)
      const error = yield* Effect.flip(
        publishToEnd(ctx.adapter, { account, post: textPost(options, ctx, `no #sandbox-fail ${Date.now()}`) })
      )
      assert.strictEqual(reasonOf(error), "Rejected")
      assert.isAbove(error.reason.message.length, 5)
      if (options.refusalInWords !== false) assert.include(error.reason.message, "contains #sandbox-fail.")
    }))

  it.effect("is refused the first time for #sandbox-fail-once, then accepted when sent again", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account } = yield* connect(ctx)
      const input = { account, post: textPost(options, ctx, `second time lucky #sandbox-fail-once ${Date.now()}`) }
      const first = yield* Effect.flip(publishToEnd(ctx.adapter, input))
      assert.strictEqual(reasonOf(first), "Rejected")
      if (options.refusalInWords !== false) assert.include(first.reason.message, "#sandbox-fail-once")
      const again = yield* publishToEnd(ctx.adapter, input)
      assert.isString(again.id)
    }))

  it.effect("fails once with a transient error for #sandbox-flaky, then succeeds", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account } = yield* connect(ctx)
      const input = { account, post: textPost(options, ctx, `wobbly #sandbox-flaky ${Date.now()}`) }
      const first = yield* Effect.flip(publishToEnd(ctx.adapter, input))
      assert.isTrue(first.retryable, `expected a retryable error, got ${first.reason._tag}`)
      const second = yield* publishToEnd(ctx.adapter, input)
      assert.isString(second.id)
    }))

  it.effect("is rate-limited once for #sandbox-rate-limit with the network's retry time, then succeeds", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account } = yield* connect(ctx)
      const input = { account, post: textPost(options, ctx, `slow down #sandbox-rate-limit ${Date.now()}`) }
      const first = yield* Effect.flip(publishToEnd(ctx.adapter, input))
      assert.strictEqual(reasonOf(first), "RateLimited", `expected RateLimited, got ${reasonOf(first)}: ${first.message}`)
      assert.isTrue(first.retryable)
      assert.isAbove(first.retryAfterMs ?? 0, 0, "a rate limit must say when to try again")
      const again = yield* publishToEnd(ctx.adapter, input)
      assert.isString(again.id)
    }))

  // The limits the adapter declares are the network's: what they allow the simulator takes, and one more
  // it refuses, so an adapter whose limit is off in either direction fails here rather than in use.
  it.effect("text at the declared limit is published, and one over is refused by the network", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account } = yield* connect(ctx)
      const form = ctx.adapter.limits.forms.post
      const base = textPost(options, ctx, "")
      const cases: Array<{ readonly field: string; readonly max: number; readonly make: (filled: string) => PostVersion }> = []
      if (form.text.ignored !== true) cases.push({ field: "text", max: form.text.max, make: (text) => post({ ...base, text }) })
      if (form.title !== undefined && base.title !== null) {
        const text = `title limit ${Date.now()}`
        cases.push({ field: "title", max: form.title.max, make: (title) => post({ ...base, text, title }) })
      }
      for (const { field, make, max } of cases) {
        const counter = field === "text" ? form.text.counter : "characters"
        const filled = (length: number) => {
          const head = `${field} ${Date.now()} `
          return head + "a".repeat(length - count(head, counter))
        }
        const atLimit = filled(max)
        assert.strictEqual(count(atLimit, counter), max)
        const published = yield* Effect.result(publishToEnd(ctx.adapter, { account, post: make(atLimit) }))
        assert.strictEqual(published._tag, "Success", `${field} of ${max}, the declared limit, was refused`)
        const over = yield* Effect.result(publishToEnd(ctx.adapter, { account, post: make(filled(max + 1)) }))
        assert.strictEqual(over._tag, "Failure", `${field} of ${max + 1}, over the declared limit, was published`)
        if (over._tag === "Failure") assert.strictEqual(reasonOf(over.failure), "Rejected")
      }
    }))

  it.effect("sends the network's own options, and the network keeps them", (test) =>
    Effect.gen(function*() {
      const ctx = yield* context
      const declared = ctx.adapter.options
      if (declared === undefined) return test.skip(`skipped: ${ctx.adapter.network} declares no options`)
      const samples = options.optionSamples ?? []
      const defaults = declared.defaults as Readonly<Record<string, unknown>>
      for (const field of Object.keys(declared.fields)) {
        const covered = samples.some((sample) =>
          Object.hasOwn(sample.values, field) && JSON.stringify(sample.values[field]) !== JSON.stringify(defaults[field])
        )
        assert.isTrue(covered, `no optionSamples entry sets ${field} to other than its default`)
      }
      const { account } = yield* connect(ctx)
      const suiteMedia = (id: string) => {
        const found = /^med_(photo|video)(\d+)$/.exec(id)
        if (found === null) return undefined
        return found[1] === "photo" ? media.photo(ctx, Number(found[2])) : media.video(ctx, Number(found[2]))
      }
      for (const [index, sample] of samples.entries()) {
        const parts: VersionParts = declared.version({ ...defaults, ...sample.values }, suiteMedia)
        const text = `options ${index + 1} ${Date.now()}`
        const published = yield* publishToEnd(ctx.adapter, { account, post: post({ ...textPost(options, ctx, text), ...parts }) })
        const stored = ctx.simulator.state.posts.get(published.id) ??
          [...ctx.simulator.state.posts.values()].find((entry) => entry.text.includes(text))
        assert.isDefined(stored, `the simulator has no post for options sample ${index + 1}`)
        sample.expect(stored!, ctx)
      }
    }))

  it.effect("asks for a reconnect when the grant is revoked (#sandbox-revoke)", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, tokens } = yield* connect(ctx)
      const error = yield* Effect.flip(
        publishToEnd(ctx.adapter, { account, post: textPost(options, ctx, `bye #sandbox-revoke ${Date.now()}`) })
      )
      assert.include(["NeedsReconnect", "AuthExpired"], reasonOf(error))
      if (ctx.adapter.capabilities.refresh) {
        const refused = yield* Effect.flip(refreshOf(ctx.adapter)(Option.getOrThrow(tokens.refreshToken), { server: account.server }))
        assert.strictEqual(reasonOf(refused), "NeedsReconnect")
      }
    }))
}
