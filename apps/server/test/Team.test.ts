import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { SignedLinks } from "@herald/core"
import { backends } from "@herald/db/testing"
import { eventually } from "../../../testing/eventually.ts"
import { baseUrl, bearer, closeNow, examplePackage, request, serverLayer, workspaceWithKey } from "./harness.ts"

// The team over real HTTP: invitations by signed link, member.joined at a webhook receiver, roles and
// removal with the workspace always keeping an owner.

/** A local webhook receiver keeping every body it gets. */
const receiver = Effect.acquireRelease(
  Effect.promise(() =>
    new Promise<{ url: string; bodies: Array<any>; close: () => Promise<void> }>((resolve) => {
      const bodies: Array<any> = []
      const server = createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (chunk: Buffer) => chunks.push(chunk))
        req.on("end", () => {
          bodies.push(JSON.parse(Buffer.concat(chunks).toString("utf8")))
          res.writeHead(204).end()
        })
      })
      server.listen(0, "127.0.0.1", () =>
        resolve({
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
          bodies,
          close: () => closeNow(server)
        }))
    })
  ),
  (made) => Effect.promise(made.close)
)

const team = Effect.gen(function*() {
  const base = yield* baseUrl
  const { key, workspace } = yield* workspaceWithKey("Acme", "Owner@Acme.test")
  const send = (method: string, path: string, body?: unknown) =>
    request(`${base}/api/v1${path}`, {
      method,
      headers: { ...bearer(key.key), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  return { base, key, workspace, send }
})

/**
 * Accepts an invitation as the console does: the token from the link's fragment, POSTed with a name and a
 * password for the new person, from the service's own origin.
 */
const open = (url: string) =>
  Effect.flatMap(baseUrl, (base) =>
    request(`${base}/api/v1/auth/invitation/accept`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: new URL(url).origin },
      body: JSON.stringify({ token: url.split("#").at(-1), name: "New Person", password: "a long enough password" })
    }))

for (const backend of backends()) layer(serverLayer({}, [examplePackage], backend), { excludeTestServices: true })(
  `team on ${backend.name}`,
  (it) => {
    it.effect("an invitation's link makes the person a member, and member.joined reaches the webhook receiver", () =>
      Effect.scoped(Effect.gen(function*() {
        const hook = yield* receiver
        const { base, send } = yield* team
        yield* send("POST", "/webhooks", { url: hook.url, events: ["member.joined"] })
        const invited = yield* send("POST", "/members/invitations", { email: " Ed@Acme.test ", role: "editor" })
        assert.strictEqual(invited.status, 200, invited.text)
        const invitation = invited.body.data
        assert.match(invitation.id, /^inv_/)
        assert.strictEqual(invitation.email, "ed@acme.test")
        assert.strictEqual(invitation.role, "editor")
        assert.match(invitation.url, /\/app\/invitation#inv_[0-9A-Za-z]+\.\d+\.[A-Za-z0-9_-]{43}$/)
        assert.strictEqual(new URL(invitation.url).port, new URL(base).port)
        assert.isAbove(Date.parse(invitation.expiresAt) - Date.now(), 6.9 * 86_400_000)
        assert.deepStrictEqual((yield* send("GET", "/members/invitations")).body.data, [invitation])

        const accepted = yield* open(invitation.url)
        assert.strictEqual(accepted.status, 200, accepted.text)
        assert.strictEqual(accepted.body.data.person.email, "ed@acme.test")
        assert.deepStrictEqual([accepted.body.data.workspace.name, accepted.body.data.workspace.role], ["Acme", "editor"])
        const members = (yield* send("GET", "/members")).body.data
        assert.deepStrictEqual(members.map((member: any) => [member.email, member.role]), [["owner@acme.test", "owner"], ["ed@acme.test", "editor"]])
        assert.deepStrictEqual((yield* send("GET", "/members/invitations")).body.data, [])

        // member.joined, with the member's id, e-mail and role.
        yield* eventually("member.joined at the webhook", () => hook.bodies.length > 0)
        assert.lengthOf(hook.bodies, 1)
        assert.strictEqual(hook.bodies[0].event, "member.joined")
        assert.deepStrictEqual(hook.bodies[0].data, { memberId: members[1].id, email: "ed@acme.test", role: "editor" })

        // A link works once, and an accepted invitation is no longer withdrawn.
        const again = yield* open(invitation.url)
        assert.strictEqual(again.status, 400)
        assert.include(again.text, "used already")
        // The link e-mailed before the console, opened in a browser, ends on the console's invitation page.
        const token = invitation.url.split("#").at(-1)
        const old = yield* Effect.promise(() => fetch(`${base}/invitations/${token}`, { redirect: "manual" }))
        assert.strictEqual(old.status, 303)
        assert.strictEqual(old.headers.get("location"), `/app/invitation#${token}`)
        assert.strictEqual((yield* send("DELETE", `/members/invitations/${invitation.id}`)).status, 409)
      })))

    it.effect("a tampered, expired, withdrawn or replaced link is refused", () =>
      Effect.gen(function*() {
        const { send } = yield* team
        const first = (yield* send("POST", "/members/invitations", { email: "vi@acme.test", role: "viewer" })).body.data
        // Another id in the same link: the signature no longer matches.
        const tampered = yield* open(first.url.replace(/inv_[0-9A-Za-z]+/, (id: string) => `${id.slice(0, -1)}${id.endsWith("A") ? "B" : "A"}`))
        assert.strictEqual(tampered.status, 400)
        assert.include(tampered.text, "altered")
        const expiredToken = (yield* SignedLinks.SignedLinks).sign("invitation", first.id, new Date(Date.now() - 1000))
        const expired = yield* open(first.url.replace(/[^#]+$/, expiredToken))
        assert.strictEqual(expired.status, 400)
        assert.include(expired.text, "expired")
        // Inviting the address again replaces the first link.
        const second = (yield* send("POST", "/members/invitations", { email: "vi@acme.test", role: "admin" })).body.data
        assert.include((yield* open(first.url)).text, "withdrawn")
        assert.strictEqual((yield* send("DELETE", `/members/invitations/${second.id}`)).status, 200)
        const withdrawn = yield* open(second.url)
        assert.strictEqual(withdrawn.status, 400)
        assert.include(withdrawn.text, "withdrawn")
        const sql = yield* SqlClient.SqlClient
        const [count] = yield* Effect.orDie(sql<{ readonly count: string | number }>`SELECT count(*) AS count FROM members WHERE email = 'vi@acme.test'`)
        assert.strictEqual(Number(count!.count), 0)
      }))

    it.effect("refuses bad input naming each problem, and an address that is a member already", () =>
      Effect.gen(function*() {
        const { send } = yield* team
        const bad = yield* send("POST", "/members/invitations", { email: "not an address", role: "boss" })
        assert.strictEqual(bad.status, 400)
        assert.strictEqual(bad.body.error.code, "invalid")
        assert.deepStrictEqual(bad.body.error.details.map((problem: any) => problem.field), ["email", "role"])
        const member = yield* send("POST", "/members/invitations", { email: "owner@acme.test", role: "viewer" })
        assert.strictEqual(member.status, 409)
        assert.strictEqual(member.body.error.code, "conflict")
        // An address of dots made the old pattern backtrack for seconds (issue 28): refused by its length, and
        // the refusal does not echo it back.
        const dots = yield* send("POST", "/members/invitations", { email: `a@${"a.".repeat(16 * 1024)}`, role: "viewer" })
        assert.strictEqual(dots.status, 400)
        assert.include(dots.body.error.message, "is longer than 254 characters")
        assert.isBelow(dots.text.length, 1_000)
      }))

    it.effect("changes roles and removes members, and always keeps an owner", () =>
      Effect.gen(function*() {
        const { send } = yield* team
        const invitation = (yield* send("POST", "/members/invitations", { email: "ad@acme.test", role: "admin" })).body.data
        yield* open(invitation.url)
        const [owner, admin] = (yield* send("GET", "/members")).body.data
        const demote = yield* send("PATCH", `/members/${owner.id}`, { role: "admin" })
        assert.strictEqual(demote.status, 409)
        assert.include(demote.body.error.message, "only owner")
        assert.strictEqual((yield* send("DELETE", `/members/${owner.id}`)).status, 409)
        const promoted = yield* send("PATCH", `/members/${admin.id}`, { role: "owner" })
        assert.strictEqual(promoted.status, 200)
        assert.strictEqual(promoted.body.data.role, "owner")
        // Now there are two owners: the first may step down and leave.
        assert.strictEqual((yield* send("PATCH", `/members/${owner.id}`, { role: "viewer" })).body.data.role, "viewer")
        assert.deepStrictEqual((yield* send("DELETE", `/members/${owner.id}`)).body.data, { id: owner.id, removed: true })
        assert.deepStrictEqual((yield* send("GET", "/members")).body.data.map((member: any) => member.email), ["ad@acme.test"])
        assert.strictEqual((yield* send("DELETE", `/members/${owner.id}`)).status, 404)
        assert.strictEqual((yield* send("PATCH", `/members/${admin.id}`, { role: "chief" })).status, 400)
      }))
  }
)
