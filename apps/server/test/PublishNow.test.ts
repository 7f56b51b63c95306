import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiKeys, Team } from "@herald/core"
import * as Packages from "../src/Packages.ts"
import { acceptAs, baseUrl, bearer, request, serverLayer } from "./harness.ts"
import * as Mcp from "./mcpClient.ts"
import { events, settled, setup } from "./publishing.ts"

// A post sent now is not scheduled: whichever way it is sent now (publishNow over REST or MCP, approved
// after its time, retried), it answers `publishing` and emits no `post.scheduled`, only its outcome.

const ofPost = (workspaceId: string, postId: string) =>
  Effect.map(events(workspaceId), (rows) => rows.filter((row) => row.data.postId === postId).map((row) => row.event))

layer(serverLayer({}, Packages.all.filter((entry) => entry.network === "x")), { excludeTestServices: true })("publishing now", (it) => {
  it.effect("POST /posts with publishNow answers publishing, and its events are post.published alone", () =>
    Effect.gen(function*() {
      const { accounts, create, get, workspace } = yield* setup(["x"])
      const created = yield* create({ content: "Out right now", accountIds: [accounts.x], publishNow: true })
      assert.strictEqual(created.status, "publishing")
      assert.isNotNull(created.scheduledAt)
      assert.strictEqual((yield* settled(get, created.id)).status, "published")
      assert.deepStrictEqual(yield* ofPost(workspace.id, created.id), ["post.published"])
    }))

  it.effect("create_post over MCP with publishNow answers publishing, with no post.scheduled", () =>
    Effect.gen(function*() {
      const { accounts, base, get, key, workspace } = yield* setup(["x"])
      const client = yield* Mcp.connect(base, key.key)
      const result = yield* Mcp.call(client, "create_post", { content: "Out via MCP", accountIds: [accounts.x], publishNow: true })
      assert.notStrictEqual(result.isError, true, JSON.stringify(result))
      const created = (result.structuredContent as any).data
      assert.strictEqual(created.status, "publishing")
      assert.strictEqual((yield* settled(get, created.id)).status, "published")
      assert.deepStrictEqual(yield* ofPost(workspace.id, created.id), ["post.published"])
    }).pipe(Effect.scoped))

  it.effect("an editor's publishNow post, approved, goes out as publishing: created, submitted, approved, published", () =>
    Effect.gen(function*() {
      const { accounts, get, send, workspace } = yield* setup(["x"])
      assert.strictEqual((yield* send("PATCH", "/workspace", { approvalRequired: true })).status, 200)
      const team = yield* Team.Team
      const apiKeys = yield* ApiKeys.ApiKeys
      const editorKey = yield* Effect.gen(function*() {
        const invitation = yield* team.invite(workspace.id, { email: `ed@${workspace.id}.test`, role: "editor" })
        const { member } = yield* acceptAs(invitation)
        return (yield* apiKeys.create({ workspaceId: workspace.id, memberId: member.id })).key
      }).pipe(Effect.orDie)
      const created = yield* request(`${yield* baseUrl}/api/v1/posts`, {
        method: "POST",
        headers: { ...bearer(editorKey), "content-type": "application/json" },
        body: JSON.stringify({ content: "Now, once approved", accountIds: [accounts.x], publishNow: true })
      })
      assert.strictEqual(created.status, 200, created.text)
      assert.strictEqual(created.body.data.status, "awaiting_approval")
      const id = created.body.data.id
      const approved = yield* send("POST", `/posts/${id}/approve`, {})
      assert.strictEqual(approved.status, 200, approved.text)
      assert.strictEqual(approved.body.data.status, "publishing")
      assert.strictEqual((yield* settled(get, id)).status, "published")
      assert.deepStrictEqual(yield* ofPost(workspace.id, id), ["post.created", "post.submitted", "post.approved", "post.published"])
    }))

  it.effect("a draft patched to a time already come goes out at once: publishing, no post.scheduled", () =>
    Effect.gen(function*() {
      const { accounts, create, get, send, workspace } = yield* setup(["x"])
      const draft = yield* create({ content: "Now, from a draft", accountIds: [accounts.x], draft: true })
      const patched = yield* send("PATCH", `/posts/${draft.id}`, { draft: false, scheduledAt: new Date(Date.now() - 5_000).toISOString() })
      assert.strictEqual(patched.status, 200, patched.text)
      assert.strictEqual(patched.body.data.status, "publishing")
      assert.strictEqual((yield* settled(get, draft.id)).status, "published")
      assert.deepStrictEqual(yield* ofPost(workspace.id, draft.id), ["post.created", "post.updated", "post.published"])
    }))

  it.effect("a retried post goes out at once: publishing, then its outcome", () =>
    Effect.gen(function*() {
      const { accounts, create, get, send, workspace } = yield* setup(["x"])
      const created = yield* create({ content: "Once more", accountIds: [accounts.x], publishNow: true })
      assert.strictEqual((yield* settled(get, created.id)).status, "published")
      const sql = yield* SqlClient.SqlClient
      // As if the network had refused it: failed, to be retried.
      yield* Effect.orDie(sql`UPDATE posts SET status = 'failed' WHERE id = ${created.id}`)
      yield* Effect.orDie(sql`UPDATE post_targets SET status = 'failed', error = 'no' WHERE post_id = ${created.id}`)
      const retried = yield* send("POST", `/posts/${created.id}/retry`)
      assert.strictEqual(retried.status, 200, retried.text)
      assert.strictEqual(retried.body.data.status, "publishing")
      assert.include(["published", "partial", "failed"], (yield* settled(get, created.id)).status)
      const seen = yield* ofPost(workspace.id, created.id)
      assert.notInclude(seen, "post.scheduled")
      assert.deepStrictEqual(seen.slice(0, 2), ["post.published", "post.retried"])
    }))
})
