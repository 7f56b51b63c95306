import { assert } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Adapter } from "@herald/adapter-kit"
import { Inbox } from "@herald/core"
import { Installed } from "../src/Installed.ts"
import type { NetworkPackage } from "../src/NetworkPackages.ts"
import * as SandboxConnect from "../src/SandboxConnect.ts"
import { eventually } from "../../../testing/eventually.ts"
import { baseUrl, bearer, examplePackage, request, workspaceWithKey } from "./harness.ts"
import { events } from "./publishing.ts"

// What the inbox tests share: a workspace with one sandbox account of the example network, the API over
// real HTTP, the sandbox's control routes and simulator, and an account's cursor row.

let workspaces = 0

export const setup = (label = "i") =>
  Effect.gen(function*() {
    const base = yield* baseUrl
    const tag = `${label}${++workspaces}${Date.now().toString(36)}`
    const { key, workspace } = yield* workspaceWithKey(tag)
    const account = yield* Effect.orDie(SandboxConnect.connect({ workspaceId: workspace.id, platform: "example", username: `${tag}_ex` }))
    const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      request(`${base}/api/v1${path}`, {
        method,
        headers: { ...bearer(key.key), ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    /** Leaves a comment or message for the account, as a key of the workspace holding it (this one's by default). */
    const control = (kind: "comments" | "messages", body: Record<string, unknown>, as = key.key) =>
      request(`${base}/sandbox/example/_control/${kind}`, {
        method: "POST",
        headers: { ...bearer(as), "content-type": "application/json" },
        body: JSON.stringify({ username: `${tag}_ex`, ...body })
      })
    const inbox = yield* Inbox.Inbox
    const simulator = (yield* Installed).simulators.find((entry) => entry.network === "example")!
    return { account, control, inbox, key: key.key, send, simulator, tag, workspace }
  })

/** An account's inbox cursor row: where it reads from, its failures in a row, and when it is read next. */
export const cursorOf = (accountId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{
      readonly cursor: string | null
      readonly failures: number
      readonly lastError: string | null
      readonly dueIn: number
      readonly nextPollAt: Date
    }>`
      SELECT cursor, failures, last_error, EXTRACT(EPOCH FROM next_poll_at - now())::float8 AS due_in, next_poll_at
      FROM inbox_cursors WHERE account_id = ${accountId}`).pipe(Effect.map((rows) => rows[0]!), Effect.orDie)

/** The data of a workspace's `comment.received` events once there are `count`, an inbox round before each look. */
export const commentsReceived = (workspaceId: string, count: number) =>
  Effect.flatMap(Inbox.Inbox, (inbox) =>
    eventually(
      `${count} comment.received`,
      Effect.andThen(
        Effect.orDie(inbox.pollDue),
        Effect.map(events(workspaceId), (rows): Array<any> | false => {
          const received = rows.filter((row) => row.event === "comment.received").map((row) => row.data)
          return received.length >= count && received
        })
      ),
      { everyMs: 100 }
    ))

/** The wall-clock window an effect ran in, with what it gave: when a round that ran then read its accounts. */
export const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const from = Date.now()
    const value = yield* effect
    return { value, from, to: Date.now() }
  })

/**
 * That an account read by the round of `window` is next due `seconds` after it, however long the round and
 * the reads after it took (a second either side for the clocks' rounding).
 */
export const assertDueAfter = (cursor: { readonly nextPollAt: Date }, seconds: number, window: { readonly from: number; readonly to: number }) => {
  const at = cursor.nextPollAt.getTime()
  assert.isAtLeast(at, window.from + seconds * 1000 - 1000, `next read at ${cursor.nextPollAt.toISOString()}`)
  assert.isAtMost(at, window.to + seconds * 1000 + 1000, `next read at ${cursor.nextPollAt.toISOString()}`)
}

/** The example network with some of its inbox hooks changed, as a test needs the network to misbehave. */
export const exampleWith = (change: (inbox: Adapter.InboxHooks) => Partial<Adapter.InboxHooks>): NetworkPackage => ({
  ...examplePackage,
  make: (config) =>
    Effect.map(examplePackage.make(config), (adapter) => ({ ...adapter, inbox: { ...adapter.inbox!, ...change(adapter.inbox!) } }))
})
