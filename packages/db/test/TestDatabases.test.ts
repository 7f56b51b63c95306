import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { DatabaseInfo } from "../src/DatabaseInfo.ts"
import { backends } from "../src/testing.ts"

// The test databases `backends()` hands out: each layer's is migrated and empty, however the last one in
// this worker was left, and copying or reusing one never carries a test's rows or schema into the next.

/** What a test sees of its database: which embedded instance, its rows and a sequence's next value. */
const look = Effect.gen(function*() {
  const sql = yield* SqlClient
  const info = yield* DatabaseInfo
  const workspaces = yield* sql<{ id: string }>`SELECT id FROM workspaces`
  const [version] = yield* sql<{ next: string }>`SELECT nextval('sandbox_records_version')::text AS next`
  const [extra] = yield* sql<{ found: boolean }>`SELECT to_regclass('public.test_left_behind') IS NOT NULL AS found`
  return { pglite: Option.getOrUndefined(info.pglite), workspaces: workspaces.map((row) => row.id), next: version!.next, extra: extra!.found }
})

const inLayer = <A, E>(layer: Layer.Layer<SqlClient | DatabaseInfo, unknown>, effect: Effect.Effect<A, E, SqlClient | DatabaseInfo>) =>
  effect.pipe(Effect.provide(layer, { local: true }), Effect.orDie)

describe.each(backends())("the test databases ($name)", (backend) => {
  it.effect("a layer after another that wrote rows and moved a sequence finds the database empty and the sequence at its start", () =>
    Effect.gen(function*() {
      const first = yield* inLayer(backend.layer, Effect.gen(function*() {
        const sql = yield* SqlClient
        yield* sql`INSERT INTO workspaces (id, name) VALUES ('ws_left', 'Left behind')`
        yield* sql`SELECT nextval('sandbox_records_version')`
        return yield* look
      }))
      expect(first.workspaces).toEqual(["ws_left"])
      const second = yield* inLayer(backend.layer, look)
      expect(second.workspaces).toEqual([])
      expect(second.next).toBe("1")
      // The embedded database is the same instance, emptied rather than loaded again.
      if (backend.name === "pglite") expect(second.pglite).toBe(first.pglite)
    }))

  it.effect("a database whose schema a test changed is not handed to the next layer", () =>
    Effect.gen(function*() {
      const first = yield* inLayer(backend.layer, Effect.gen(function*() {
        const sql = yield* SqlClient
        yield* sql.unsafe("CREATE TABLE test_left_behind (id int)")
        return yield* look
      }))
      expect(first.extra).toBe(true)
      const second = yield* inLayer(backend.layer, look)
      expect(second.extra).toBe(false)
      if (backend.name === "pglite") expect(second.pglite).not.toBe(first.pglite)
    }))

  it.effect("two layers open at once get two databases", () =>
    Effect.gen(function*() {
      const both = yield* inLayer(backend.layer, Effect.gen(function*() {
        const sql = yield* SqlClient
        yield* sql`INSERT INTO workspaces (id, name) VALUES ('ws_one', 'One')`
        const other = yield* inLayer(backend.layer, look)
        return { mine: yield* look, other }
      }))
      expect(both.mine.workspaces).toEqual(["ws_one"])
      expect(both.other.workspaces).toEqual([])
      if (backend.name === "pglite") expect(both.other.pglite).not.toBe(both.mine.pglite)
    }))
})
