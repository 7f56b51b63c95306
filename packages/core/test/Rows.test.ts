import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Exit, Schema } from "effect"
import { dieOnBadRow, Timestamp } from "../src/internal/rows.ts"
import { toWorkspace, WorkspaceRow } from "../src/Workspaces.ts"

// Rows are decoded by their schema (SqlSchema), not asserted: what either driver gives reads the same, and a
// row unlike its schema is a defect at the read rather than a wrong value further on.
describe("rows", () => {
  const row = { id: "ws_0123456789abcdefgh", name: "Acme", approvalRequired: false, assistantApproval: true, timeZone: "UTC" }

  it("reads a timestamp as ISO 8601 UTC, from a Date or from its text", () => {
    const decode = Schema.decodeUnknownSync(Timestamp)
    assert.strictEqual(decode(new Date("2026-12-03T10:00:00.123Z")), "2026-12-03T10:00:00.123Z")
    assert.strictEqual(decode("2026-12-03 11:00:00.123+01"), "2026-12-03T10:00:00.123Z")
  })

  it("decodes a workspaces row into the domain's Workspace", () => {
    const workspace = toWorkspace(Schema.decodeUnknownSync(WorkspaceRow)({ ...row, createdAt: new Date("2026-12-03T10:00:00Z") }))
    assert.strictEqual(workspace.createdAt, "2026-12-03T10:00:00.000Z")
    assert.strictEqual(workspace.assistantApproval, true)
  })

  it.effect("dies on a row unlike its schema: a column gone, a driver's other type", () =>
    Effect.gen(function*() {
      const decode = Schema.decodeUnknownEffect(WorkspaceRow)
      for (const bad of [{ ...row }, { ...row, createdAt: new Date(), approvalRequired: "f" }]) {
        const exit = yield* Effect.exit(dieOnBadRow(decode(bad)))
        assert.isTrue(Exit.isFailure(exit) && Cause.hasDies(exit.cause), JSON.stringify(bad))
      }
    }))
})
