import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Schema } from "effect"
import * as fc from "fast-check"
import { Authorization } from "@herald/api"
import { Ids, Permissions, type Workspace } from "@herald/domain"
import { Tool } from "@herald/mcp"
import * as AuthorizationLive from "../src/http/AuthorizationLive.ts"
import * as Roles from "../src/internal/roles.ts"

// Each surface's own decision, called directly for random roles and requests, against the permission table
// (packages/domain/src/Permissions.ts): no surface lets a role do more, or less, than the table says.

const role = fc.option(fc.constantFrom(...Permissions.roles), { nil: null })
const actor = fc.constantFrom("key" as const, "session" as const)
const personal = ["/api/v1/auth/sign-out", "/api/v1/auth/password", "/api/v1/auth/profile", "/api/v1/auth/workspace", "/api/v1/auth/sessions/ses_1", "/api/v1/oauth/requests/req_1/allow"]
const workspaceWide = ["/api/v1/posts", "/api/v1/posts/pst_1/approve", "/api/v1/members", "/api/v1/workspace", "/api/v1/keys", "/api/v1/auth/sessions", "/api/v1/queue/schedule"]
const request = fc.record({
  method: fc.constantFrom("GET", "HEAD", "POST", "PATCH", "PUT", "DELETE"),
  url: fc.constantFrom(...personal, ...workspaceWide)
})

/** The action a request asks for, read from the product rather than from the code under test. */
const expected = (asked: { readonly method: string; readonly url: string }, by: "key" | "session"): Permissions.Action =>
  asked.method === "GET" || asked.method === "HEAD" ? "read" : by === "session" && personal.includes(asked.url) ? "manageOwnSignIn" : "change"

const principal = (who: Workspace.Role | null): Authorization.CurrentPrincipal["Service"] => ({
  workspaceId: Ids.WorkspaceId.make("ws_0123456789abcdef"),
  keyId: null,
  sessionId: null,
  personId: null,
  memberId: null,
  role: who
})

describe("the permission table through each surface", () => {
  it("REST admits a request exactly when the table lets the role do what it asks", () => {
    fc.assert(fc.property(role, request, actor, (who, asked, by) => {
      assert.strictEqual(AuthorizationLive.actionOf(asked, by), expected(asked, by))
      assert.strictEqual(AuthorizationLive.mayRequest(who, asked, by), Permissions.can(who, expected(asked, by)))
    }))
  })

  it("REST's managers are the table's, for keys, team, queue and settings", () => {
    const managing = fc.constantFrom("manageKeys" as const, "manageTeam" as const, "manageQueue" as const, "manageSettings" as const)
    fc.assert(fc.property(role, managing, (who, asked) => {
      const exit = Effect.runSyncExit(
        Effect.provideService(Roles.manager(asked, "The thing"), Authorization.CurrentPrincipal, principal(who))
      )
      assert.strictEqual(Exit.isSuccess(exit), Permissions.can(who, asked))
    }))
  })

  it("MCP runs a tool exactly when the table lets the role read (a read-only tool) or change (any other)", async () => {
    const tool = (readOnly: boolean) =>
      Tool.define({
        name: readOnly ? "look" : "touch",
        title: "A tool",
        description: "A tool",
        input: Schema.Struct({}),
        output: Schema.Struct({ ran: Schema.Boolean }),
        readOnly,
        run: () => Effect.succeed({ ran: true })
      })
    const tools = { true: tool(true), false: tool(false) }
    await fc.assert(fc.asyncProperty(role, fc.boolean(), async (who, readOnly) => {
      const allowed = Permissions.can(who, readOnly ? "read" : "change")
      assert.strictEqual(Tool.mayCall(readOnly, { role: who }), allowed)
      const exit = await Effect.runPromiseExit(
        tools[`${readOnly}`].call({}, { workspaceId: "wsp_1", publicUrl: "http://herald.test", actor: { memberId: null, role: who } })
      )
      assert.strictEqual(Exit.isSuccess(exit), allowed)
    }))
  })
})
