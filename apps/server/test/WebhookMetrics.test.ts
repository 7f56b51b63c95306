import { assert, layer } from "@effect/vitest"
import { Effect, Metric } from "effect"
import { SqlClient } from "effect/sql"
import { randomUUID } from "node:crypto"
import { Metrics } from "@herald/core"
import { backends } from "@herald/db/testing"
import { eventually } from "../../../testing/eventually.ts"
import { apiWithKey, freePort, serverLayer, workspaceWithKey } from "./harness.ts"
import { receiver } from "./statusReceiver.ts"

// The webhook series: `herald_webhook_attempts_total{outcome}` (delivered: a 2xx; failed: another answer;
// unreachable: no answer), `herald_webhook_delivery_latency_seconds` (from the event to the 2xx) and
// `herald_webhook_endpoints_disabled_total` (an endpoint switched off by its failures, not by hand).

const attempts = (outcome: string) =>
  Effect.map(Metric.value(Metric.withAttributes(Metrics.webhookAttempts, { outcome })), (state) => state.count)

const counts = Effect.all({
  delivered: attempts("delivered"),
  failed: attempts("failed"),
  unreachable: attempts("unreachable"),
  disabled: Effect.map(Metric.value(Metrics.webhookEndpointsDisabled), (state) => state.count),
  latencies: Effect.map(Metric.value(Metrics.webhookDeliveryLatency), (state) => state.count),
  latencySum: Effect.map(Metric.value(Metrics.webhookDeliveryLatency), (state) => state.sum)
})

const until = <A>(check: Effect.Effect<A>, done: (value: A) => boolean, what: string) =>
  eventually(what, Effect.map(check, (value) => done(value) && value))

const setup = Effect.gen(function*() {
  const { key, workspace } = yield* workspaceWithKey()
  const send = yield* apiWithKey(key.key)
  const endpoint = (url: string) => Effect.map(send("POST", "/webhooks", { url, events: [] }), (answer) => answer.body.data.id as string)
  const test = (endpointId: string) => Effect.map(send("POST", `/webhooks/${endpointId}/test`), (answer) => answer.body.data)
  return { send, workspace, endpoint, test }
})

// One failed event switches an endpoint off here, so each failing endpoint is switched off by its first test.
layer(serverLayer({ webhookDisableAfter: 1 }, undefined, backends()[0]), { excludeTestServices: true })(
  "webhook metrics",
  (it) => {
    it.effect("counts each attempt once by its outcome: a 2xx, another answer, no answer", () =>
      Effect.scoped(Effect.gen(function*() {
        const healthy = yield* receiver(204)
        const failing = yield* receiver(500)
        const { endpoint, test } = yield* setup
        const before = yield* counts

        assert.strictEqual((yield* test(yield* endpoint(healthy.url))).statusCode, 204)
        assert.deepStrictEqual(
          { ...(yield* counts), latencySum: 0 },
          { ...before, delivered: before.delivered + 1, latencies: before.latencies + 1, latencySum: 0 }
        )

        assert.strictEqual((yield* test(yield* endpoint(failing.url))).statusCode, 500)
        // Nobody listens on a port that was free a moment ago: refused, no answer.
        const nowhere = yield* test(yield* endpoint(`http://127.0.0.1:${yield* Effect.promise(freePort)}/hook`))
        assert.strictEqual(nowhere.statusCode, null)
        assert.match(nowhere.error, /connection refused/)

        const after = yield* until(counts, (now) => now.disabled === before.disabled + 2, "two switch-offs")
        assert.deepStrictEqual(
          { ...after, latencySum: 0 },
          {
            delivered: before.delivered + 1,
            failed: before.failed + 1,
            unreachable: before.unreachable + 1,
            // The failed test event and the refused one each reached the threshold of 1.
            disabled: before.disabled + 2,
            latencies: before.latencies + 1,
            latencySum: 0
          }
        )
      })))

    it.effect("measures delivery latency from the event's creation, not from the attempt", () =>
      Effect.scoped(Effect.gen(function*() {
        const healthy = yield* receiver(200)
        const { endpoint, workspace } = yield* setup
        yield* endpoint(healthy.url)
        const before = yield* counts
        // An event that happened 30 s before it reached the outbox's sender.
        const sql = yield* SqlClient.SqlClient
        const written = Date.now()
        yield* Effect.orDie(sql`INSERT INTO events (id, workspace_id, event, data, created_at)
          VALUES (${randomUUID()}, ${workspace.id}, 'post.created', '{"postId":"pst_late"}'::jsonb, now() - interval '30 seconds')`)
        const after = yield* until(counts, (now) => now.delivered > before.delivered, "the delivery")
        const waited = (Date.now() - written) / 1000
        assert.strictEqual(after.latencies, before.latencies + 1)
        const seconds = after.latencySum - before.latencySum
        // The 30 s before the outbox, and at most what this test waited for the delivery (however long that was).
        assert.isAtLeast(seconds, 30)
        assert.isAtMost(seconds, 30 + waited + 1)
      })))

    it.effect("a switch-off by hand is not counted", () =>
      Effect.scoped(Effect.gen(function*() {
        const healthy = yield* receiver(200)
        const failing = yield* receiver(500)
        const { endpoint, send, test } = yield* setup
        const id = yield* endpoint(healthy.url)
        const before = yield* counts
        assert.strictEqual((yield* send("PATCH", `/webhooks/${id}`, { enabled: false })).status, 200)
        assert.strictEqual((yield* counts).disabled, before.disabled)
        // A switch-off by failures after it is counted, once: the one by hand was not, then or since.
        assert.strictEqual((yield* test(yield* endpoint(failing.url))).statusCode, 500)
        const after = yield* until(counts, (now) => now.disabled > before.disabled, "the switch-off by failures")
        assert.strictEqual(after.disabled, before.disabled + 1)
      })))
  }
)
