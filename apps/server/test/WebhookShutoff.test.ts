import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { backends } from "@herald/db/testing"
import { eventually } from "../../../testing/eventually.ts"
import { apiWithKey, closeNow, examplePackage, serverLayer, workspaceWithKey } from "./harness.ts"
import { settled } from "./webhookState.ts"

// 2,000 events to one endpoint with the default switch-off count (50 failed events in a row) and the
// compressed retry schedule (200 ms, 400 ms): a short outage that fails each event's first attempt, then a
// receiver down for real that switches the endpoint off, events while it is off, and the switch-on. Every
// event arrives.

type Mode = "first-attempt-fails" | "down" | "up"

/** A local receiver whose behaviour the test switches; it keeps the ids it accepted, in arrival order. */
const receiver = Effect.acquireRelease(
  Effect.promise(() =>
    new Promise<{
      url: string
      mode: { current: Mode }
      requests: { count: number }
      accepted: Array<string>
      close: () => Promise<void>
    }>((resolve) => {
      const mode = { current: "up" as Mode }
      const requests = { count: 0 }
      const accepted: Array<string> = []
      const seen = new Set<string>()
      const server = createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (chunk: Buffer) => chunks.push(chunk))
        req.on("end", () => {
          requests.count++
          const id = JSON.parse(Buffer.concat(chunks).toString("utf8")).id as string
          const first = !seen.has(id)
          seen.add(id)
          if (mode.current === "down" || (mode.current === "first-attempt-fails" && first)) {
            res.writeHead(503).end()
            return
          }
          accepted.push(id)
          res.writeHead(200).end()
        })
      })
      server.listen(0, "127.0.0.1", () =>
        resolve({
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
          mode,
          requests,
          accepted,
          close: () => closeNow(server)
        }))
    })
  ),
  (made) => Effect.promise(made.close)
)

/** How many pairs of `order` are the wrong way round, as a share of all pairs. */
const inversions = (order: ReadonlyArray<number>) => {
  let wrong = 0
  for (let i = 0; i < order.length; i++) for (let j = i + 1; j < order.length; j++) if (order[i]! > order[j]!) wrong++
  return wrong / (order.length * (order.length - 1) / 2)
}

for (const backend of backends()) layer(serverLayer({}, [examplePackage], backend), { excludeTestServices: true })(`webhook switch-off on ${backend.name}`, (it) => {
  it.effect("2,000 events across an outage and a switch-off and on: every one arrives", () =>
    Effect.scoped(Effect.gen(function*() {
      const hook = yield* receiver
      const { key, workspace } = yield* workspaceWithKey()
      const send = yield* apiWithKey(key.key)
      const endpoint = (yield* send("POST", "/webhooks", { url: hook.url })).body.data
      const enabled = Effect.map(send("GET", `/webhooks/${endpoint.id}`), (answer) => answer.body.data.enabled as boolean)
      const sql = yield* SqlClient.SqlClient
      const ids: Array<string> = Array.from({ length: 2_000 }, () => randomUUID())
      // Events as the outbox holds them, written in order (one statement for each slice).
      const write = (from: number, to: number) => {
        const rows = ids.slice(from, to).map((id, index) => ({
          id,
          workspace_id: workspace.id,
          event: "post.deleted",
          data: JSON.stringify({ postId: `pst_${from + index}` })
        }))
        return Effect.orDie(sql`INSERT INTO events ${sql.insert(rows as [typeof rows[number], ...typeof rows])}`)
      }
      const received = () => new Set(hook.accepted)

      // 1. An outage that fails each event's first attempt: 700 failed attempts, none of an event whose retry
      // failed too, so the endpoint stays on.
      hook.mode.current = "first-attempt-fails"
      yield* write(0, 700)
      // Stops early if the endpoint goes off, which is the failure this part is about.
      yield* eventually(
        "the outage's 700 events",
        Effect.suspend(() => ids.slice(0, 700).every((id) => received().has(id)) ? Effect.succeed(true) : Effect.map(enabled, (on) => !on))
      )
      assert.isTrue(yield* enabled, "an outage that only the first attempts saw does not switch the endpoint off")
      assert.isAtLeast(hook.requests.count, 1_400)

      // 2. Down for real: every attempt fails, and after 50 events that failed their retry too it is off.
      hook.mode.current = "down"
      yield* write(700, 1_400)
      yield* eventually("the switch-off", Effect.map(enabled, (on) => !on))
      const [counted] = yield* Effect.orDie(sql<{ readonly consecutiveFailures: number }>`
        SELECT consecutive_failures FROM webhook_endpoints WHERE id = ${endpoint.id}`)
      assert.isAtLeast(counted!.consecutiveFailures, 50)

      // 3. Events while it is off are kept, not sent. Once the endpoint has settled (the attempts claimed
      // before the switch-off have ended and been recorded, its messages held), the new events are fanned out
      // as held messages, which are never claimed: once they all are, nothing more can reach the receiver.
      yield* settled(endpoint.id)
      const before = hook.requests.count
      yield* write(1_400, 2_000)
      yield* eventually("the events written while it is off to be fanned out", Effect.map(
        Effect.orDie(sql<{ readonly count: number | string }>`
          SELECT count(*) AS count FROM events WHERE workspace_id = ${workspace.id} AND NOT dispatched`),
        ([row]) => Number(row!.count) === 0
      ))
      const kept = yield* settled(endpoint.id)
      assert.strictEqual(hook.requests.count, before, "nothing is sent while the endpoint is off")
      const undelivered = ids.filter((id) => !received().has(id))
      assert.strictEqual(kept.held, undelivered.length, "every event not yet delivered is kept")
      assert.isAtLeast(undelivered.length, 600)

      // 4. Switched on with the receiver back: every event arrives, the kept ones oldest first.
      hook.mode.current = "up"
      const arrivedBefore = hook.accepted.length
      const on = yield* send("PATCH", `/webhooks/${endpoint.id}`, { enabled: true })
      assert.strictEqual(on.status, 200, on.text)
      yield* eventually("every event after the switch-on", () => received().size === ids.length)
      assert.deepStrictEqual([...received()].sort(), [...ids].sort())
      const position = new Map(ids.map((id, index) => [id, index]))
      const replayed = hook.accepted.slice(arrivedBefore).map((id) => position.get(id)!)
      // Up to 32 are under way at once, so arrivals may swap places among neighbours; in no particular
      // order half of all pairs would be the wrong way round.
      assert.isBelow(inversions(replayed), 0.05, "the kept events arrive oldest first")
      assert.isTrue(yield* enabled)
    })))
})
