import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { backends } from "@herald/db/testing"
import * as Main from "../src/Main.ts"
import { eventually } from "../../../testing/eventually.ts"
import { bearer, closeNow, examplePackage, fastTuning, freePort, quiet, request, settings, workspaceWithKey } from "./harness.ts"

// A receiver that fails at first, a server stopped while retries are pending, another server on the same
// database: the receiver, dropping duplicates by the body's id, ends with exactly one copy of every event.

for (const backend of backends()) {
  describe(`webhooks across a restart, on ${backend.name}`, () => {
    it.live("a restart mid-retry loses nothing; the receiver ends with one copy of every event", () =>
      Effect.scoped(Effect.gen(function*() {
        // Fails the first 12 requests, then answers 200; keeps the ids it accepted.
        let requests = 0
        const accepted = new Map<string, number>()
        const hook = yield* Effect.acquireRelease(
          Effect.promise(() =>
            new Promise<{ url: string; close: () => Promise<void> }>((resolve) => {
              const server = createServer((req, res) => {
                const chunks: Array<Buffer> = []
                req.on("data", (chunk: Buffer) => chunks.push(chunk))
                req.on("end", () => {
                  requests++
                  if (requests <= 12) {
                    res.writeHead(503).end()
                    return
                  }
                  const id = JSON.parse(Buffer.concat(chunks).toString("utf8")).id as string
                  accepted.set(id, (accepted.get(id) ?? 0) + 1)
                  res.writeHead(200).end()
                })
              })
              server.listen(0, "127.0.0.1", () =>
                resolve({
                  url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
                  close: () => closeNow(server)
                }))
            })
          ),
          (made) => Effect.promise(made.close)
        )
        const port = yield* Effect.promise(freePort)
        const database = Layer.succeedContext(yield* Layer.build(backend.layer))
        const server = () =>
          Main.layerWith(
            settings({ port, webhookRetrySchedule: [300, 300, 300, 300, 300, 300], webhookTimeoutMs: 500 }),
            database,
            false,
            [examplePackage],
            fastTuning
          ).pipe(Layer.provide(quiet))

        const first = yield* Scope.make()
        const firstContext = yield* Layer.buildWithScope(server(), first)
        const { key, workspace } = yield* workspaceWithKey().pipe(Effect.provideContext(firstContext))
        const created = yield* request(`http://127.0.0.1:${port}/api/v1/webhooks`, {
          method: "POST",
          headers: { ...bearer(key.key), "content-type": "application/json" },
          body: JSON.stringify({ url: hook.url })
        })
        assert.strictEqual(created.status, 200, created.text)
        const ids = Array.from({ length: 20 }, () => randomUUID())
        yield* Effect.orDie(Effect.flatMap(SqlClient.SqlClient, (sql) =>
          Effect.forEach(ids, (id, index) =>
            sql`INSERT INTO events (id, workspace_id, event, data)
              VALUES (${id}, ${workspace.id}, 'post.deleted', ${JSON.stringify({ postId: `pst_${index}` })}::jsonb)`)
        ).pipe(Effect.provideContext(firstContext)))

        // Stop the first server once some attempts have failed and retries are pending.
        yield* eventually("8 failed attempts", () => requests >= 8)
        yield* Scope.close(first, Exit.void)

        yield* Layer.build(server())
        yield* eventually("every event accepted", () => accepted.size >= ids.length)
        assert.deepStrictEqual([...accepted.keys()].sort(), [...ids].sort())
        assert.isAtLeast(requests, 12 + ids.length)
        // At least once: a repeat is possible (an attempt cut off by the stop), a loss is not.
        for (const count of accepted.values()) assert.isAtLeast(count, 1)
      })))
  })
}
