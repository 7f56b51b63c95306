import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends } from "@herald/db/testing"
import * as Packages from "../src/Packages.ts"
import { serverLayer } from "./harness.ts"
import { events, settled, setup } from "./publishing.ts"

// `GET /api/v1/posts/:id/events`: a post's history as its webhooks told it, in order, for the post page.

const installed = Packages.all.filter((entry) => entry.network === "x")

for (const backend of backends()) layer(serverLayer({}, installed, backend), { excludeTestServices: true })(
  `GET /api/v1/posts/:id/events on ${backend.name}`,
  (it) => {
    it.effect("a post's events in the order they happened, each with the data its webhook carries, and no other post's", () =>
      Effect.gen(function*() {
        const { accounts, create, get, send, workspace } = yield* setup(["x"])
        const post = yield* create({ content: "first a draft", accountIds: [accounts.x], draft: true })
        const other = yield* create({ content: "another", accountIds: [accounts.x], draft: true })
        const changed = yield* send("PATCH", `/posts/${post.id}`, { content: "then a change" })
        assert.strictEqual(changed.status, 200, changed.text)
        const scheduled = yield* send("PATCH", `/posts/${post.id}`, { draft: false, scheduledAt: "2099-01-01T09:00:00Z" })
        assert.strictEqual(scheduled.status, 200, scheduled.text)

        const answer = yield* send("GET", `/posts/${post.id}/events`)
        assert.strictEqual(answer.status, 200, answer.text)
        const listed: ReadonlyArray<any> = answer.body.data
        const written = (yield* events(workspace.id)).filter((row) => row.data.postId === post.id)
        assert.deepStrictEqual(listed.map((event) => event.event), ["post.created", "post.updated", "post.updated"])
        assert.deepStrictEqual(listed.map((event) => event.data), written.map((row) => row.data))
        for (const event of listed) {
          assert.match(event.id, /^[0-9a-f-]{36}$/)
          assert.match(event.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
          assert.strictEqual(event.data.post.id, post.id)
        }
        assert.strictEqual(listed[0].data.post.content, "first a draft")
        assert.strictEqual(listed[1].data.post.content, "then a change")
        assert.strictEqual(listed[2].data.post.status, "scheduled")
        const others = yield* send("GET", `/posts/${other.id}/events`)
        assert.deepStrictEqual(others.body.data.map((event: any) => event.event), ["post.created"])

        // Sent now, its first event is its outcome.
        const now = yield* create({ content: "out now", accountIds: [accounts.x], publishNow: true })
        yield* settled(get, now.id)
        const published = yield* send("GET", `/posts/${now.id}/events`)
        assert.deepStrictEqual(published.body.data.map((event: any) => event.event), ["post.published"])
        assert.strictEqual(published.body.data[0].data.post.status, "published")
      }))

    it.effect("an unknown post, or another workspace's, is not_found", () =>
      Effect.gen(function*() {
        const mine = yield* setup(["x"])
        const theirs = yield* setup(["x"])
        const post = yield* theirs.create({ content: "theirs", accountIds: [theirs.accounts.x], draft: true })
        for (const id of [post.id, "pst_nothing"]) {
          const answer = yield* mine.send("GET", `/posts/${id}/events`)
          assert.strictEqual(answer.status, 404, answer.text)
          assert.strictEqual(answer.body.error.code, "not_found")
          assert.strictEqual(answer.body.error.message, `Post ${id} does not exist`)
        }
        const own = yield* theirs.send("GET", `/posts/${post.id}/events`)
        assert.strictEqual(own.status, 200, own.text)
      }))
  }
)
