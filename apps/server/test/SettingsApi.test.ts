import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiKeys } from "@herald/core"
import { backends } from "@herald/db/testing"
import { apiWithKey, baseUrl, bearer, examplePackage, request, serverLayer, workspaceWithKey } from "./harness.ts"

// What the console's settings pages call, as any client meets it, with a workspace key and with keys acting
// for each role: API keys over REST, who manages the team, the workspace's time zone, deleting a review profile.

/** A workspace with an owner, an admin, an editor and a viewer, each with a key of their own. */
const team = Effect.gen(function*() {
  const { key, workspace } = yield* workspaceWithKey("Acme", "owner@acme.test")
  const sql = yield* SqlClient.SqlClient
  const apiKeys = yield* ApiKeys.ApiKeys
  for (const role of ["admin", "editor", "viewer"]) {
    yield* sql`INSERT INTO members (id, workspace_id, email, role)
      VALUES (${`mem_${role}${workspace.id.slice(4)}`}, ${workspace.id}, ${`${role}@acme.test`}, ${role})`
  }
  const members = yield* sql<{ readonly id: string; readonly role: string }>`
    SELECT id, role FROM members WHERE workspace_id = ${workspace.id}`
  const memberOf = (role: string) => members.find((member) => member.role === role)!.id
  const keyOf = (role: string) => Effect.map(apiKeys.create({ workspaceId: workspace.id, memberId: memberOf(role) }), (made) => made.key)
  return {
    workspace,
    memberOf,
    send: yield* apiWithKey(key.key),
    as: (role: string) => Effect.flatMap(keyOf(role), apiWithKey)
  }
}).pipe(Effect.orDie)

for (const backend of backends()) layer(serverLayer({}, [examplePackage], backend), { excludeTestServices: true })(
  `API keys, time zone and review profiles over REST on ${backend.name}`,
  (it) => {
    it.effect("a key is created for a member, shown once, works, is listed by its ends, and revoked stops at once", () =>
      Effect.gen(function*() {
        const { memberOf, send } = yield* team
        const created = yield* send("POST", "/keys", { name: "Scheduler", memberId: memberOf("editor") })
        assert.strictEqual(created.status, 201, created.text)
        const key = created.body.data
        assert.match(key.key, /^hrld_/)
        assert.strictEqual(key.lastFour, key.key.slice(-4))
        assert.deepStrictEqual(key.member, { id: memberOf("editor"), email: "editor@acme.test", role: "editor" })

        // It acts as the editor: reads, but may not manage keys.
        const useIt = yield* apiWithKey(key.key)
        assert.strictEqual((yield* useIt("GET", "/accounts")).status, 200)
        assert.strictEqual((yield* useIt("GET", "/keys")).status, 403)

        const listed = (yield* send("GET", "/keys")).body.data
        const mine = listed.find((each: any) => each.id === key.id)
        assert.deepStrictEqual(Object.keys(mine).sort(), ["createdAt", "id", "lastFour", "lastUsedAt", "member", "name", "prefix", "revokedAt"])
        assert.strictEqual(mine.prefix, "hrld_")
        assert.strictEqual(mine.name, "Scheduler")
        assert.strictEqual(mine.revokedAt, null)
        assert.notInclude(JSON.stringify(listed), key.key)
        // The workspace key that lists them is there too, acting for no member.
        assert.isTrue(listed.some((each: any) => each.member === null))

        const revoked = yield* send("POST", `/keys/${key.id}/revoke`)
        assert.strictEqual(revoked.status, 200, revoked.text)
        assert.isString(revoked.body.data.revokedAt)
        assert.strictEqual(revoked.body.data.member.role, "editor")
        const refused = yield* useIt("GET", "/accounts")
        assert.strictEqual(refused.status, 401)
        assert.include(refused.body.error.message, "revoked")
        assert.isString((yield* send("GET", "/keys")).body.data.find((each: any) => each.id === key.id).revokedAt)
      }))

    it.effect("with Idempotency-Key, a new key and a webhook's secret are replayed but never stored in plain text", () =>
      Effect.gen(function*() {
        const { workspace } = yield* team
        const { key } = yield* workspaceWithKey("Keys", "owner@keys.test")
        const base = yield* baseUrl
        const sql = yield* SqlClient.SqlClient
        const post = (path: string, body: unknown, idempotencyKey: string) =>
          request(`${base}/api/v1${path}`, {
            method: "POST",
            headers: { ...bearer(key.key), "content-type": "application/json", "idempotency-key": idempotencyKey },
            body: JSON.stringify(body)
          })
        const made = yield* post("/keys", { name: "Replayed" }, `key-${workspace.id}`)
        assert.oneOf(made.status, [200, 201], made.text)
        const again = yield* post("/keys", { name: "Replayed" }, `key-${workspace.id}`)
        assert.strictEqual(again.body.data.key, made.body.data.key)
        const hook = { url: "http://127.0.0.1:9/hook", events: ["post.published"] }
        const hooked = yield* post("/webhooks", hook, `hook-${workspace.id}`)
        assert.oneOf(hooked.status, [200, 201], hooked.text)
        const secret = hooked.body.data.secret as string
        assert.match(secret, /^whsec_/)
        assert.strictEqual((yield* post("/webhooks", hook, `hook-${workspace.id}`)).body.data.secret, secret)
        // What the database keeps of those answers shows neither (issue 28: both were kept for 24 hours).
        const stored = yield* Effect.orDie(sql<{ readonly responseBody: string }>`
          SELECT response_body FROM idempotency_keys WHERE key IN (${`key-${workspace.id}`}, ${`hook-${workspace.id}`})`)
        assert.lengthOf(stored, 2)
        for (const row of stored) {
          assert.notInclude(row.responseBody, made.body.data.key)
          assert.notInclude(row.responseBody, secret)
          assert.match(row.responseBody, /^sealed:/)
        }
      }))

    it.effect("a workspace key without memberId, 400 naming memberId for a stranger, 404 for another workspace's key", () =>
      Effect.gen(function*() {
        const { send } = yield* team
        const workspaceKey = yield* send("POST", "/keys", { name: "CI" })
        assert.strictEqual(workspaceKey.status, 201)
        assert.strictEqual(workspaceKey.body.data.member, null)
        const stranger = yield* send("POST", "/keys", { name: "CI", memberId: "mem_nobody" })
        assert.strictEqual(stranger.status, 400)
        assert.strictEqual(stranger.body.error.code, "invalid")
        assert.deepStrictEqual(stranger.body.error.details.map((problem: any) => problem.field), ["memberId"])
        assert.strictEqual((yield* send("POST", "/keys", {})).status, 400)

        const other = yield* team
        const theirs = (yield* other.send("POST", "/keys", { name: "Theirs" })).body.data
        const notMine = yield* send("POST", `/keys/${theirs.id}/revoke`)
        assert.strictEqual(notMine.status, 404)
        assert.strictEqual(notMine.body.error.code, "not_found")
        assert.isFalse((yield* send("GET", "/keys")).body.data.some((each: any) => each.id === theirs.id))
        assert.strictEqual((yield* send("POST", "/keys/key_unknown/revoke")).status, 404)
      }))

    it.effect("an admin makes keys up to an admin's power, never an owner's or a workspace key; editors and viewers make none", () =>
      Effect.gen(function*() {
        const { memberOf, send, as } = yield* team
        const admin = yield* as("admin")
        assert.strictEqual((yield* admin("GET", "/keys")).status, 200)
        assert.strictEqual((yield* admin("POST", "/keys", { name: "Mine", memberId: memberOf("admin") })).status, 201)
        assert.strictEqual((yield* admin("POST", "/keys", { name: "Viewer's", memberId: memberOf("viewer") })).status, 201)

        const ownerKey = yield* admin("POST", "/keys", { name: "Owner's", memberId: memberOf("owner") })
        assert.strictEqual(ownerKey.status, 403)
        assert.strictEqual(ownerKey.body.error.code, "forbidden")
        assert.include(ownerKey.body.error.message, "cannot create a key acting for an owner")
        const workspaceKey = yield* admin("POST", "/keys", { name: "Everything" })
        assert.strictEqual(workspaceKey.status, 403)
        assert.include(workspaceKey.body.error.message, "workspace key")

        // Nor revoke one: the owner's key stays valid.
        const owners = (yield* send("POST", "/keys", { name: "Owner's", memberId: memberOf("owner") })).body.data
        const revoke = yield* admin("POST", `/keys/${owners.id}/revoke`)
        assert.strictEqual(revoke.status, 403)
        assert.strictEqual((yield* apiWithKey(owners.key).pipe(Effect.flatMap((owner) => owner("GET", "/keys")))).status, 200)

        const editor = yield* as("editor")
        const editorCreates = yield* editor("POST", "/keys", { name: "Mine", memberId: memberOf("editor") })
        assert.strictEqual(editorCreates.status, 403)
        assert.include(editorCreates.body.error.message, "owners and admins")
        const viewer = yield* as("viewer")
        assert.strictEqual((yield* viewer("GET", "/keys")).status, 403)
        assert.strictEqual((yield* viewer("POST", "/keys", { name: "Mine" })).status, 403)
      }))

    it.effect("the team is managed by owners and admins, never beyond their own role; everyone reads the members", () =>
      Effect.gen(function*() {
        const { memberOf, as } = yield* team
        const admin = yield* as("admin")
        const ownerInvite = yield* admin("POST", "/members/invitations", { email: "boss@acme.test", role: "owner" })
        assert.strictEqual(ownerInvite.status, 403)
        assert.include(ownerInvite.body.error.message, "cannot invite an owner")
        const adminInvite = yield* admin("POST", "/members/invitations", { email: "second@acme.test", role: "admin" })
        assert.strictEqual(adminInvite.status, 200, adminInvite.text)
        assert.strictEqual((yield* admin("GET", "/members/invitations")).body.data.length, 1)

        const demoteOwner = yield* admin("PATCH", `/members/${memberOf("owner")}`, { role: "viewer" })
        assert.strictEqual(demoteOwner.status, 403)
        assert.include(demoteOwner.body.error.message, "cannot change the role of an owner")
        const promote = yield* admin("PATCH", `/members/${memberOf("editor")}`, { role: "owner" })
        assert.strictEqual(promote.status, 403)
        assert.include(promote.body.error.message, "cannot make anyone an owner")
        assert.strictEqual((yield* admin("DELETE", `/members/${memberOf("owner")}`)).status, 403)
        assert.strictEqual((yield* admin("PATCH", `/members/${memberOf("editor")}`, { role: "admin" })).body.data.role, "admin")

        const viewer = yield* as("viewer")
        assert.strictEqual((yield* viewer("GET", "/members")).status, 200)
        // The invitations' links would let anyone join: only managers see them.
        const invitations = yield* viewer("GET", "/members/invitations")
        assert.strictEqual(invitations.status, 403)
        assert.include(invitations.body.error.message, "The team is managed by owners and admins")
        const other = yield* team
        assert.strictEqual((yield* admin("DELETE", `/members/${other.memberOf("viewer")}`)).status, 404)
        assert.strictEqual((yield* admin("DELETE", `/members/${memberOf("viewer")}`)).status, 200)
      }))

    it.effect("the workspace's time zone is UTC until set, takes IANA names and refuses others naming timeZone", () =>
      Effect.gen(function*() {
        const { send, as } = yield* team
        assert.strictEqual((yield* send("GET", "/workspace")).body.data.timeZone, "UTC")
        const paris = yield* send("PATCH", "/workspace", { timeZone: "Europe/Paris" })
        assert.strictEqual(paris.status, 200, paris.text)
        assert.strictEqual(paris.body.data.timeZone, "Europe/Paris")
        assert.strictEqual(paris.body.data.name, "Acme")
        // Changing something else keeps it.
        assert.strictEqual((yield* send("PATCH", "/workspace", { approvalRequired: true })).body.data.timeZone, "Europe/Paris")
        for (const wrong of ["Mars/Olympus_Mons", "+05:00", "", "Europe/Paris "]) {
          const refused = yield* send("PATCH", "/workspace", { timeZone: wrong, name: "Renamed" })
          assert.strictEqual(refused.status, 400, wrong)
          assert.strictEqual(refused.body.error.code, "invalid")
          assert.deepStrictEqual(refused.body.error.details.map((problem: any) => problem.field), ["timeZone"])
        }
        const kept = (yield* send("GET", "/workspace")).body.data
        assert.deepStrictEqual([kept.name, kept.timeZone], ["Acme", "Europe/Paris"])
        assert.strictEqual((yield* (yield* as("editor"))("PATCH", "/workspace", { timeZone: "UTC" })).status, 403)
      }))

    it.effect("a review profile is deleted, and then is gone", () =>
      Effect.gen(function*() {
        const { send } = yield* team
        const profile = (yield* send("POST", "/review-profiles", { name: "Client" })).body.data
        const deleted = yield* send("DELETE", `/review-profiles/${profile.id}`)
        assert.strictEqual(deleted.status, 200, deleted.text)
        assert.deepStrictEqual(deleted.body.data, { id: profile.id, deleted: true })
        assert.deepStrictEqual((yield* send("GET", "/review-profiles")).body.data, [])
        assert.strictEqual((yield* send("DELETE", `/review-profiles/${profile.id}`)).status, 404)
      }))
  }
)
