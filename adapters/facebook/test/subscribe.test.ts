import type { Adapter } from "@herald/adapter-kit"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { assert } from "@effect/vitest"
import { Effect } from "effect"
import * as FacebookAdapter from "../src/FacebookAdapter.ts"
import * as FacebookSimulator from "../src/FacebookSimulator.ts"

// The first inbox fetch installs the app on the Page for the webhook fields (`POST /{page-id}/subscribed_apps`),
// against the simulator over real HTTP; a refusal is only logged, and polling goes on.

AdapterSuite.withHarness({ makeAdapter: FacebookAdapter.make, makeSimulator: FacebookSimulator.simulator })("facebook webhook subscription", (it) => {
  const context = Effect.service(AdapterSuite.Harness)
  /** What the simulator keeps of the app's subscription on the account's Page. */
  const subscription = (ctx: AdapterSuite.Context, account: Adapter.Account) =>
    FacebookSimulator.subscriptionOf(ctx.simulator.state, account.networkAccountId)

  it.effect("the first fetch subscribes the Page to feed and messages, and a fetch with a cursor does not again", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor } = yield* AdapterSuite.startInbox(ctx, "fb_sub_owner")
      assert.deepStrictEqual(subscription(ctx, account), { fields: ["feed", "messages"], calls: 1 })

      const later = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: later.cursor })
      assert.strictEqual(subscription(ctx, account)?.calls, 1)
    }))

  it.effect("a refused subscription does not fail the first fetch: it still gives the first page and its cursor", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor, first, published } = yield* AdapterSuite.startInbox(ctx, "fb_nosub_owner")
      assert.isUndefined(subscription(ctx, account))
      assert.deepStrictEqual([first.comments.length, first.messages.length], [0, 0])
      assert.isString(cursor)

      // Polling goes on from that cursor.
      yield* AdapterSuite.control(ctx, "comments", { username: "fb_nosub_owner", author: "nia", text: "Still here", postId: published.id })
      const next = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      assert.deepStrictEqual(next.comments.map((entry) => entry.text), ["Still here"])
    }))
})
