import { Effect, Option, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { ApiKeys, Networks, People, Sessions, Workspaces } from "@herald/core"
import { Installed } from "./Installed.ts"
import * as SandboxConnect from "./SandboxConnect.ts"

/** The Demo workspace's owner: an address of a reserved domain (RFC 2606), so no mail goes anywhere real. */
export const demoOwner = "owner@demo.example"

/**
 * On an empty database, creates the workspace "Demo" with one API key, so a newcomer can call the API at
 * once, and its owner `owner@demo.example` with a one-time console link (7 days) that asks for a password.
 * The key and the link are returned only here: printed once, never stored in readable form.
 */
export const ensureDemo = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const workspaces = yield* Workspaces.Workspaces
  const apiKeys = yield* ApiKeys.ApiKeys
  const people = yield* People.People
  const sessions = yield* Sessions.Sessions
  const workspaceCount = SqlSchema.findOneOption({
    Request: Schema.Void,
    // count(*) is a bigint: PostgreSQL's driver gives its text, the embedded database a BigInt.
    Result: Schema.Struct({ count: Schema.Union([Schema.Number, Schema.String, Schema.BigInt]) }),
    execute: () => sql`SELECT count(*) AS count FROM workspaces`
  })
  // Several processes may start together on one PostgreSQL; the table lock lets exactly one of them seed it.
  return yield* sql.withTransaction(Effect.gen(function*() {
    yield* sql`LOCK TABLE workspaces IN SHARE ROW EXCLUSIVE MODE`
    // A row unlike its schema is a bug: it dies.
    const row = yield* Effect.catchIf(workspaceCount(undefined), Schema.isSchemaError, Effect.die)
    if (Number(Option.match(row, { onNone: () => 0, onSome: ({ count }) => count })) > 0) return Option.none()
    const workspace = yield* workspaces.create({ name: "Demo", ownerEmail: demoOwner })
    const key = yield* Effect.orDie(apiKeys.create({ workspaceId: workspace.id, name: "Demo key" }))
    const person = yield* people.ensure(demoOwner)
    const link = yield* sessions.issueLink(person.id, workspace.id, "first_run")
    return Option.some({ workspace, key, consoleLink: link.url })
  }))
}).pipe(Effect.withSpan("FirstRun.ensureDemo"))

/**
 * The workspace the first run made, on a later start, so that the start can say how to make a key for it
 * (its key was shown only once). None when it was renamed or there are only other workspaces.
 */
export const findDemo = Effect.gen(function*() {
  const workspaces = yield* Workspaces.Workspaces
  const all = yield* workspaces.list
  return Option.fromNullishOr(all.find((workspace) => workspace.name === "Demo"))
}).pipe(Effect.withSpan("FirstRun.findDemo"))

/**
 * In the sandbox, the Demo workspace gets one account per network (`demo_<network>`), connected through
 * the real OAuth code path, so a newcomer can schedule posts at once. A network that fails is logged and
 * skipped: the server still starts.
 */
export const connectSandboxAccounts = (workspaceId: string) =>
  Effect.gen(function*() {
    const installed = yield* Installed
    if (!installed.sandbox) return []
    const networks = yield* Networks.Networks
    const connected = yield* Effect.forEach(networks.all, (adapter) =>
      SandboxConnect.connect({ workspaceId, platform: adapter.network }).pipe(
        Effect.map(Option.some),
        Effect.catchCause((cause) =>
          Effect.as(Effect.logWarning(`Could not connect the sandbox ${adapter.network} account`, cause), Option.none())
        )
      ))
    return connected.flatMap((account) => Option.isSome(account) ? [account.value] : [])
  })
