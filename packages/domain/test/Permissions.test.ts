import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { Permissions, Workspace } from "../src/index.ts"

const role = fc.constantFrom(...Permissions.roles)
const action = fc.constantFrom(...Permissions.actions)

describe("Permissions", () => {
  it("opens each action to the roles the product gives it", () => {
    // Each row as product.md and decisions 0024, 0048 and 0060 put it: viewers read, editors write posts
    // that may wait for approval, owners and admins approve and manage the workspace.
    const rows: Record<Permissions.Action, Array<Workspace.Role>> = {
      read: ["viewer", "editor", "admin", "owner"],
      manageOwnSignIn: ["viewer", "editor", "admin", "owner"],
      change: ["editor", "admin", "owner"],
      publishWithoutApproval: ["admin", "owner"],
      approve: ["admin", "owner"],
      manageSettings: ["admin", "owner"],
      manageKeys: ["admin", "owner"],
      manageTeam: ["admin", "owner"],
      manageQueue: ["admin", "owner"],
      manageAllAssistants: ["admin", "owner"]
    }
    assert.deepStrictEqual(
      Object.fromEntries(Permissions.actions.map((each) => [each, Permissions.roles.filter((who) => Permissions.can(who, each))])),
      rows
    )
  })

  it("names the least role for an action", () => {
    assert.strictEqual(Permissions.leastRole("read"), "viewer")
    assert.strictEqual(Permissions.leastRole("change"), "editor")
    assert.strictEqual(Permissions.leastRole("approve"), "admin")
    assert.strictEqual(Permissions.leastRole("manageTeam"), "admin")
  })

  it("lists roles in Permissions.rank's order, and every role the schema knows", () => {
    assert.deepStrictEqual([...Permissions.roles].sort((a, b) => Permissions.rank(a) - Permissions.rank(b)), Permissions.roles)
    assert.deepStrictEqual([...Permissions.roles].sort(), [...Workspace.Role.literals].sort())
  })

  it("lets a higher role do whatever a lower one may (decision 0024: roles rank)", () => {
    fc.assert(fc.property(role, role, action, (lower, higher, asked) => {
      fc.pre(Permissions.rank(lower) <= Permissions.rank(higher))
      assert.isTrue(!Permissions.can(lower, asked) || Permissions.can(higher, asked))
    }))
  })

  it("lets a role do an action exactly when it ranks at least the action's least role", () => {
    fc.assert(fc.property(role, action, (who, asked) => {
      assert.strictEqual(Permissions.can(who, asked), Permissions.rank(who) >= Permissions.rank(Permissions.leastRole(asked)))
    }))
  })

  it("says what each role may do in words made from the table, and says more of a role that may do more", () => {
    assert.deepStrictEqual(Object.fromEntries(Permissions.roles.map((who) => [who, Permissions.summary(who)])), {
      viewer: "reads only",
      editor: "writes posts, media, accounts and webhooks (approval may be required)",
      admin: "everything but owners' keys and roles",
      owner: "everything, including the team and keys"
    })
    // The words follow the table: a role its actions set apart is summed up apart.
    fc.assert(fc.property(role, role, (one, other) => {
      fc.pre(Permissions.allowed(one).join() !== Permissions.allowed(other).join() || Permissions.rank(one) !== Permissions.rank(other))
      assert.notStrictEqual(Permissions.summary(one), Permissions.summary(other))
    }))
  })

  it("says who may do an action in words from the table, the highest role first", () => {
    assert.strictEqual(Permissions.whoMay("approve"), "an owner or admin")
    assert.strictEqual(Permissions.whoMay("change"), "an owner, admin or editor")
    assert.strictEqual(Permissions.whoMay("read"), "an owner, admin, editor or viewer")
  })

  it("lets a workspace key do anything", () => {
    fc.assert(fc.property(action, (asked) => assert.isTrue(Permissions.can(null, asked))))
  })

  it("never lets anyone grant more than their own role", () => {
    const target = fc.option(role, { nil: null })
    fc.assert(fc.property(fc.option(role, { nil: null }), target, (own, granted) => {
      assert.strictEqual(Permissions.mayGrant(own, granted), Permissions.rank(granted) <= Permissions.rank(own))
    }))
    assert.isFalse(Permissions.mayGrant("admin", "owner"))
    assert.isFalse(Permissions.mayGrant("admin", null))
    assert.isTrue(Permissions.mayGrant("admin", "admin"))
    assert.isTrue(Permissions.mayGrant(null, "owner"))
  })

  it("lists what a role may do as exactly the actions the table opens to it, in the table's order", () => {
    fc.assert(fc.property(fc.option(role, { nil: null }), (who) => {
      assert.deepStrictEqual(Permissions.allowed(who), Permissions.actions.filter((each) => Permissions.can(who, each)))
    }))
    assert.deepStrictEqual(Permissions.allowed("viewer"), ["read", "manageOwnSignIn"])
    assert.deepStrictEqual(Permissions.allowed(null), Permissions.actions)
  })
})
