import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Installed } from "../src/Installed.ts"
import * as SandboxConnect from "../src/SandboxConnect.ts"
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

/** The post once it has ended (published, partial or failed); fails the test after `timeoutMs`. */
export const settled = (get: (id: string) => Effect.Effect<any>, id: string, timeoutMs = 30_000) =>
  Effect.gen(function*() {
    const until = Date.now() + timeoutMs
    while (true) {
      const post = yield* get(id)
      if (ended.has(post.status)) return post
      if (Date.now() > until) throw new Error(`post ${id} still ${post.status} after ${timeoutMs} ms: ${JSON.stringify(post)}`)
      yield* Effect.sleep("50 millis")
    }
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
