import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import sharp from "sharp"
import { backends } from "@herald/db/testing"
import * as Packages from "../src/Packages.ts"
import { baseUrl, bearer, examplePackage, request, serverLayer, workspaceWithKey } from "./harness.ts"

// Posts over real HTTP with the example network (text up to 100 characters, text or media required).
const setup = Effect.gen(function*() {
  const base = yield* baseUrl
  const { key, workspace } = yield* workspaceWithKey()
  const started = yield* request(`${base}/api/v1/accounts/connect/example`, {
    method: "POST",
    headers: { ...bearer(key.key), "content-type": "application/json" },
    body: JSON.stringify({ username: "poster" })
  })
  const consent = yield* Effect.promise(() => fetch(started.body.data.url, { redirect: "manual" }))
  yield* request(consent.headers.get("location")!.replace("localhost", "127.0.0.1"))
  const accounts = yield* request(`${base}/api/v1/accounts`, { headers: bearer(key.key) })
  const accountId: string = accounts.body.data[0].id
  const post = (body: unknown) =>
    request(`${base}/api/v1/posts`, {
      method: "POST",
      headers: { ...bearer(key.key), "content-type": "application/json" },
      body: JSON.stringify(body)
    })
  const get = (path: string) => request(`${base}/api/v1${path}`, { headers: bearer(key.key) })
  const patch = (id: string, body: unknown) =>
    request(`${base}/api/v1/posts/${id}`, {
      method: "PATCH",
      headers: { ...bearer(key.key), "content-type": "application/json" },
      body: JSON.stringify(body)
    })
  return { base, key, workspace, accountId, post, get, patch }
})

const events = (workspaceId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly event: string; readonly data: any }>`
      SELECT event, data FROM events WHERE workspace_id = ${workspaceId} AND event LIKE 'post.%'
      ORDER BY sequence`).pipe(Effect.orDie)

const inAnHour = () => new Date(Date.now() + 3_600_000)

// On the embedded database, and on PostgreSQL when HERALD_TEST_DATABASE_URL names one.
// The installed networks' packages too: their options are fields of every post, whatever its targets.
for (const backend of backends()) layer(serverLayer({}, [examplePackage, ...Packages.all], backend), { excludeTestServices: true })(`posts on ${backend.name}`, (it) => {
  it.effect("schedules a post: targets pending, time normalised to UTC with milliseconds, post.scheduled in the outbox", () =>
    Effect.gen(function*() {
      const { accountId, get, post, workspace } = yield* setup
      const at = inAnHour()
      at.setUTCMilliseconds(0)
      const offset = at.toISOString().replace(".000Z", "+00:00")
      const created = yield* post({ content: "Hello", accountIds: [accountId], scheduledAt: offset })
      assert.strictEqual(created.status, 200, created.text)
      const data = created.body.data
      assert.match(data.id, /^pst_/)
      assert.strictEqual(data.status, "scheduled")
      assert.strictEqual(data.scheduledAt, at.toISOString())
      assert.deepStrictEqual(data.platformContent, {})
      assert.deepStrictEqual(data.xThread, [])
      assert.strictEqual(data.instagramFormat, "post")
      assert.deepStrictEqual(data.media, [])
      assert.deepStrictEqual(data.targets, [
        { accountId, platform: "example", username: "poster", status: "pending", url: null, error: null }
      ])
      // The create answer is the same object GET answers.
      assert.deepStrictEqual((yield* get(`/posts/${data.id}`)).body.data, data)
      const recorded = yield* events(workspace.id)
      assert.deepStrictEqual(recorded.map((event) => event.event), ["post.scheduled"])
      assert.strictEqual(recorded[0]!.data.postId, data.id)
      assert.strictEqual(recorded[0]!.data.status, "scheduled")
      assert.deepStrictEqual(recorded[0]!.data.post, data)
    }))

  it.effect("saves a draft (post.created with status draft) and shows the full object on GET", () =>
    Effect.gen(function*() {
      const { accountId, get, post, workspace } = yield* setup
      const created = yield* post({ content: "Later", accountIds: [accountId], draft: true })
      assert.strictEqual(created.body.data.status, "draft")
      assert.isNull(created.body.data.scheduledAt)
      const fetched = yield* get(`/posts/${created.body.data.id}`)
      assert.strictEqual(fetched.status, 200)
      assert.deepStrictEqual(Object.keys(fetched.body.data).sort(), [
        "content", "createdAt", "firstComment", "id", "instagramFormat", "media", "platformContent", "platformOptions", "publishedAt",
        "queued", "scheduledAt", "status", "targets", "tiktok", "xThread", "xThreadMedia", "youtubeThumbnail", "youtubeTitle"
      ])
      const recorded = yield* events(workspace.id)
      assert.deepStrictEqual(recorded.map((event) => [event.event, event.data.status]), [["post.created", "draft"]])
    }))

  it.effect("checks the network's limits at the boundary: 100 passes, 101 fails naming network, limit and size", () =>
    Effect.gen(function*() {
      const { accountId, post, workspace } = yield* setup
      const ok = yield* post({ content: "a".repeat(100), accountIds: [accountId], draft: true })
      assert.strictEqual(ok.status, 200, ok.text)
      const tooLong = yield* post({ content: "a".repeat(101), accountIds: [accountId], draft: true })
      assert.strictEqual(tooLong.status, 400)
      assert.strictEqual(tooLong.body.error.code, "invalid")
      assert.strictEqual(tooLong.body.error.message, "example: text is 101 characters; the limit is 100")
      assert.deepInclude(tooLong.body.error.details[0], { network: "example", field: "content" })
      const empty = yield* post({ content: "", accountIds: [accountId], draft: true })
      assert.strictEqual(empty.status, 400)
      assert.include(empty.body.error.message, "example: a post needs text or media")
      assert.strictEqual((yield* events(workspace.id)).length, 1)
    }))

  it.effect("refuses bad timing, times, accounts and unknown fields, reporting every problem and recording nothing", () =>
    Effect.gen(function*() {
      const { accountId, post, workspace } = yield* setup
      const none = yield* post({ content: "x", accountIds: [accountId] })
      assert.strictEqual(none.status, 400)
      assert.include(none.body.error.message, "exactly one of scheduledAt, publishNow: true, queued: true or draft: true")
      const several = yield* post({ content: "x", accountIds: [accountId], draft: true, publishNow: true })
      assert.include(several.body.error.message, "not several")
      const noZone = yield* post({ content: "x", accountIds: [accountId], scheduledAt: "2030-01-01T09:00:00" })
      assert.include(noZone.body.error.message, "needs a time zone")
      const past = yield* post({ content: "x", accountIds: [accountId], scheduledAt: "2020-01-01T09:00:00Z" })
      assert.include(past.body.error.message, "in the past")
      const accounts = yield* post({ content: "x", accountIds: [accountId, accountId, "acc_nope"], draft: true })
      assert.include(accounts.body.error.message, `accountIds repeats ${accountId}`)
      assert.include(accounts.body.error.message, "acc_nope")
      const typo = yield* post({ content: "x", accountIds: [accountId], draft: true, sheduledAt: "soon" })
      assert.strictEqual(typo.status, 400)
      assert.include(typo.body.error.message, "sheduledAt")
      const wrongType = yield* post({ content: 5, accountIds: [accountId], draft: true })
      assert.strictEqual(wrongType.body.error.code, "invalid")
      assert.include(wrongType.body.error.message, "content")
      assert.deepStrictEqual(yield* events(workspace.id), [])
    }))

  it.effect("lists by time then id, pages with nextCursor, filters by status and bounds, and refuses bad values", () =>
    Effect.gen(function*() {
      const { accountId, get, post } = yield* setup
      const base = Date.now() + 7_200_000
      const ids: Array<string> = []
      for (let index = 0; index < 5; index++) {
        const created = yield* post({ content: `p${index}`, accountIds: [accountId], scheduledAt: new Date(base + index * 60_000).toISOString() })
        ids.push(created.body.data.id)
      }
      const drafted = yield* post({ content: "draft", accountIds: [accountId], draft: true })
      const first = yield* get("/posts?limit=2&status=scheduled")
      assert.deepStrictEqual(first.body.data.map((entry: any) => entry.id), ids.slice(0, 2))
      assert.isString(first.body.nextCursor)
      const second = yield* get(`/posts?limit=2&status=scheduled&cursor=${first.body.nextCursor}`)
      assert.deepStrictEqual(second.body.data.map((entry: any) => entry.id), ids.slice(2, 4))
      const third = yield* get(`/posts?limit=2&status=scheduled&cursor=${second.body.nextCursor}`)
      assert.deepStrictEqual(third.body.data.map((entry: any) => entry.id), ids.slice(4))
      assert.isNull(third.body.nextCursor)
      const bounded = yield* get(`/posts?from=${new Date(base + 60_000).toISOString()}&to=${new Date(base + 180_000).toISOString()}`)
      assert.deepStrictEqual(bounded.body.data.map((entry: any) => entry.id), ids.slice(1, 3))
      const drafts = yield* get("/posts?status=draft")
      assert.deepStrictEqual(drafts.body.data.map((entry: any) => entry.id), [drafted.body.data.id])
      const both = yield* get("/posts?status=draft,scheduled&limit=100")
      assert.strictEqual(both.body.data.length, 6)
      // accountId: only the posts with a target on that account.
      const sql = yield* SqlClient.SqlClient
      const otherAccount = `${accountId}_b`
      yield* Effect.orDie(sql`INSERT INTO accounts (id, workspace_id, platform, username)
        SELECT ${otherAccount}, workspace_id, platform, 'second' FROM accounts WHERE id = ${accountId}`)
      const elsewhere = yield* post({ content: "elsewhere", accountIds: [otherAccount], draft: true })
      const shared = yield* post({ content: "both", accountIds: [otherAccount, accountId], draft: true })
      const onOther = yield* get(`/posts?accountId=${otherAccount}&limit=100`)
      assert.deepStrictEqual(onOther.body.data.map((entry: any) => entry.id).sort(), [elsewhere.body.data.id, shared.body.data.id].sort())
      assert.strictEqual((yield* get(`/posts?accountId=${accountId}&limit=100`)).body.data.length, 7)
      for (const bad of ["limit=0", "limit=101", "limit=ten", "status=sent", "from=yesterday", "cursor=%%%"]) {
        const refused = yield* get(`/posts?${bad}`)
        assert.strictEqual(refused.status, 400, bad)
        assert.include(refused.body.error.message, bad.split("=")[0]!)
      }
    }))

  it.effect("deletes a post (post.deleted with postId only); another workspace's post is not found", () =>
    Effect.gen(function*() {
      const { accountId, base, get, key, post, workspace } = yield* setup
      const created = yield* post({ content: "bye", accountIds: [accountId], draft: true })
      const id = created.body.data.id
      const other = yield* workspaceWithKey("Other")
      const foreign = yield* request(`${base}/api/v1/posts/${id}`, { headers: bearer(other.key.key) })
      assert.strictEqual(foreign.status, 404)
      const removed = yield* request(`${base}/api/v1/posts/${id}`, { method: "DELETE", headers: bearer(key.key) })
      assert.strictEqual(removed.status, 200, removed.text)
      assert.deepStrictEqual(removed.body, { data: { id, deleted: true } })
      assert.strictEqual((yield* get(`/posts/${id}`)).status, 404)
      const recorded = yield* events(workspace.id)
      assert.deepStrictEqual(recorded.at(-1), { event: "post.deleted", data: { postId: id } })
    }))

  it.effect("changes only the fields sent, revalidates, reschedules, drafts back and schedules drafts", () =>
    Effect.gen(function*() {
      const { accountId, key: apiKey, patch, post, workspace } = yield* setup
      const authorization = bearer(apiKey.key)
      const at = inAnHour().toISOString()
      const created = yield* post({ content: "v1", accountIds: [accountId], scheduledAt: at })
      assert.strictEqual(created.status, 200, created.text)
      const id = created.body.data.id
      const edited = yield* patch(id, { content: "v2" })
      assert.strictEqual(edited.status, 200, edited.text)
      assert.deepInclude(edited.body.data, { content: "v2", scheduledAt: at, status: "scheduled" })
      assert.strictEqual(edited.body.data.targets[0].accountId, accountId)
      const later = new Date(Date.now() + 7_200_000).toISOString()
      const moved = yield* patch(id, { scheduledAt: later })
      assert.strictEqual(moved.body.data.scheduledAt, later)
      const tooLong = yield* patch(id, { content: "a".repeat(101) })
      assert.strictEqual(tooLong.status, 400)
      assert.strictEqual(tooLong.body.error.message, "example: text is 101 characters; the limit is 100")
      const drafted = yield* patch(id, { draft: true })
      assert.strictEqual(drafted.body.data.status, "draft")
      const rescheduled = yield* patch(id, { draft: false, scheduledAt: at })
      assert.deepInclude(rescheduled.body.data, { status: "scheduled", scheduledAt: at })
      const unknown = yield* patch(id, { publishNow: true })
      assert.strictEqual(unknown.status, 400)
      const base = yield* baseUrl
      const removed = yield* request(`${base}/api/v1/posts/${id}`, { method: "DELETE", headers: authorization })
      assert.strictEqual(removed.status, 200)
      const recorded = yield* events(workspace.id)
      assert.deepStrictEqual(recorded.map((event) => event.event), [
        "post.scheduled", "post.updated", "post.rescheduled", "post.updated", "post.updated", "post.deleted"
      ])
      assert.strictEqual(recorded[1]!.data.post.content, "v2")
    }))

  it.effect("a draft's PATCH checks scheduledAt and keeps it as the draft's planned time; the draft stays a draft", () =>
    Effect.gen(function*() {
      const { accountId, base, key, patch, post } = yield* setup
      const created = yield* post({ content: "plan", accountIds: [accountId], draft: true })
      const id = created.body.data.id
      for (const bad of ["tomorrow", "2026-13-45T99:00:00Z", "2026-12-01T09:00:00", "2000-01-01T00:00:00Z"]) {
        const refused = yield* patch(id, { scheduledAt: bad })
        assert.strictEqual(refused.status, 400, `${bad}: ${refused.text}`)
        assert.strictEqual(refused.body.error.code, "invalid")
        assert.strictEqual(refused.body.error.details[0].field, "scheduledAt")
      }
      const at = inAnHour().toISOString()
      const planned = yield* patch(id, { scheduledAt: at })
      assert.strictEqual(planned.status, 200, planned.text)
      assert.deepInclude(planned.body.data, { status: "draft", scheduledAt: at })
      // Other changes keep the planned time, and submitting asks approval for it.
      const edited = yield* patch(id, { content: "plan v2" })
      assert.deepInclude(edited.body.data, { status: "draft", scheduledAt: at, content: "plan v2" })
      const submitted = yield* request(`${base}/api/v1/posts/${id}/submit`, { method: "POST", headers: bearer(key.key) })
      assert.strictEqual(submitted.status, 200, submitted.text)
      assert.strictEqual(submitted.body.data.scheduledAt, at)
    }))

  it.effect("refuses changes and retries in the wrong state with 409 conflict, and unknown posts with 404", () =>
    Effect.gen(function*() {
      const { accountId, base, key, patch, post } = yield* setup
      const created = yield* post({ content: "out", accountIds: [accountId], draft: true })
      const id = created.body.data.id
      const retryDraft = yield* request(`${base}/api/v1/posts/${id}/retry`, { method: "POST", headers: bearer(key.key) })
      assert.strictEqual(retryDraft.status, 409)
      assert.strictEqual(retryDraft.body.error.code, "conflict")
      const sql = yield* SqlClient.SqlClient
      yield* Effect.orDie(sql`UPDATE posts SET status = 'published' WHERE id = ${id}`)
      const late = yield* patch(id, { content: "too late" })
      assert.strictEqual(late.status, 409)
      assert.include(late.body.error.message, "published")
      const missing = yield* patch("pst_0000000000000000000000", { content: "x" })
      assert.strictEqual(missing.status, 404)
    }))

  it.effect("retries only the failed targets of a partial post (post.retried)", () =>
    Effect.gen(function*() {
      const { accountId, base, key, post, workspace } = yield* setup
      const created = yield* post({ content: "again", accountIds: [accountId], draft: true })
      const id = created.body.data.id
      const sql = yield* SqlClient.SqlClient
      yield* Effect.orDie(sql`UPDATE posts SET status = 'failed' WHERE id = ${id}`)
      yield* Effect.orDie(sql`UPDATE post_targets SET status = 'failed', error = 'no' WHERE post_id = ${id}`)
      const retried = yield* request(`${base}/api/v1/posts/${id}/retry`, { method: "POST", headers: bearer(key.key) })
      assert.strictEqual(retried.status, 200, retried.text)
      // Retried, it goes out at once.
      assert.strictEqual(retried.body.data.status, "publishing")
      assert.deepInclude(retried.body.data.targets[0], { status: "pending", error: null })
      // It goes out at once, so its outcome may already follow.
      assert.include((yield* events(workspace.id)).map((event) => event.event), "post.retried")
    }))

  it.effect("replays a repeat with the same Idempotency-Key and body, refuses another body, and makes one post of two at once", () =>
    Effect.gen(function*() {
      const { accountId, base, get, key } = yield* setup
      const send = (idempotencyKey: string, body: unknown) =>
        request(`${base}/api/v1/posts`, {
          method: "POST",
          headers: { ...bearer(key.key), "content-type": "application/json", "idempotency-key": idempotencyKey },
          body: JSON.stringify(body)
        })
      const body = { content: "once", accountIds: [accountId], draft: true }
      const first = yield* send("key-1", body)
      assert.strictEqual(first.status, 200, first.text)
      const again = yield* send("key-1", body)
      assert.strictEqual(again.status, 200)
      assert.strictEqual(again.text, first.text)
      assert.strictEqual(again.headers.get("idempotent-replayed"), "true")
      const other = yield* send("key-1", { ...body, content: "different" })
      assert.strictEqual(other.status, 409)
      assert.strictEqual(other.body.error.code, "conflict")
      // A refused request is not kept: the key can be used again once the request is right.
      const refused = yield* send("key-2", { ...body, content: "" })
      assert.strictEqual(refused.status, 400)
      const fixed = yield* send("key-2", body)
      assert.strictEqual(fixed.status, 200, fixed.text)
      const [left, right] = yield* Effect.all([send("key-3", body), send("key-3", body)], { concurrency: 2 })
      assert.strictEqual(left.body.data.id, right.body.data.id)
      const listed = yield* get("/posts?status=draft&limit=100")
      // key-1, key-2 and key-3 made one post each, whatever the repeats.
      assert.strictEqual(listed.body.data.filter((entry: any) => entry.content === "once").length, 3)
    }))

  it.effect("refuses at once, saying why, a repeat whose first request never answered (its process stopped)", () =>
    Effect.gen(function*() {
      const { accountId, base, get, key } = yield* setup
      const body = { content: "cut off", accountIds: [accountId], draft: true }
      const send = () =>
        request(`${base}/api/v1/posts`, {
          method: "POST",
          headers: { ...bearer(key.key), "content-type": "application/json", "idempotency-key": "cut-off" },
          body: JSON.stringify(body)
        })
      assert.strictEqual((yield* send()).status, 200)
      // What a process killed after the post's commit and before the answer's leaves: a claim with no answer.
      const sql = yield* SqlClient.SqlClient
      yield* Effect.orDie(sql`UPDATE idempotency_keys SET status_code = NULL, response_body = NULL,
        created_at = now() - interval '1 hour' WHERE key = 'cut-off'`)
      // At once, not after waiting for a first request still running (15 s, then "still in progress").
      const repeat = yield* send()
      assert.strictEqual(repeat.status, 409, repeat.text)
      assert.strictEqual(repeat.body.error.code, "conflict")
      assert.match(repeat.body.error.message, /never answered .*whether it took effect is unknown/)
      // Not run a second time.
      const listed = yield* get("/posts?status=draft&limit=100")
      assert.strictEqual(listed.body.data.filter((entry: any) => entry.content === "cut off").length, 1)
    }))

  it.effect("attaches uploaded media in order; the post's media links serve the files", () =>
    Effect.gen(function*() {
      const { accountId, base, key, post } = yield* setup
      const png = yield* Effect.promise(() =>
        sharp({ create: { width: 40, height: 30, channels: 4, background: { r: 0, g: 128, b: 255, alpha: 0.5 } } }).png().toBuffer()
      )
      const uploaded = yield* request(`${base}/api/v1/media`, {
        method: "POST",
        headers: { ...bearer(key.key), "content-type": "image/png" },
        body: png
      })
      assert.strictEqual(uploaded.status, 200, uploaded.text)
      assert.deepInclude(uploaded.body.data, { kind: "image", mimeType: "image/jpeg", width: 40, height: 30 })
      const created = yield* post({ content: "with a photo", accountIds: [accountId], draft: true, mediaIds: [uploaded.body.data.id] })
      assert.strictEqual(created.status, 200, created.text)
      const media = created.body.data.media
      assert.deepStrictEqual((yield* request(`${base}/api/v1/posts/${created.body.data.id}`, { headers: bearer(key.key) })).body.data, created.body.data)
      assert.deepStrictEqual(media.map((item: any) => item.id), [uploaded.body.data.id])
      assert.match(media[0].url, /\/media\/med_[0-9A-Za-z]+\.jpg$/)
      const file = yield* Effect.promise(() => fetch(media[0].url.replace("localhost", "127.0.0.1")))
      assert.strictEqual(file.status, 200)
      assert.strictEqual(file.headers.get("content-type"), "image/jpeg")
      const unknown = yield* post({ content: "x", accountIds: [accountId], draft: true, mediaIds: ["med_nope"] })
      assert.include(unknown.body.error.message, "Media med_nope does not exist")
    }))
})
