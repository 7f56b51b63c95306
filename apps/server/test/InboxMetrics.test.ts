import { assert, layer } from "@effect/vitest"
import { Duration, Effect, Metric } from "effect"
import { SqlClient } from "effect/sql"
import { PublishError } from "@herald/adapter-kit"
import { Inbox, Metrics } from "@herald/core"
import { backends } from "@herald/db/testing"
import { fastTuning, serverLayer } from "./harness.ts"
import { exampleWith, setup } from "./inbox.ts"

// `herald_inbox_rounds_total{network}` counts every account read in a polling round, and
// `herald_inbox_failures_total{network}` every one that failed. The server runs as `api`, so no background
// round interferes: each `pollDue` here is exactly one round.

/** Accounts whose inbox the network stops answering, once they are connected. */
const downFor = new Set<string>()

/** The example network, down for the accounts in `downFor`. */
const patchyExample = exampleWith((inbox) => ({
  fetch: (input) =>
    downFor.has(input.account.username)
      ? Effect.fail(PublishError.transient("example", "The inbox is down for maintenance"))
      : inbox.fetch(input)
}))

const counts = Effect.all({
  rounds: Effect.map(Metric.value(Metric.withAttributes(Metrics.inboxRounds, { network: "example" })), (state) => state.count),
  failures: Effect.map(Metric.value(Metric.withAttributes(Metrics.inboxFailures, { network: "example" })), (state) => state.count)
})

for (const backend of backends()) {
  layer(serverLayer({ role: "api" }, [patchyExample], backend, { ...fastTuning, inboxPollEvery: Duration.zero }), { excludeTestServices: true })(`inbox metrics on ${backend.name}`, (it) => {
    it.effect("counts each account read by network, and each read that failed", () =>
      Effect.gen(function*() {
        const inbox = yield* Inbox.Inbox
        yield* setup("up")
        yield* setup("up")
        const down = yield* setup("down")
        downFor.add(`${down.tag}_ex`)
        // Due a second ago: a cursor made at connect is due at the database's now() (microseconds), which
        // can be later than the round's own clock (milliseconds) when both fall in the same millisecond.
        const sql = yield* SqlClient.SqlClient
        yield* Effect.orDie(sql`UPDATE inbox_cursors SET next_poll_at = now() - interval '1 second'`)
        const before = yield* counts
        yield* Effect.orDie(inbox.pollDue)
        const after = yield* counts
        assert.deepStrictEqual(
          { rounds: after.rounds - before.rounds, failures: after.failures - before.failures },
          { rounds: 3, failures: 1 }
        )
      }))
  })
}
