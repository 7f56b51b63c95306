import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { ApiKeys, People, Team } from "@herald/core"
import { backends } from "@herald/db/testing"
import { Installed } from "../src/Installed.ts"
import * as SandboxConnect from "../src/SandboxConnect.ts"
import { acceptAs, baseUrl, bearer, examplePackage, fastTuning, request, serverLayer, workspaceWithKey } from "./harness.ts"
import { settled } from "./publishing.ts"

// The sandbox's own routes, `GET /sandbox/<network>/_posts` and `POST /sandbox/<network>/_control/*`, over
// real HTTP (decision 0061): only a caller of Herald's (an API key, or a console session) is answered, and
// only about the sandbox accounts that caller's workspace connected; another workspace's account answers as
// one that does not exist.

let count = 0
const password = "correct horse battery"

const setup = Effect.gen(function*() {
  const base = yield* baseUrl
  const tag = `sa${++count}${Date.now().toString(36)}`
  const workspace = (name: string) =>
    Effect.gen(function*() {
      const email = `${name}@${tag}.test`
      const { key, workspace } = yield* workspaceWithKey(`${tag} ${name}`, email)
      const username = `${tag}_${name}`
      const account = yield* Effect.orDie(SandboxConnect.connect({ workspaceId: workspace.id, platform: "example", username }))
      const people = yield* People.People
      yield* Effect.orDie(Effect.flatMap(people.ensure(email), (person) => people.setPassword(person.id, password)))
      return { key: key.key, workspace, username, account, email }
    })
  const owner = yield* workspace("owner")
  const other = yield* workspace("other")
  const posts = (headers: Record<string, string>, query = "") =>
    request(`${base}/sandbox/example/_posts${query}`, { headers })
  const control = (kind: "comments" | "messages", headers: Record<string, string>, body: Record<string, unknown>) =>
    request(`${base}/sandbox/example/_control/${kind}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body)
    })
  // A post of the owner's, published through the API to its sandbox account.
  const send = (method: string, path: string, body?: unknown) =>
    request(`${base}/api/v1${path}`, {
      method,
      headers: { ...bearer(owner.key), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  const created = yield* send("POST", "/posts", { content: `Only ${tag}'s owner sees this`, accountIds: [owner.account.id], publishNow: true })
  assert.strictEqual(created.status, 200, created.text)
  const published = yield* settled((id) => Effect.map(send("GET", `/posts/${id}`), (answer) => answer.body.data), created.body.data.id)
  assert.strictEqual(published.status, "published", JSON.stringify(published.targets))
  const simulator = (yield* Installed).simulators.find((entry) => entry.network === "example")!
  const inboxOf = (username: string) => {
    const account = simulator.state.accountByUsername(username)!
    return {
      comments: [...simulator.state.comments.values()].filter((comment) => comment.accountId === account.id).length,
      messages: simulator.state.messagesAfter(account.id, 0).length
    }
  }
  return { base, tag, owner, other, posts, control, published, inboxOf }
})

const postedBy = (answer: { readonly body: any }, username: string) =>
  (answer.body.data as ReadonlyArray<{ readonly username: string }>).filter((post) => post.username === username)

for (const backend of backends()) {
  layer(serverLayer({}, [examplePackage], backend, fastTuning), { excludeTestServices: true })(
    `the sandbox's _posts and _control on ${backend.name}`,
    (it) => {
      it.effect("without credentials, or with a wrong key, they answer 401 and show or store nothing", () =>
        Effect.gen(function*() {
          const { control, inboxOf, owner, posts } = yield* setup
          for (const headers of [{}, bearer("hrld_not_a_key")]) {
            const listed = yield* posts(headers)
            assert.strictEqual(listed.status, 401, listed.text)
            assert.strictEqual(listed.body.error.code, "unauthorized")
            assert.match(listed.headers.get("www-authenticate") ?? "", /^Bearer realm="herald"/)
            assert.notInclude(listed.text, owner.username)
            for (const kind of ["comments", "messages"] as const) {
              const sent = yield* control(kind, headers, { username: owner.username, author: "stranger", text: "Hello" })
              assert.strictEqual(sent.status, 401, sent.text)
              assert.strictEqual(sent.body.error.code, "unauthorized")
            }
          }
          assert.deepStrictEqual(inboxOf(owner.username), { comments: 0, messages: 0 })
        }))

      it.effect("another workspace's key neither reads a workspace's sandbox posts nor comments on its accounts", () =>
        Effect.gen(function*() {
          const { control, inboxOf, other, owner, posts, tag } = yield* setup
          const listed = yield* posts(bearer(other.key))
          assert.strictEqual(listed.status, 200, listed.text)
          assert.deepStrictEqual(postedBy(listed, owner.username), [])
          assert.notInclude(listed.text, `Only ${tag}'s owner`)
          const named = yield* posts(bearer(other.key), `?username=${owner.username}`)
          assert.strictEqual(named.status, 200, named.text)
          assert.deepStrictEqual(named.body.data, [])
          for (const kind of ["comments", "messages"] as const) {
            const sent = yield* control(kind, bearer(other.key), { username: owner.username, author: "stranger", text: "Hello" })
            const absent = yield* control(kind, bearer(other.key), { username: `${tag}_nobody`, author: "stranger", text: "Hello" })
            assert.strictEqual(sent.status, 404, sent.text)
            assert.strictEqual(sent.body.error.code, "not_found")
            // Word for word what an account that does not exist gets.
            assert.strictEqual(sent.body.error.message.replace(owner.username, "NAME"), absent.body.error.message.replace(`${tag}_nobody`, "NAME"))
          }
          assert.deepStrictEqual(inboxOf(owner.username), { comments: 0, messages: 0 })
        }))

      it.effect("the workspace's own key and console session read its posts and comment on its accounts", () =>
        Effect.gen(function*() {
          const { base, control, inboxOf, owner, posts, published } = yield* setup
          for (const query of ["", `?username=${owner.username}`]) {
            const listed = yield* posts(bearer(owner.key), query)
            assert.strictEqual(listed.status, 200, listed.text)
            assert.deepStrictEqual(postedBy(listed, owner.username).map((post: any) => post.url), [published.targets[0].url])
          }
          const comment = yield* control("comments", bearer(owner.key), { username: owner.username, author: "fan", text: "Nice" })
          assert.strictEqual(comment.status, 201, comment.text)
          const message = yield* control("messages", bearer(owner.key), { username: owner.username, author: "fan", text: "Hi" })
          assert.strictEqual(message.status, 201, message.text)

          // The console's session: reads with its cookie, changes with its CSRF token from its own origin.
          const origin = new URL(base.replace("127.0.0.1", "localhost")).origin
          const signedIn = yield* request(`${base}/api/v1/auth/sign-in`, {
            method: "POST",
            headers: { origin, "content-type": "application/json" },
            body: JSON.stringify({ email: owner.email, password })
          })
          assert.strictEqual(signedIn.status, 200, signedIn.text)
          const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!
          const csrf = { cookie, origin, "x-csrf-token": signedIn.body.data.csrfToken as string }
          const listed = yield* posts({ cookie })
          assert.strictEqual(listed.status, 200, listed.text)
          assert.lengthOf(postedBy(listed, owner.username), 1)
          const withoutToken = yield* control("comments", { cookie, origin }, { username: owner.username, author: "fan", text: "Again" })
          assert.strictEqual(withoutToken.status, 403, withoutToken.text)
          assert.strictEqual(withoutToken.body.error.code, "forbidden")
          const bySession = yield* control("comments", csrf, { username: owner.username, author: "fan", text: "Again" })
          assert.strictEqual(bySession.status, 201, bySession.text)
          assert.deepStrictEqual(inboxOf(owner.username), { comments: 2, messages: 1 })
        }))

      it.effect("a viewer's key reads the workspace's sandbox posts but sends nothing", () =>
        Effect.gen(function*() {
          const { control, inboxOf, owner, posts, tag } = yield* setup
          const invitation = yield* Effect.orDie((yield* Team.Team).invite(owner.workspace.id, { email: `viewer@${tag}.test`, role: "viewer" }))
          const { member } = yield* Effect.orDie(acceptAs(invitation))
          const viewer = (yield* Effect.orDie((yield* ApiKeys.ApiKeys).create({ workspaceId: owner.workspace.id, memberId: member.id }))).key
          const listed = yield* posts(bearer(viewer))
          assert.strictEqual(listed.status, 200, listed.text)
          assert.lengthOf(postedBy(listed, owner.username), 1)
          const sent = yield* control("comments", bearer(viewer), { username: owner.username, author: "fan", text: "Hi" })
          assert.strictEqual(sent.status, 403, sent.text)
          assert.strictEqual(sent.body.error.code, "forbidden")
          assert.deepStrictEqual(inboxOf(owner.username), { comments: 0, messages: 0 })
        }))
    }
  )
}
