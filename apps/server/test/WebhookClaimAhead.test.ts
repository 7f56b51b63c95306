import { assert, describe, it as plain, layer } from "@effect/vitest"
import { Effect, Exit, Layer, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { backends } from "@herald/db/testing"
import * as Main from "../src/Main.ts"
import { eventually, pause } from "../../../testing/eventually.ts"
import { apiWithKey, closeNow, examplePackage, fastTuning, quiet, serverLayer, settings, workspaceWithKey } from "./harness.ts"

// The sender claims an endpoint's messages ahead of its slots (4 rounds of 32), so that a freed slot is
// taken at once instead of after a claim's round trip; the receiver still never has more than its 32
// requests at once, and every event arrives once.

/** A receiver that holds every answer until `release` settles, counting the requests it has open at once. */
const holdingReceiver = (release: Promise<void>) =>
  Effect.acquireRelease(
    Effect.promise(() =>
      new Promise<{ url: string; ids: Array<string>; open: { now: number; most: number }; close: () => Promise<void> }>((resolve) => {
        const ids: Array<string> = []
        const open = { now: 0, most: 0 }
        const server = createServer((request, response) => {
          open.now++
          open.most = Math.max(open.most, open.now)
          const chunks: Array<Buffer> = []
          request.on("data", (chunk: Buffer) => chunks.push(chunk))
          request.on("end", () => {
            ids.push(JSON.parse(Buffer.concat(chunks).toString("utf8")).id)
            void release.then(() => {
              open.now--
              response.writeHead(200).end()
            })
          })
        })
        server.listen(0, "127.0.0.1", () =>
          resolve({
            url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
            ids,
            open,
            close: () => closeNow(server)
          }))
      })
    ),
    (made) => Effect.promise(made.close)
  )

const until = (check: () => boolean, what: string) => eventually(what, check)

for (const backend of backends()) layer(serverLayer({}, [examplePackage], backend), { excludeTestServices: true })(
  `webhook claims ahead on ${backend.name}`,
  (it) => {
    it.effect("claims four rounds of an endpoint's messages, sends at most its 32 at once, and delivers each event once", () =>
      Effect.scoped(Effect.gen(function*() {
        const release = Promise.withResolvers<void>()
        yield* Effect.addFinalizer(() => Effect.sync(() => release.resolve()))
        const hook = yield* holdingReceiver(release.promise)
        const { key, workspace } = yield* workspaceWithKey()
        const send = yield* apiWithKey(key.key)
        const endpointId = (yield* send("POST", "/webhooks", { url: hook.url, events: ["post.created"] })).body.data.id as string
        const sql = yield* SqlClient.SqlClient
        yield* Effect.orDie(sql`INSERT INTO events (id, workspace_id, event, data)
          SELECT gen_random_uuid(), ${workspace.id}, 'post.created', jsonb_build_object('postId', 'pst_ahead' || g)
          FROM generate_series(1, 200) g`)
        const leased = Effect.map(
          Effect.orDie(sql<{ readonly count: number | string }>`
            SELECT count(*) AS count FROM webhook_messages
            WHERE endpoint_id = ${endpointId} AND state = 'pending' AND next_attempt_at > now()`),
          (rows) => Number(rows[0]!.count)
        )

        yield* until(() => hook.ids.length >= 32, "the first 32 requests")
        // The 32 answers are held: the claims ahead fill up to 128 and no 33rd request goes out.
        const claimed = yield* eventually("four rounds claimed", Effect.map(leased, (count) => count >= 128 && count))
        assert.strictEqual(claimed, 128, "four rounds of 32 claimed")
        // That nothing more goes out cannot be shown by a later event (the 96 claimed ahead wait in memory
        // for a slot): a moment is given for a 33rd request, which a loaded machine only makes later.
        yield* pause(300)
        assert.strictEqual(hook.ids.length, 32, "no more requests than the endpoint's slots")

        release.resolve()
        // Every message delivered and recorded: none is left to send, so the count is final.
        yield* eventually("every event delivered", Effect.map(
          Effect.orDie(sql<{ readonly count: number | string }>`
            SELECT count(*) AS count FROM webhook_messages WHERE endpoint_id = ${endpointId} AND state = 'succeeded'`),
          ([row]) => Number(row!.count) === 200
        ))
        assert.strictEqual(hook.ids.length, 200)
        assert.strictEqual(new Set(hook.ids).size, 200, "each event once")
        assert.isAtMost(hook.open.most, 32)
      })))
  }
)

// Stopped while messages claimed ahead wait for a slot, a process gives them back (due at once, their claim
// not counted as an attempt) instead of leaving them to a lease of four timeouts; the 32 under way keep theirs.
for (const backend of backends()) {
  describe(`webhook claims ahead at a stop, on ${backend.name}`, () => {
    plain.live("gives back the messages still waiting for a slot", () =>
      Effect.scoped(Effect.gen(function*() {
        const release = Promise.withResolvers<void>()
        yield* Effect.addFinalizer(() => Effect.sync(() => release.resolve()))
        const hook = yield* holdingReceiver(release.promise)
        const databaseContext = yield* Layer.build(backend.layer)
        const running = yield* Scope.make()
        const context = yield* Layer.buildWithScope(
          Main.layerWith(settings({}), Layer.succeedContext(databaseContext), false, [examplePackage], fastTuning).pipe(
            Layer.provide(quiet)
          ),
          running
        )
        const { key, workspace } = yield* workspaceWithKey().pipe(Effect.provideContext(context))
        const send = yield* apiWithKey(key.key).pipe(Effect.provideContext(context))
        const endpointId = (yield* send("POST", "/webhooks", { url: hook.url, events: ["post.created"] })).body.data.id as string
        const query = <A>(effect: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
          Effect.orDie(Effect.flatMap(SqlClient.SqlClient, effect).pipe(Effect.provideContext(databaseContext)))
        yield* query((sql) => sql`INSERT INTO events (id, workspace_id, event, data)
          SELECT gen_random_uuid(), ${workspace.id}, 'post.created', jsonb_build_object('postId', 'pst_stop' || g)
          FROM generate_series(1, 200) g`)
        const states = query((sql) =>
          Effect.map(
            sql<{ readonly leased: number | string; readonly due: number | string; readonly counted: number | string }>`
              SELECT count(*) FILTER (WHERE next_attempt_at > now()) AS leased,
                count(*) FILTER (WHERE next_attempt_at <= now()) AS due,
                coalesce(sum(attempts), 0) AS counted
              FROM webhook_messages WHERE endpoint_id = ${endpointId} AND state = 'pending'`,
            (rows) => ({ leased: Number(rows[0]!.leased), due: Number(rows[0]!.due), counted: Number(rows[0]!.counted) })
          ))
        yield* until(() => hook.ids.length >= 32, "the first 32 requests")
        yield* eventually("four rounds claimed", Effect.map(states, (now) => now.leased >= 128))
        assert.deepStrictEqual(yield* states, { leased: 128, due: 72, counted: 128 })

        yield* Scope.close(running, Exit.void)
        // The 32 under way keep their lease (their outcome is unknown); the 96 waiting are due again, unattempted.
        assert.deepStrictEqual(yield* states, { leased: 32, due: 168, counted: 32 })
        assert.strictEqual(hook.ids.length, 32)
      })))
  })
}
