import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient, Statement } from "effect/sql"
import { backends } from "@herald/db/testing"
import { ApiKeys, Workspaces } from "../src/index.ts"
import * as KeyFormat from "../src/internal/apiKeyFormat.ts"
import { eventually, pause } from "../../../testing/eventually.ts"

describe("key format", () => {
  it("makes keys with the hrld_ prefix, 54 characters, that pass their own checksum", () => {
    const key = KeyFormat.generate()
    assert.match(key, /^hrld_[0-9A-Za-z]{49}$/)
    assert.strictEqual(KeyFormat.parse(key)._tag, "WellFormed")
    assert.notStrictEqual(KeyFormat.generate(), key)
  })

  it("catches a changed character through the checksum, without a lookup", () => {
    const key = KeyFormat.generate()
    const index = 20
    const changed = key.slice(0, index) + (key[index] === "a" ? "b" : "a") + key.slice(index + 1)
    assert.strictEqual(KeyFormat.parse(changed)._tag, "BadChecksum")
    assert.strictEqual(KeyFormat.parse("hrld_short")._tag, "Malformed")
    assert.strictEqual(KeyFormat.parse("")._tag, "Missing")
  })
})

for (const backend of backends()) {
  layer(ApiKeys.ApiKeys.layer.pipe(Layer.provideMerge(backend.layer)),
    // The live clock: last-use writes and revocation notices really run in the background.
    { excludeTestServices: true })(
    `ApiKeys on ${backend.name}`,
    (it) => {
      it.effect("stores only a SHA-256 of the key and shows the key once", () =>
        Effect.gen(function*() {
          const workspaces = yield* Workspaces.Workspaces
          const apiKeys = yield* ApiKeys.ApiKeys
          const sql = yield* SqlClient.SqlClient
          const workspace = yield* workspaces.create({ name: "Acme", ownerEmail: "Owner@Example.com" })
          const created = yield* apiKeys.create({ workspaceId: workspace.id, name: "CI" })
          assert.strictEqual(created.lastFour, created.key.slice(-4))
          assert.strictEqual(created.prefix, "hrld_")
          const rows = yield* sql<{ readonly hash: Uint8Array }>`SELECT * FROM api_keys WHERE id = ${created.id}`
          const stored = JSON.stringify(rows, (_key, value) => value instanceof Uint8Array ? [...value] : value)
          assert.notInclude(stored, created.key)
          assert.deepStrictEqual([...rows[0]!.hash], [...KeyFormat.hash(created.key)])
          const listed = yield* apiKeys.list(workspace.id)
          assert.deepStrictEqual(listed.map((key) => key.id), [created.id])
          assert.notProperty(listed[0]!, "key")
          const members = yield* workspaces.members(workspace.id)
          assert.deepStrictEqual(members.map((member) => [member.email, member.role]), [["owner@example.com", "owner"]])
        }))

      it.effect("authenticates a key to its workspace and records its last use", () =>
        Effect.gen(function*() {
          const workspaces = yield* Workspaces.Workspaces
          const apiKeys = yield* ApiKeys.ApiKeys
          const workspace = yield* workspaces.create({ name: "Beta" })
          const created = yield* apiKeys.create({ workspaceId: workspace.id })
          const principal = yield* apiKeys.authenticate(created.key)
          assert.strictEqual(principal.workspaceId, workspace.id)
          assert.strictEqual(principal.keyId, created.id)
          // The last-use write runs off the request path: it comes.
          yield* eventually("the last use written", Effect.map(apiKeys.list(workspace.id), ([listed]) => listed!.lastUsedAt !== null))
        }))

      it.effect("refuses a revoked key at once, even after it was cached", () =>
        Effect.gen(function*() {
          const workspaces = yield* Workspaces.Workspaces
          const apiKeys = yield* ApiKeys.ApiKeys
          const workspace = yield* workspaces.create({ name: "Gamma" })
          const created = yield* apiKeys.create({ workspaceId: workspace.id })
          yield* apiKeys.authenticate(created.key)
          const revoked = yield* apiKeys.revoke(created.id)
          assert.isNotNull(revoked.revokedAt)
          const refused = yield* Effect.flip(apiKeys.authenticate(created.key))
          assert.strictEqual(refused._tag, "Unauthenticated")
          assert.strictEqual((refused as ApiKeys.Unauthenticated).reason, "revoked")
        }))

      it.effect("names unknown workspaces and keys", () =>
        Effect.gen(function*() {
          const apiKeys = yield* ApiKeys.ApiKeys
          const missingWorkspace = yield* Effect.flip(apiKeys.create({ workspaceId: "ws_0000000000000000000000" }))
          assert.strictEqual(missingWorkspace._tag, "WorkspaceNotFound")
          assert.include(missingWorkspace.message, "ws_0000000000000000000000")
          const missingKey = yield* Effect.flip(apiKeys.revoke("key_0000000000000000000000"))
          assert.strictEqual(missingKey._tag, "ApiKeyNotFound")
        }))

      it.effect("evicts a key revoked by another process sharing the database", () =>
        Effect.gen(function*() {
          const workspaces = yield* Workspaces.Workspaces
          const apiKeys = yield* ApiKeys.ApiKeys
          const workspace = yield* workspaces.create({ name: "Delta" })
          const created = yield* apiKeys.create({ workspaceId: workspace.id })
          yield* apiKeys.authenticate(created.key)
          // A second ApiKeys over the same database stands for another Herald process.
          const other = yield* Layer.build(Layer.fresh(ApiKeys.ApiKeys.layerNoDeps))
          yield* ApiKeys.ApiKeys.pipe(Effect.flatMap((service) => service.revoke(created.id)), Effect.provideContext(other))
          // This instance had the key cached; it hears of the revocation through LISTEN/NOTIFY.
          const refused = yield* eventually(
            "the revocation heard",
            Effect.map(Effect.result(apiKeys.authenticate(created.key)), (result) => result._tag === "Failure" && result.failure)
          )
          assert.strictEqual(refused._tag, "Unauthenticated")
        }).pipe(Effect.scoped))

      it.effect("makes one lookup and one last-use write for a new key, however many requests race with it", () =>
        Effect.gen(function*() {
          const workspaces = yield* Workspaces.Workspaces
          const apiKeys = yield* ApiKeys.ApiKeys
          const workspace = yield* workspaces.create({ name: "Epsilon" })
          const created = yield* apiKeys.create({ workspaceId: workspace.id })
          const unknown = KeyFormat.generate()
          const statements: Array<string> = []
          const counted = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
            Effect.provideService(effect, Statement.CurrentTransformer, (statement) =>
              Effect.sync(() => {
                statements.push(statement.compile()[0])
                return statement
              }))
          // A client opening 50 connections at once with a key this process has not seen yet.
          const principals = yield* counted(
            Effect.all(Array.from({ length: 50 }, () => apiKeys.authenticate(created.key)), { concurrency: "unbounded" })
          )
          assert.isTrue(principals.every((principal) => principal.keyId === created.id))
          const refusals = yield* counted(
            Effect.all(Array.from({ length: 50 }, () => Effect.flip(apiKeys.authenticate(unknown))), { concurrency: "unbounded" })
          )
          assert.isTrue(refusals.every((refused) => refused._tag === "Unauthenticated"))
          const count = (pattern: RegExp) => statements.filter((text) => pattern.test(text)).length
          // The last-use write runs off the request path: it comes, and then (a moment given for the others,
          // which only a time can show do not come) it was the only one.
          yield* eventually("the last-use write", () => count(/UPDATE api_keys SET last_used_at/) > 0)
          yield* pause(300)
          assert.strictEqual(count(/FROM api_keys k/), 2, statements.join("\n"))
          assert.strictEqual(count(/UPDATE api_keys SET last_used_at/), 1, statements.join("\n"))
        }))
    }
  )
}
