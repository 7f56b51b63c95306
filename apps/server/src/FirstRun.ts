import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { ApiKeys, Workspaces } from "@herald/core"

/**
 * On an empty database, creates the workspace "Demo" with one API key, so a newcomer can call the API at
 * once. The key is returned only here: it is printed once and never stored in readable form.
 */
export const ensureDemo = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const workspaces = yield* Workspaces.Workspaces
  const apiKeys = yield* ApiKeys.ApiKeys
  // Several processes may start together on one PostgreSQL; the table lock lets exactly one of them seed it.
  return yield* sql.withTransaction(Effect.gen(function*() {
    yield* sql`LOCK TABLE workspaces IN SHARE ROW EXCLUSIVE MODE`
    const [row] = yield* sql<{ readonly count: number | string }>`SELECT count(*) AS count FROM workspaces`
    if (Number(row?.count ?? 0) > 0) return Option.none()
    const workspace = yield* workspaces.create({ name: "Demo" })
    const key = yield* Effect.orDie(apiKeys.create({ workspaceId: workspace.id, name: "Demo key" }))
    return Option.some({ workspace, key })
  }))
}).pipe(Effect.withSpan("FirstRun.ensureDemo"))
