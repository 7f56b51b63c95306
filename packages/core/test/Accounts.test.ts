import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient, Statement } from "effect/sql"
import { backends } from "@herald/db/testing"
import { eventually } from "../../../testing/eventually.ts"
import { Accounts, Workspaces } from "../src/index.ts"

for (const backend of backends()) {
  layer(
    Layer.mergeAll(Accounts.Accounts.layer, Workspaces.Workspaces.layer).pipe(Layer.provideMerge(backend.layer)),
    { excludeTestServices: true }
  )(`Accounts on ${backend.name}`, (it) => {
    const insert = (workspaceId: string, id: string, username: string, status = "connected") =>
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql`INSERT INTO accounts (id, workspace_id, platform, username, status)
          VALUES (${id}, ${workspaceId}, 'threads', ${username}, ${status})`)

    it.effect("lists a workspace's accounts, not disconnected ones, and sees changes once told", () =>
      Effect.gen(function*() {
        const workspaces = yield* Workspaces.Workspaces
        const accounts = yield* Accounts.Accounts
        const workspace = yield* workspaces.create({ name: "Cache" })
        yield* insert(workspace.id, "acc_cache00000000000000001", "first")
        yield* insert(workspace.id, "acc_cache00000000000000002", "gone", "disconnected")
        assert.deepStrictEqual((yield* accounts.list(workspace.id)).map((account) => account.username), ["first"])
        yield* insert(workspace.id, "acc_cache00000000000000003", "second")
        yield* accounts.changed(workspace.id)
        assert.deepStrictEqual((yield* accounts.list(workspace.id)).map((account) => account.username), [
          "first",
          "second"
        ])
      }))

    it.effect("loads a workspace's accounts once, however many requests race with a cold cache", () =>
      Effect.gen(function*() {
        const workspaces = yield* Workspaces.Workspaces
        const accounts = yield* Accounts.Accounts
        const workspace = yield* workspaces.create({ name: "Race" })
        yield* insert(workspace.id, "acc_race000000000000000001", "first")
        const statements: Array<string> = []
        const counted = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
          Effect.provideService(effect, Statement.CurrentTransformer, (statement) =>
            Effect.sync(() => {
              statements.push(statement.compile()[0])
              return statement
            }))
        // A client opening 50 connections at once to a process that has not listed this workspace yet.
        const lists = yield* counted(
          Effect.all(Array.from({ length: 50 }, () => accounts.list(workspace.id)), { concurrency: "unbounded" })
        )
        assert.isTrue(lists.every((list) => list.length === 1 && list[0]?.username === "first"))
        const loads = statements.filter((text) => /FROM accounts WHERE workspace_id/.test(text)).length
        assert.strictEqual(loads, 1, statements.join("\n"))
        // Once told of a change, the next list loads again.
        yield* accounts.changed(workspace.id)
        yield* counted(accounts.list(workspace.id))
        assert.strictEqual(statements.filter((text) => /FROM accounts WHERE workspace_id/.test(text)).length, 2)
      }))

    it.effect("evicts the list in another process sharing the database", () =>
      Effect.gen(function*() {
        const workspaces = yield* Workspaces.Workspaces
        const accounts = yield* Accounts.Accounts
        const workspace = yield* workspaces.create({ name: "Shared" })
        assert.deepStrictEqual(yield* accounts.list(workspace.id), [])
        // A second Accounts over the same database stands for another Herald process.
        const other = yield* Layer.build(Layer.fresh(Accounts.Accounts.layer))
        yield* insert(workspace.id, "acc_share00000000000000001", "new")
        yield* Accounts.Accounts.pipe(
          Effect.flatMap((service) => service.changed(workspace.id)),
          Effect.provideContext(other)
        )
        // It hears of the change through LISTEN/NOTIFY, and reads the list again.
        const listed = yield* eventually(
          "the change heard",
          Effect.map(accounts.list(workspace.id), (list) => list.length > 0 && list.map((account) => account.username))
        )
        assert.deepStrictEqual(listed, ["new"])
      }).pipe(Effect.scoped))
  })
}
