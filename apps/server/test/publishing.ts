import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Scheduler } from "@herald/core"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Installed } from "../src/Installed.ts"
import * as SandboxConnect from "../src/SandboxConnect.ts"
import { eventually } from "../../../testing/eventually.ts"
import { baseUrl, bearer, request, workspaceWithKey } from "./harness.ts"

// What the publishing tests share: a workspace with one sandbox account per network, requests over real
// HTTP, waiting for a post to end, and what the simulators recorded.

let workspaces = 0

export const setup = (platforms: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const base = yield* baseUrl
    const tag = `w${++workspaces}${Date.now().toString(36)}`
    const { key, workspace } = yield* workspaceWithKey(tag)
    const accounts: Record<string, string> = {}
    for (const platform of platforms) {
      const account = yield* Effect.orDie(SandboxConnect.connect({ workspaceId: workspace.id, platform, username: `${tag}_${platform}` }))
      accounts[platform] = account.id
    }
    const send = (method: string, path: string, body?: unknown) =>
      request(`${base}/api/v1${path}`, {
        method,
        headers: { ...bearer(key.key), ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    const create = (body: Record<string, unknown>) =>
      Effect.map(send("POST", "/posts", body), (answer) => {
        if (answer.status !== 200) throw new Error(`create answered ${answer.status}: ${answer.text}`)
        return answer.body.data
      })
    const get = (id: string) => Effect.map(send("GET", `/posts/${id}`), (answer) => answer.body.data)
    const video = readFileSync(join(import.meta.dirname, "fixtures", "video-4s.mp4"))
    const uploadVideo = Effect.map(
      request(`${base}/api/v1/media`, {
        method: "POST",
        headers: { ...bearer(key.key), "content-type": "video/mp4" },
        body: new Uint8Array(video)
      }),
      (answer) => {
        if (answer.status !== 200) throw new Error(`upload answered ${answer.status}: ${answer.text}`)
        return answer.body.data.id as string
      }
    )
    return { base, key, workspace, accounts, send, create, get, uploadVideo }
  })

const ended = new Set(["published", "partial", "failed"])

/** The post once it has ended (published, partial or failed), however long that takes. */
export const settled = (get: (id: string) => Effect.Effect<any>, id: string) => {
  let last: unknown = undefined
  const look = Effect.map(get(id), (post) => {
    last = post
    return ended.has(post.status) && post
  })
  return eventually(`post ${id} to end`, look, { everyMs: 50, describe: () => JSON.stringify(last) })
}

/**
 * Brings scheduled posts due `inMs` from now on the server's clock, as the handover round does once a post's
 * time comes near: the time moved in the database (a PATCH would check the post's accounts again and start
 * its targets afresh) and each post handed to the engine. A test sets a post up far ahead (its accounts
 * changed, its rows as a stopped process left them), then has it start only once that is written, however
 * long the writing took.
 */
export const handOver = (postIds: ReadonlyArray<string>, inMs = 0) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const scheduler = yield* Scheduler.Scheduler
    const at = new Date((yield* Clock.currentTimeMillis) + inMs)
    for (const postId of postIds) {
      const [post] = yield* Effect.orDie(sql<{ readonly version: number }>`
        UPDATE posts SET scheduled_at = ${at} WHERE id = ${postId} RETURNING version`)
      yield* scheduler.schedule(postId, post!.version, at)
    }
    return at
  })

/** What the network's simulator holds for a Herald account: every post and reply it accepted. */
export const simulated = (platform: string, accountId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* Effect.orDie(sql<{ readonly networkAccountId: string }>`
      SELECT network_account_id FROM accounts WHERE id = ${accountId}`)
    const installed = yield* Installed
    const simulator = installed.simulators.find((entry) => entry.network === platform)!
    return simulator.state.postsOf(row!.networkAccountId)
  })

/** The events of a workspace, in order. */
export const events = (workspaceId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly event: string; readonly data: any }>`
      SELECT event, data FROM events WHERE workspace_id = ${workspaceId} ORDER BY sequence`).pipe(Effect.orDie)
