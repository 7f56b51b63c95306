import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { ApiKeys, SignedLinks, Team } from "@herald/core"
import * as Packages from "../src/Packages.ts"
import * as SandboxConnect from "../src/SandboxConnect.ts"
import { acceptAs, baseUrl, bearer, request, serverLayer, workspaceWithKey } from "./harness.ts"
import { events, settled } from "./publishing.ts"

// Approvals over real HTTP: an editor's key submits, an owner's (or the workspace key) approves or sends
// back, and an approved post goes out through the engine to the network's simulator.

let workspaces = 0

const setup = Effect.gen(function*() {
  const base = yield* baseUrl
  const tag = `a${++workspaces}${Date.now().toString(36)}`
  const { key, workspace } = yield* workspaceWithKey(tag, `owner@${tag}.test`)
  const team = yield* Team.Team
  const apiKeys = yield* ApiKeys.ApiKeys
  const keyFor = (email: string, role: string) =>
    Effect.gen(function*() {
      const invitation = yield* team.invite(workspace.id, { email, role })
      const { member } = yield* acceptAs(invitation)
      return (yield* apiKeys.create({ workspaceId: workspace.id, memberId: member.id })).key
    }).pipe(Effect.orDie)
  const editor = yield* keyFor(`ed@${tag}.test`, "editor")
  const admin = yield* keyFor(`ad@${tag}.test`, "admin")
  const viewer = yield* keyFor(`vi@${tag}.test`, "viewer")
  const account = yield* Effect.orDie(SandboxConnect.connect({ workspaceId: workspace.id, platform: "x", username: `${tag}_x` }))
  const as = (apiKey: string) => (method: string, path: string, body?: unknown) =>
    request(`${base}/api/v1${path}`, {
      method,
      headers: { ...bearer(apiKey), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  const owner = as(key.key)
  const get = (id: string) => Effect.map(owner("GET", `/posts/${id}`), (answer) => answer.body.data)
  return { account, workspace, owner, editor: as(editor), admin: as(admin), viewer: as(viewer), get }
})

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString()

layer(serverLayer({}, Packages.all), { excludeTestServices: true })("approvals", (it) => {
  it.effect("an editor's post waits for approval, is approved with a note, and goes out at its time", () =>
    Effect.gen(function*() {
      const { account, editor, get, owner, workspace } = yield* setup
      assert.strictEqual((yield* editor("PATCH", "/workspace", { approvalRequired: true })).status, 403)
      const setting = yield* owner("PATCH", "/workspace", { approvalRequired: true })
      assert.strictEqual(setting.status, 200, setting.text)
      assert.isTrue(setting.body.data.approvalRequired)
      assert.isTrue((yield* editor("GET", "/workspace")).body.data.approvalRequired)

      const at = inSeconds(2)
      const created = yield* editor("POST", "/posts", { content: "Needs a yes", accountIds: [account.id], scheduledAt: at })
      assert.strictEqual(created.status, 200, created.text)
      assert.strictEqual(created.body.data.status, "awaiting_approval")
      const id = created.body.data.id
      // Not before approval, even past its time: the owner's post due at the same time goes out meanwhile.
      const alongside = yield* owner("POST", "/posts", { content: "Due alongside", accountIds: [account.id], scheduledAt: at })
      assert.strictEqual(alongside.status, 200, alongside.text)
      assert.strictEqual((yield* settled(get, alongside.body.data.id)).status, "published")
      assert.strictEqual((yield* get(id)).status, "awaiting_approval")

      const refused = yield* editor("POST", `/posts/${id}/approve`, {})
      assert.strictEqual(refused.status, 403)
      assert.strictEqual(refused.body.error.code, "forbidden")
      const approved = yield* owner("POST", `/posts/${id}/approve`, { note: "Lovely" })
      assert.strictEqual(approved.status, 200, approved.text)
      // Approved after its time: out now, so going out rather than scheduled.
      assert.strictEqual(approved.body.data.status, "publishing")
      assert.strictEqual((yield* settled(get, id)).status, "published")
      assert.strictEqual((yield* owner("POST", `/posts/${id}/approve`, {})).status, 409)

      const seen = (yield* events(workspace.id)).filter((row) => row.data.postId === id)
      assert.deepStrictEqual(seen.map((row) => row.event), ["post.created", "post.submitted", "post.approved", "post.published"])
      assert.strictEqual(seen[0]!.data.status, "awaiting_approval")
      assert.isString(seen[1]!.data.memberId)
      assert.strictEqual(seen[2]!.data.note, "Lovely")
      assert.strictEqual(seen[2]!.data.post.status, "publishing")
    }))

  it.effect("changes requested send it back to draft; edited and resubmitted, it is approved", () =>
    Effect.gen(function*() {
      const { account, editor, get, owner, workspace } = yield* setup
      yield* owner("PATCH", "/workspace", { approvalRequired: true })
      const id = (yield* editor("POST", "/posts", { content: "First try", accountIds: [account.id], scheduledAt: inSeconds(3600) })).body.data.id
      assert.strictEqual((yield* owner("POST", `/posts/${id}/request-changes`, {})).status, 400, "a note is required")
      const back = yield* owner("POST", `/posts/${id}/request-changes`, { note: "Say it warmer" })
      assert.strictEqual(back.status, 200, back.text)
      assert.strictEqual(back.body.data.status, "draft")
      assert.strictEqual((yield* owner("POST", `/posts/${id}/approve`, {})).status, 409, "a draft is not awaiting approval")
      assert.strictEqual((yield* editor("PATCH", `/posts/${id}`, { content: "Second try, warmer" })).body.data.status, "draft")
      const again = yield* editor("POST", `/posts/${id}/submit`)
      assert.strictEqual(again.status, 200, again.text)
      assert.strictEqual(again.body.data.status, "awaiting_approval")
      // The note is optional, and so is the body: no body at all (curl -X POST) reads as {}.
      assert.strictEqual((yield* owner("POST", `/posts/${id}/approve`)).body.data.status, "scheduled")
      assert.strictEqual((yield* get(id)).content, "Second try, warmer")
      const seen = (yield* events(workspace.id)).filter((row) => row.data.postId === id).map((row) => row.event)
      assert.deepStrictEqual(seen, ["post.created", "post.submitted", "post.changes_requested", "post.updated", "post.submitted", "post.approved"])
      const note = (yield* events(workspace.id)).find((row) => row.event === "post.changes_requested")!
      assert.strictEqual(note.data.note, "Say it warmer")
      assert.strictEqual(note.data.post.status, "draft")
    }))

  it.effect("without the setting an editor schedules directly; a viewer only reads", () =>
    Effect.gen(function*() {
      const { account, editor, viewer } = yield* setup
      const direct = yield* editor("POST", "/posts", { content: "No approval here", accountIds: [account.id], scheduledAt: inSeconds(3600) })
      assert.strictEqual(direct.body.data.status, "scheduled")
      const refused = yield* viewer("POST", "/posts", { content: "Nope", accountIds: [account.id], draft: true })
      assert.strictEqual(refused.status, 403)
      assert.strictEqual(refused.body.error.code, "forbidden")
      assert.strictEqual((yield* viewer("GET", `/posts/${direct.body.data.id}`)).status, 200)
      assert.strictEqual((yield* viewer("DELETE", `/posts/${direct.body.data.id}`)).status, 403)
    }))

  it.effect("a review link shows the post per network; the reviewer approves it and the events carry profileId", () =>
    Effect.gen(function*() {
      const { account, editor, get, owner, workspace } = yield* setup
      yield* owner("PATCH", "/workspace", { approvalRequired: true })
      const id = (yield* editor("POST", "/posts", {
        content: "For the client <b>",
        platformContent: { x: "The X version" },
        accountIds: [account.id],
        scheduledAt: inSeconds(3600)
      })).body.data.id
      const profile = (yield* owner("POST", "/review-profiles", { name: "Client Co", email: "Client@Co.test" })).body.data
      assert.match(profile.id, /^rvp_/)
      assert.strictEqual(profile.email, "client@co.test")
      assert.deepStrictEqual((yield* owner("GET", "/review-profiles")).body.data, [profile])
      // Only those who may approve hand out links to approve (issue 28): not the editor whose post it is.
      assert.strictEqual((yield* editor("POST", `/posts/${id}/review-links`, { profileId: profile.id })).status, 403)
      const made = yield* owner("POST", `/posts/${id}/review-links`, { profileId: profile.id })
      assert.strictEqual(made.status, 200, made.text)
      const link = made.body.data
      assert.deepInclude(link, { postId: id, profileId: profile.id })
      assert.match(link.url, /\/review\/rvl_[0-9A-Za-z]+\.\d+\.[A-Za-z0-9_-]{43}$/)

      const shown = yield* request(link.url.replace("localhost", "127.0.0.1"))
      assert.strictEqual(shown.status, 200)
      // Its Approve button is never shown in another site's frame (issue 28).
      assert.strictEqual(shown.headers.get("x-frame-options"), "DENY")
      assert.include(shown.headers.get("content-security-policy") ?? "", "frame-ancestors 'none'")
      assert.strictEqual(shown.headers.get("x-content-type-options"), "nosniff")
      assert.include(shown.text, "Review for Client Co")
      assert.include(shown.text, "The X version")
      assert.notInclude(shown.text, "<b>")
      assert.include(shown.text, `value="approve"`)

      const decided = yield* request(link.url.replace("localhost", "127.0.0.1"), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ action: "approve", note: "Good to go" }).toString()
      })
      assert.strictEqual(decided.status, 200, decided.text)
      assert.include(decided.text, "Approved")
      assert.strictEqual((yield* get(id)).status, "scheduled")
      const approved = (yield* events(workspace.id)).find((row) => row.event === "post.approved" && row.data.postId === id)!
      assert.deepInclude(approved.data, { profileId: profile.id, note: "Good to go" })
      // Decided: the page shows it, and a second answer is refused.
      assert.include((yield* request(link.url.replace("localhost", "127.0.0.1"))).text, "nothing to decide")
      const twice = yield* request(link.url.replace("localhost", "127.0.0.1"), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "action=approve"
      })
      assert.strictEqual(twice.status, 400)
    }))

  it.effect("an editor cannot approve their own post through a review link: no profile, no link; a link stops once its maker may not approve", () =>
    Effect.gen(function*() {
      const { account, admin, editor, get, owner } = yield* setup
      yield* owner("PATCH", "/workspace", { approvalRequired: true })
      const id = (yield* editor("POST", "/posts", { content: "Mine", accountIds: [account.id], scheduledAt: inSeconds(3600) })).body.data.id
      assert.strictEqual((yield* get(id)).status, "awaiting_approval")
      // What the attack did: a profile of the editor's own, a link for it, and an approval on the public page.
      const ownProfile = yield* editor("POST", "/review-profiles", { name: "Me, really" })
      assert.strictEqual(ownProfile.status, 403, ownProfile.text)
      assert.include(ownProfile.body.error.message, "owners, admins and workspace keys")
      const profile = (yield* owner("POST", "/review-profiles", { name: "Client" })).body.data
      assert.strictEqual((yield* editor("POST", `/posts/${id}/review-links`, { profileId: profile.id })).status, 403)
      assert.strictEqual((yield* editor("DELETE", `/review-profiles/${profile.id}`)).status, 403)
      // An admin's link approves while they are one; made an editor, their link no longer does.
      const link = (yield* admin("POST", `/posts/${id}/review-links`, { profileId: profile.id })).body.data.url as string
      const members = (yield* owner("GET", "/members")).body.data as Array<{ id: string; email: string }>
      const adminMember = members.find((member) => member.email.startsWith("ad@"))!
      assert.strictEqual((yield* owner("PATCH", `/members/${adminMember.id}`, { role: "editor" })).status, 200)
      const decided = yield* request(link.replace("localhost", "127.0.0.1"), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "action=approve"
      })
      assert.strictEqual(decided.status, 400, decided.text)
      assert.include(decided.text, "may no longer approve posts")
      assert.strictEqual((yield* get(id)).status, "awaiting_approval")
    }))

  it.effect("a reviewer sends a post back only with a note; expired and tampered links are refused", () =>
    Effect.gen(function*() {
      const { account, editor, get, owner, workspace } = yield* setup
      yield* owner("PATCH", "/workspace", { approvalRequired: true })
      const id = (yield* editor("POST", "/posts", { content: "Needs work", accountIds: [account.id], scheduledAt: inSeconds(3600) })).body.data.id
      const profile = (yield* owner("POST", "/review-profiles", { name: "Legal" })).body.data
      const url = ((yield* owner("POST", `/posts/${id}/review-links`, { profileId: profile.id, expiresInHours: 2 })).body.data.url as string)
        .replace("localhost", "127.0.0.1")
      const form = (body: string) => request(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body })
      const noNote = yield* form("action=request-changes&note=")
      assert.strictEqual(noNote.status, 400)
      assert.include(noNote.text, "a note is needed")
      assert.strictEqual((yield* form("action=request-changes&note=Fix+the+claim")).status, 200)
      assert.strictEqual((yield* get(id)).status, "draft")
      const sent = (yield* events(workspace.id)).find((row) => row.event === "post.changes_requested" && row.data.postId === id)!
      assert.deepInclude(sent.data, { profileId: profile.id, note: "Fix the claim" })

      const token = url.split("/").at(-1)!
      const expired = (yield* SignedLinks.SignedLinks).sign("review", token.split(".")[0]!, new Date(Date.now() - 1000))
      const old = yield* request(url.replace(token, expired))
      assert.strictEqual(old.status, 400)
      assert.include(old.text, "expired")
      // A later expiry in the same link: the signature no longer matches.
      const [linkId, seconds, mac] = token.split(".")
      const tampered = yield* request(url.replace(token, `${linkId}.${Number(seconds) + 3600}.${mac}`))
      assert.strictEqual(tampered.status, 400)
      assert.include(tampered.text, "altered")
      // Links are only for posts awaiting approval.
      assert.strictEqual((yield* owner("POST", `/posts/${id}/review-links`, { profileId: profile.id })).status, 409)
      assert.strictEqual((yield* owner("POST", `/posts/${id}/review-links`, { profileId: "rvp_0000000000000000000000" })).status, 409)
    }))

  it.effect("a role change counts at once, in every process's cache; a removed member's key stops working", () =>
    Effect.gen(function*() {
      const { account, editor, owner } = yield* setup
      const draft = { content: "Mine", accountIds: [account.id], draft: true }
      assert.strictEqual((yield* editor("POST", "/posts", draft)).status, 200, "the key is cached as an editor's")
      const members = (yield* owner("GET", "/members")).body.data
      const ed = members.find((member: { role: string }) => member.role === "editor")
      assert.strictEqual((yield* owner("PATCH", `/members/${ed.id}`, { role: "viewer" })).status, 200)
      const refused = yield* editor("POST", "/posts", draft)
      assert.strictEqual(refused.status, 403, "a viewer now, without waiting for the cache to expire")
      assert.strictEqual((yield* owner("DELETE", `/members/${ed.id}`)).status, 200)
      assert.strictEqual((yield* editor("GET", "/posts")).status, 401)
    }))

  it.effect("refuses a submission without a time, review links out of range or for an unknown profile, and a bad profile", () =>
    Effect.gen(function*() {
      const { account, editor, owner } = yield* setup
      yield* owner("PATCH", "/workspace", { approvalRequired: true })
      const draft = (yield* editor("POST", "/posts", { content: "When?", accountIds: [account.id], draft: true })).body.data
      const untimed = yield* editor("POST", `/posts/${draft.id}/submit`)
      assert.strictEqual(untimed.status, 400)
      assert.strictEqual(untimed.body.error.details[0].field, "scheduledAt")
      assert.strictEqual((yield* editor("GET", `/posts/${draft.id}`)).body.data.status, "draft", "left as it was")

      const badProfile = yield* owner("POST", "/review-profiles", { name: " ", email: "nope" })
      assert.strictEqual(badProfile.status, 400)
      assert.deepStrictEqual(badProfile.body.error.details.map((problem: { field: string }) => problem.field), ["name", "email"])
      assert.deepStrictEqual((yield* owner("GET", "/review-profiles")).body.data, [], "nothing half-made")

      const waiting = (yield* editor("POST", "/posts", { content: "Soon", accountIds: [account.id], scheduledAt: inSeconds(3600) })).body.data
      const profile = (yield* owner("POST", "/review-profiles", { name: "Client" })).body.data
      for (const expiresInHours of [0, 721, 1.5]) {
        const out = yield* owner("POST", `/posts/${waiting.id}/review-links`, { profileId: profile.id, expiresInHours })
        assert.strictEqual(out.status, 400, String(expiresInHours))
        assert.strictEqual(out.body.error.details[0].field, "expiresInHours")
      }
      const unknown = yield* owner("POST", `/posts/${waiting.id}/review-links`, { profileId: "rvp_0000000000000000000000" })
      assert.strictEqual(unknown.status, 400)
      assert.strictEqual(unknown.body.error.details[0].field, "profileId")
    }))
})
