import type { Adapter } from "@herald/adapter-kit"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { assert } from "@effect/vitest"
import { Effect, Logger, Redacted } from "effect"
import * as InstagramAdapter from "../src/InstagramAdapter.ts"
import * as InstagramConfig from "../src/InstagramConfig.ts"
import * as InstagramSimulator from "../src/InstagramSimulator.ts"

// The webhook subscription the inbox makes on an account's first fetch (`POST /me/subscribed_apps`, step 3
// of https://developers.facebook.com/docs/instagram-platform/webhooks), against the simulator over real HTTP.
// What the account is subscribed to is read back as Meta shows it, with `GET /me/subscribed_apps`.

const subscribedApps = (context: AdapterSuite.Context, account: Adapter.Account, init: RequestInit = {}, query = "") =>
  Effect.promise(async () => {
    const url = `${context.baseUrl}/sandbox/${context.simulator.network}/${InstagramConfig.apiVersion}/me/subscribed_apps${query}`
    const response = await fetch(url, {
      ...init,
      headers: { authorization: `Bearer ${Redacted.value(account.accessToken)}` }
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  })

/** The fields the account has turned on for the app; empty when it has not subscribed. */
const fieldsOf = (context: AdapterSuite.Context, account: Adapter.Account) =>
  Effect.map(subscribedApps(context, account), ({ body }) =>
    (body["data"] as ReadonlyArray<{ readonly subscribed_fields: ReadonlyArray<string> }>).flatMap((app) => app.subscribed_fields))

/** Runs `effect` with its log lines (logfmt) collected in `lines`. */
const capturingLogs = <A, E, R>(effect: Effect.Effect<A, E, R>, lines: Array<string>) =>
  effect.pipe(Effect.provide(Logger.layer([Logger.make((options) => void lines.push(Logger.formatLogFmt.log(options)))])))

/** The harness and a newly connected account, not yet subscribed. */
const connected = (username: string) =>
  Effect.flatMap(Effect.service(AdapterSuite.Harness), (ctx) =>
    Effect.map(AdapterSuite.connect(ctx, username), ({ account }) => ({ ctx, account })))

const suite = AdapterSuite.withHarness({ makeAdapter: InstagramAdapter.make, makeSimulator: InstagramSimulator.simulator })

suite("instagram webhook subscription", (it) => {
  it.effect("the first fetch subscribes the account to comments and messages", () =>
    Effect.gen(function*() {
      const { ctx, account } = yield* connected("ig_sub_first")
      assert.deepStrictEqual(yield* fieldsOf(ctx, account), [])

      const lines: Array<string> = []
      const first = yield* capturingLogs(AdapterSuite.inboxOf(ctx).fetch({ account, cursor: null }), lines)
      assert.deepStrictEqual([first.comments.length, first.messages.length], [0, 0])
      assert.deepStrictEqual(yield* fieldsOf(ctx, account), ["comments", "messages"])
      assert.isFalse(lines.some((line) => line.includes("webhook")), lines.join("\n"))
    }))

  it.effect("a fetch with a cursor does not subscribe again", () =>
    Effect.gen(function*() {
      const { ctx, account } = yield* connected("ig_sub_later")
      const first = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: null })
      assert.deepStrictEqual(yield* fieldsOf(ctx, account), ["comments", "messages"])

      // Another subscription in between: a second call from the adapter would put its fields back.
      const changed = yield* subscribedApps(ctx, account, { method: "POST" }, "?subscribed_fields=mentions")
      assert.deepStrictEqual([changed.status, changed.body], [200, { success: true }])

      const next = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: first.cursor })
      yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: next.cursor })
      assert.deepStrictEqual(yield* fieldsOf(ctx, account), ["mentions"])
    }))

  it.effect("a refused subscription is logged and the first page still comes, with a cursor that works", () =>
    Effect.gen(function*() {
      const ctx = yield* Effect.service(AdapterSuite.Harness)
      const { account, cursor, first, published } = yield* AdapterSuite.startInbox(ctx, "ig_nosub_account", {
        post: { text: `photo ${Date.now()}`, media: [AdapterSuite.media.photo(ctx)] }
      })
      assert.deepStrictEqual([first.comments.length, first.messages.length], [0, 0])
      assert.deepStrictEqual(yield* fieldsOf(ctx, account), [])

      // The same first fetch again, its log kept: a warning naming the account and Instagram's reason.
      const lines: Array<string> = []
      const again = yield* capturingLogs(AdapterSuite.inboxOf(ctx).fetch({ account, cursor: null }), lines)
      assert.deepStrictEqual([again.comments.length, again.messages.length], [0, 0])
      const warning = lines.find((line) => line.includes("webhook"))
      assert.isDefined(warning, lines.join("\n"))
      assert.include(warning!, "level=WARN")
      assert.include(warning!, `account=${account.networkAccountId}`)
      assert.include(warning!, "#200")

      yield* AdapterSuite.control(ctx, "comments", { username: "ig_nosub_account", author: "nora", text: "Polled anyway", postId: published.id })
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      assert.deepStrictEqual(page.comments.map((comment) => comment.text), ["Polled anyway"])
    }))
})
