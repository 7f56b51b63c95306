import { assert, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import sharp from "sharp"
import { Envelope, PostsApi } from "@herald/api"
import { Networks, Posts, PostShape } from "@herald/core"
import { backends } from "@herald/db/testing"
import * as Packages from "../src/Packages.ts"
import { baseUrl, bearer, request, serverLayer, workspaceWithKey } from "./harness.ts"

// The list page (`GET /api/v1/posts`) builds its body from the posts as shown and checks it once against the
// page's wire schema: each post must read exactly as `GET /api/v1/posts/:id` answers it, field for field and
// in the same order, and a row that breaks the schema still fails the page rather than reaching a client.

const installed = Packages.all.filter((entry) => entry.network === "bluesky" || entry.network === "x")

const setup = Effect.gen(function*() {
  const base = yield* baseUrl
  const { key, workspace } = yield* workspaceWithKey()
  const send = (method: string, path: string, body?: unknown) =>
    request(`${base}/api/v1${path}`, {
      method,
      headers: { ...bearer(key.key), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  const connected = yield* send("POST", "/accounts/connect", { platform: "bluesky", fields: { identifier: "list.test", password: "b" } })
  assert.strictEqual(connected.status, 201, connected.text)
  return { base, key: key.key, send, workspace, accountId: connected.body.data.id as string }
})

/** A post of each kind the page shows: options set and defaulted, per-network text, media with alt text. */
const variedPosts = Effect.gen(function*() {
  const { accountId, base, key, send, workspace } = yield* setup
  const png = yield* Effect.promise(() =>
    sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 0, g: 128, b: 255 } } }).png().toBuffer()
  )
  const uploaded = yield* request(`${base}/api/v1/media?alt=${encodeURIComponent("A blue square")}`, {
    method: "POST",
    headers: { ...bearer(key), "content-type": "image/png" },
    body: png
  })
  assert.strictEqual(uploaded.status, 200, uploaded.text)
  const at = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString()
  const bodies = [
    { content: "Plain draft", accountIds: [accountId], draft: true },
    { content: "A thread", accountIds: [accountId], scheduledAt: at(60), platformOptions: { bluesky: { thread: ["Two", "Three"] } } },
    { content: "With a photo", accountIds: [accountId], scheduledAt: at(90), mediaIds: [uploaded.body.data.id] },
    { content: "Per network", accountIds: [accountId], scheduledAt: at(120), platformContent: { bluesky: "Just for Bluesky" } }
  ]
  const ids: Array<string> = []
  for (const body of bodies) {
    const created = yield* send("POST", "/posts", body)
    assert.strictEqual(created.status, 200, created.text)
    ids.push(created.body.data.id)
  }
  return { send, workspace, ids }
})

for (const backend of backends()) {
  layer(serverLayer({}, installed, backend), { excludeTestServices: true })(`posts list page on ${backend.name}`, (it) => {
    it.effect("each listed post reads exactly as GET /posts/:id answers it, in the same field order; the page is JSON", () =>
      Effect.gen(function*() {
        const { ids, send } = yield* variedPosts
        const listed = yield* send("GET", "/posts?limit=20")
        assert.strictEqual(listed.status, 200, listed.text)
        assert.strictEqual(listed.headers.get("content-type"), "application/json")
        assert.strictEqual(listed.body.nextCursor, null)
        assert.deepStrictEqual(listed.body.data.map((post: any) => post.id).sort(), [...ids].sort())
        for (const post of listed.body.data) {
          const one = yield* send("GET", `/posts/${post.id}`)
          // Compared as text: the same fields, values and order.
          assert.strictEqual(JSON.stringify(post), JSON.stringify(one.body.data))
        }
        // Pages follow one another by the cursor as before.
        const first = yield* send("GET", "/posts?limit=3")
        const rest = yield* send("GET", `/posts?limit=3&cursor=${encodeURIComponent(first.body.nextCursor)}`)
        assert.deepStrictEqual([...first.body.data, ...rest.body.data].map((post: any) => post.id), listed.body.data.map((post: any) => post.id))
      }))

    it.effect("Posts.listShown gives the posts as shown, which the page's wire schema accepts as they are", () =>
      Effect.gen(function*() {
        const { workspace } = yield* variedPosts
        const posts = yield* Posts.Posts
        const networks = yield* Networks.Networks
        const shape = PostShape.make(networks.all)
        const input = { limit: 20 }
        const listed = yield* posts.listShown(workspace.id, input)
        const shown = listed.posts.map((post) => post.show())
        const built = yield* posts.list(workspace.id, input)
        // The same values (the shown posts' targets and media are plain objects, not class instances).
        assert.deepEqual(JSON.parse(JSON.stringify(shown)), JSON.parse(JSON.stringify(built.posts.map(shape.show))))
        // Listed again unchanged, each post has the same key; the keys of different posts differ.
        const again = yield* posts.listShown(workspace.id, input)
        assert.deepStrictEqual(again.posts.map((post) => post.key), listed.posts.map((post) => post.key))
        assert.strictEqual(new Set(listed.posts.map((post) => post.key)).size, listed.posts.length)
        const page = { data: shown, nextCursor: null }
        const pageSchema = Envelope.Page(PostsApi.schemas(shape).post)
        const checked = Schema.decodeUnknownSync(Schema.toEncoded(pageSchema))(page)
        assert.strictEqual(JSON.stringify(checked), JSON.stringify(Schema.encodeSync(pageSchema)({ data: built.posts, nextCursor: null })))
      }))

    it.effect("a post listed before and changed since reads changed: its checked JSON is kept only while it is shown the same", () =>
      Effect.gen(function*() {
        const { ids, send } = yield* variedPosts
        const sql = yield* SqlClient.SqlClient
        const before = yield* send("GET", "/posts?limit=20")
        assert.strictEqual(before.status, 200, before.text)
        // Every part the page shows, changed under the same posts: the post's text, a target, a media's alt.
        yield* sql`UPDATE posts SET content = 'Changed text' WHERE id = ${ids[0]!}`
        yield* sql`UPDATE post_targets SET status = 'failed', error = 'Refused' WHERE post_id = ${ids[1]!}`
        yield* sql`UPDATE media SET alt = 'A changed square' WHERE id IN (SELECT media_id FROM post_media WHERE post_id = ${ids[2]!})`
        const after = yield* send("GET", "/posts?limit=20")
        assert.strictEqual(after.status, 200, after.text)
        for (const post of after.body.data) {
          const one = yield* send("GET", `/posts/${post.id}`)
          assert.strictEqual(JSON.stringify(post), JSON.stringify(one.body.data))
        }
        const byId = new Map(after.body.data.map((post: any) => [post.id, post]))
        assert.strictEqual((byId.get(ids[0]!) as any).content, "Changed text")
        assert.deepInclude((byId.get(ids[1]!) as any).targets[0], { status: "failed", error: "Refused" })
        assert.strictEqual((byId.get(ids[2]!) as any).media[0].alt, "A changed square")
        // A post checked clean on an earlier page and broken since fails the page like any other.
        yield* sql`UPDATE posts SET platform_content = '{"bluesky": 5}'::jsonb WHERE id = ${ids[3]!}`
        const broken = yield* send("GET", "/posts?limit=20")
        assert.strictEqual(broken.status, 500, broken.text)
      }))

    it.effect("a row that breaks the post schema fails the page with a 500 and a request id, never reaching the client", () =>
      Effect.gen(function*() {
        const { ids, send } = yield* variedPosts
        const sql = yield* SqlClient.SqlClient
        // Per-network text must be text.
        yield* sql`UPDATE posts SET platform_content = '{"bluesky": 5}'::jsonb WHERE id = ${ids[0]!}`
        const listed = yield* send("GET", "/posts?limit=20")
        assert.strictEqual(listed.status, 500, listed.text)
        assert.notInclude(listed.text, "Plain draft")
        assert.isString(listed.body.error.requestId ?? listed.body.error.request_id ?? listed.headers.get("x-request-id"))
      }))
  })
}
