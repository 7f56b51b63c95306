import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer, Option } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Accounts, ApiKeys, Sessions, Team, Workspaces } from "@herald/core"
import { DatabaseInfo } from "@herald/db"
import { Admin, AdminError } from "../src/Admin.ts"
import * as Failures from "../src/Failures.ts"

// On the database directly, the core's services die when the database fails (it is no caller's to handle):
// the command says so as `internal`, a failure line and exit code 1, instead of crashing with a stack trace.

const refused = new SqlError.SqlError({
  reason: new SqlError.ConnectionError({
    cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
    message: "PgClient: Failed to connect"
  })
})
const bug = new Error("a bug, not the database")

/** The services as the core makes them on a database that fails: every call dies with its SqlError. */
const failing = Layer.mergeAll(
  Layer.succeed(Workspaces.Workspaces, {
    list: Effect.die(refused),
    members: () => Effect.die(refused),
    get: () => Effect.die(bug)
  } as unknown as Workspaces.Workspaces["Service"]),
  Layer.succeed(ApiKeys.ApiKeys, { create: () => Effect.die(refused) } as unknown as ApiKeys.ApiKeys["Service"]),
  Layer.succeed(Accounts.Accounts, { list: () => Effect.succeed([]) } as unknown as Accounts.Accounts["Service"]),
  Layer.succeed(Team.Team, {} as Team.Team["Service"]),
  Layer.succeed(Sessions.Sessions, {} as Sessions.Sessions["Service"]),
  // Held for the commands that run a server briefly; none of these calls opens it.
  Layer.succeed(SqlClient.SqlClient, {} as SqlClient.SqlClient),
  Layer.succeed(PgClient.PgClient, {} as PgClient.PgClient),
  Layer.succeed(DatabaseInfo.DatabaseInfo, {} as DatabaseInfo.DatabaseInfo["Service"])
)

const direct = <A>(use: (admin: Admin["Service"]) => Effect.Effect<A, AdminError>) =>
  Effect.exit(Effect.flatMap(Admin, use).pipe(Effect.provide(Admin.layerDirect.pipe(Layer.provide(failing)))))

/** The typed failure the command reports; a defect (a crash) fails the test. */
const failedWith = (exit: Exit.Exit<unknown, AdminError>): AdminError => {
  if (Exit.isSuccess(exit)) return assert.fail("the command succeeded")
  const error = Cause.findErrorOption(exit.cause)
  return Option.isSome(error) ? error.value : assert.fail(`not a typed failure: ${Cause.pretty(exit.cause)}`)
}

describe("the admin commands on the database directly", () => {
  it.effect("a database failure is an internal AdminError, said as the failure line, not a crash", () =>
    Effect.gen(function*() {
      for (
        const exit of [
          yield* direct((admin) => admin.listMembers("wks_1")),
          yield* direct((admin) => admin.listWorkspaces),
          yield* direct((admin) => admin.createKey({ workspaceId: "wks_1", name: "ci" }))
        ]
      ) {
        const error = failedWith(exit)
        assert.instanceOf(error, AdminError)
        assert.deepStrictEqual({ code: error.code, message: error.message }, { code: "internal", message: refused.message })
        assert.deepStrictEqual(Failures.describe(error), { code: "internal", message: refused.message })
      }
    }))

  it.effect("any other defect is still one: only the database's failure is said as internal", () =>
    Effect.gen(function*() {
      const exit = yield* direct((admin) => admin.listAccounts("wks_1"))
      assert.isTrue(Exit.isFailure(exit) && Cause.hasDies(exit.cause))
      assert.strictEqual(Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined, bug)
    }))
})
