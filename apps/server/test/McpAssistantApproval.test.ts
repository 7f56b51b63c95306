import { assert, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect, Option } from "effect"
import { backends } from "@herald/db/testing"
import { Permissions } from "@herald/domain"
import { examplePackage, freePort, serverLayer } from "./harness.ts"
import * as McpClient from "./mcpClient.ts"
import { connectWith, consentRequest, memoryProvider, setup, signInWithSdk } from "./mcpOAuth.ts"

// Safe by default for agents (decision 0048): what an assistant connected by OAuth creates or schedules waits
// for a person's approval, unless its member let it publish directly or the workspace turned the setting off;
// API keys keep publishing as before.

/** A post an hour from now on the workspace's account, as an assistant would ask for it. */
const scheduledPost = (accountIds: ReadonlyArray<string>, content: string) => ({
  content,
  accountIds,
  scheduledAt: new Date(Date.now() + 3_600_000).toISOString()
})

for (const backend of backends()) {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const mcpUrl = `${base}/api/mcp`
  layer(serverLayer({ port, baseUrl: Option.some(base) }, [examplePackage], backend), { excludeTestServices: true })(
    `Assistants' posts wait for approval on ${backend.name}`,
    (it) => {
      it.effect("by default, an assistant's scheduled and sent-now posts wait for approval, and it cannot approve them", () =>
        Effect.gen(function*() {
          const { accountIds, owner, workspace } = yield* setup(base)
          const setting = yield* owner("GET", "/workspace")
          assert.isTrue(setting.body.data.assistantApproval)
          const { provider } = yield* signInWithSdk(mcpUrl, owner, workspace.id)
          const grants = yield* owner("GET", "/oauth/grants")
          assert.isFalse(grants.body.data[0].publishesDirectly)
          const client = yield* connectWith(mcpUrl, provider)

          const created = yield* McpClient.call(client, "create_post", scheduledPost(accountIds, "Planned by an assistant"))
          assert.notOk(created.isError, JSON.stringify(created.content))
          const post = (created.structuredContent as any).data
          assert.strictEqual(post.status, "awaiting_approval")
          const events = yield* owner("GET", `/posts/${post.id}/events`)
          assert.includeMembers(events.body.data.map((event: { event: string }) => event.event), ["post.submitted"])

          const now = yield* McpClient.call(client, "create_post", { content: "Sent now by an assistant", accountIds, publishNow: true })
          assert.notOk(now.isError, JSON.stringify(now.content))
          assert.strictEqual((now.structuredContent as any).data.status, "awaiting_approval")

          // The owner's assistant acts with the owner's role, yet may not approve what waits for a person.
          const approved = yield* McpClient.call(client, "approve_post", { id: post.id })
          assert.isTrue(approved.isError)
          const byPerson = yield* owner("POST", `/posts/${post.id}/approve`, {})
          assert.strictEqual(byPerson.status, 200, byPerson.text)
          assert.strictEqual(byPerson.body.data.status, "scheduled")
        }))

      it.effect("an assistant its member let publish directly schedules at once", () =>
        Effect.gen(function*() {
          const { accountIds, owner, workspace } = yield* setup(base)
          const { provider } = yield* signInWithSdk(mcpUrl, owner, workspace.id, { publishesDirectly: true })
          const grants = yield* owner("GET", "/oauth/grants")
          assert.isTrue(grants.body.data[0].publishesDirectly)
          const client = yield* connectWith(mcpUrl, provider)
          const created = yield* McpClient.call(client, "create_post", scheduledPost(accountIds, "Trusted assistant"))
          assert.notOk(created.isError, JSON.stringify(created.content))
          assert.strictEqual((created.structuredContent as any).data.status, "scheduled")
        }))

      it.effect("with the setting off, assistants schedule at once; only owners and admins change it", () =>
        Effect.gen(function*() {
          const { accountIds, owner, viewer, workspace } = yield* setup(base)
          assert.strictEqual((yield* viewer("PATCH", "/workspace", { assistantApproval: false })).status, 403)
          const changed = yield* owner("PATCH", "/workspace", { assistantApproval: false })
          assert.strictEqual(changed.status, 200, changed.text)
          assert.isFalse(changed.body.data.assistantApproval)
          const { provider } = yield* signInWithSdk(mcpUrl, owner, workspace.id)
          const client = yield* connectWith(mcpUrl, provider)
          const created = yield* McpClient.call(client, "create_post", scheduledPost(accountIds, "Setting off"))
          assert.notOk(created.isError, JSON.stringify(created.content))
          assert.strictEqual((created.structuredContent as any).data.status, "scheduled")
        }))

      it.effect("API keys keep scheduling at once", () =>
        Effect.gen(function*() {
          const { accountIds, key } = yield* setup(base)
          const client = yield* McpClient.connect(base, key.key)
          const created = yield* McpClient.call(client, "create_post", scheduledPost(accountIds, "With a key"))
          assert.notOk(created.isError, JSON.stringify(created.content))
          assert.strictEqual((created.structuredContent as any).data.status, "scheduled")
        }))

      it.effect("direct publishing is offered, and accepted, only where the member's role publishes without approval", () =>
        Effect.gen(function*() {
          const { owner, viewer, workspace } = yield* setup(base)
          const { provider, stored } = memoryProvider()
          // The SDK registers and stops at the browser step: the request waits for the person's answer.
          yield* Effect.promise(() =>
            new Client({ name: "t", version: "1" }).connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }))
              .catch(() => undefined)
          )
          const requestId = yield* consentRequest(stored.authorizationUrl!.toString())
          const forOwner = yield* owner("GET", `/oauth/requests/${requestId}`)
          assert.isTrue(forOwner.body.data.workspaces.find((one: { id: string }) => one.id === workspace.id).mayPublishDirectly)
          const forViewer = yield* viewer("GET", `/oauth/requests/${requestId}`)
          assert.isFalse(forViewer.body.data.workspaces.find((one: { id: string }) => one.id === workspace.id).mayPublishDirectly)
          // What the assistant would be able to do there is the viewer's row of the permission table.
          assert.deepStrictEqual(
            forViewer.body.data.workspaces.find((one: { id: string }) => one.id === workspace.id).permissions,
            Permissions.allowed("viewer")
          )
          const refused = yield* viewer("POST", `/oauth/requests/${requestId}/approve`, { workspaceId: workspace.id, publishesDirectly: true })
          assert.strictEqual(refused.status, 400, refused.text)
          assert.strictEqual(refused.body.error.details[0].field, "publishesDirectly")
        }))
    }
  )
}
