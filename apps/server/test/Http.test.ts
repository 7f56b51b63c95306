import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiKeys } from "@herald/core"
import { baseUrl, bearer, request, serverLayer, workspaceWithKey } from "./harness.ts"

const expectError = (answer: { readonly status: number; readonly body: any }, status: number, code: string) => {
  assert.strictEqual(answer.status, status, JSON.stringify(answer.body))
  assert.strictEqual(answer.body?.error?.code, code)
  assert.isString(answer.body.error.message)
  assert.isAbove(answer.body.error.message.length, 10)
}

layer(serverLayer())("REST skeleton", (it) => {
  it.effect("lists the workspace's accounts as { data: [] } with a request id and rate-limit headers", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      const answer = yield* request(`${base}/api/v1/accounts`, { headers: bearer(key.key) })
      assert.strictEqual(answer.status, 200)
      assert.strictEqual(answer.text, `{"data":[]}`)
      assert.match(answer.headers.get("x-request-id") ?? "", /^req_/)
      assert.strictEqual(answer.headers.get("ratelimit-policy"), `"default";q=1000;w=60`)
      assert.match(answer.headers.get("ratelimit") ?? "", /^"default";r=\d+;t=\d+$/)
      assert.match(answer.headers.get("content-type") ?? "", /application\/json/)
    }))

  it.effect("an error answer carries the request id and rate-limit headers too: a typed 404, a body the schema refuses", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      const missing = yield* request(`${base}/api/v1/posts/post_0000000000000000000000`, { headers: bearer(key.key) })
      const refused = yield* request(`${base}/api/v1/posts`, {
        method: "POST",
        headers: { ...bearer(key.key), "content-type": "application/json" },
        body: JSON.stringify({ text: 1 })
      })
      for (const [answer, status] of [[missing, 404], [refused, 400]] as const) {
        assert.strictEqual(answer.status, status)
        assert.match(answer.headers.get("x-request-id") ?? "", /^req_/)
        assert.strictEqual(answer.headers.get("ratelimit-policy"), `"default";q=1000;w=60`)
        assert.match(answer.headers.get("ratelimit") ?? "", /^"default";r=\d+;t=\d+$/)
      }
    }))

  it.effect("shows only the key's own workspace's accounts", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key, workspace } = yield* workspaceWithKey("Mine")
      const other = yield* workspaceWithKey("Theirs")
      const sql = yield* SqlClient.SqlClient
      yield* sql`INSERT INTO accounts (id, workspace_id, platform, username)
        VALUES ('acc_mine000000000000001', ${workspace.id}, 'x', 'mine'),
               ('acc_them000000000000001', ${other.workspace.id}, 'x', 'theirs')`.pipe(Effect.orDie)
      const answer = yield* request(`${base}/api/v1/accounts`, { headers: bearer(key.key) })
      assert.strictEqual(answer.status, 200)
      assert.deepStrictEqual(answer.body.data.map((account: any) => account.username), ["mine"])
      const account = answer.body.data[0]
      assert.deepStrictEqual(Object.keys(account).sort(), [
        "avatarUrl",
        "connectedAt",
        "displayName",
        "id",
        "platform",
        "status",
        "statusReason",
        "username"
      ])
      assert.strictEqual(account.status, "connected")
      assert.match(account.connectedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    }))

  it.effect("answers a missing key with 401 unauthorized and WWW-Authenticate: Bearer", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const answer = yield* request(`${base}/api/v1/accounts`)
      expectError(answer, 401, "unauthorized")
      assert.match(answer.headers.get("www-authenticate") ?? "", /^Bearer/)
      assert.match(answer.body.error.message, /Authorization: Bearer/)
      assert.isNotNull(answer.headers.get("x-request-id"))
    }))

  it.effect("refuses malformed, mistyped, unknown and other-scheme keys with 401", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      const lastChar = key.key.at(-1) === "A" ? "B" : "A"
      const cases: ReadonlyArray<readonly [Record<string, string>, RegExp]> = [
        [{ authorization: "Bearer not-a-key" }, /Malformed/],
        [{ authorization: `Bearer ${key.key.slice(0, -1)}${lastChar}` }, /checksum/],
        [{ authorization: `Basic ${Buffer.from("user:pass").toString("base64")}` }, /must be `Bearer <key>`, not `Basic/],
        [{ authorization: "Bearer" }, /Missing/]
      ]
      for (const [headers, message] of cases) {
        const answer = yield* request(`${base}/api/v1/accounts`, { headers })
        expectError(answer, 401, "unauthorized")
        assert.match(answer.body.error.message, message)
        assert.match(answer.headers.get("www-authenticate") ?? "", /^Bearer/)
      }
      // A well-formed key with a valid checksum that was never issued.
      const apiKeys = yield* ApiKeys.ApiKeys
      const { workspace } = yield* workspaceWithKey()
      const issued = yield* Effect.orDie(apiKeys.create({ workspaceId: workspace.id }))
      yield* Effect.orDie(apiKeys.revoke(issued.id))
      const revoked = yield* request(`${base}/api/v1/accounts`, { headers: bearer(issued.key) })
      expectError(revoked, 401, "unauthorized")
      assert.match(revoked.body.error.message, /revoked/)
    }))

  it.effect("refuses a key on the request right after it is revoked", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const apiKeys = yield* ApiKeys.ApiKeys
      const { key } = yield* workspaceWithKey()
      const before = yield* request(`${base}/api/v1/accounts`, { headers: bearer(key.key) })
      assert.strictEqual(before.status, 200)
      yield* Effect.orDie(apiKeys.revoke(key.id))
      const after = yield* request(`${base}/api/v1/accounts`, { headers: bearer(key.key) })
      expectError(after, 401, "unauthorized")
    }))

  it.effect("answers an unknown route with 404 not_found in the error shape", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      const answer = yield* request(`${base}/api/v1/nothing-here`, { headers: bearer(key.key) })
      expectError(answer, 404, "not_found")
      assert.isNotNull(answer.headers.get("x-request-id"))
    }))

  it.effect("answers a wrong method with 405, Allow, and the error shape", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      const answer = yield* request(`${base}/api/v1/accounts`, { method: "DELETE", headers: bearer(key.key) })
      expectError(answer, 405, "not_found")
      assert.strictEqual(answer.headers.get("allow"), "GET")
    }))

  it.effect("echoes a well-formed X-Request-Id and replaces a bad one", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const given = yield* request(`${base}/health`, { headers: { "x-request-id": "trace-123" } })
      assert.strictEqual(given.headers.get("x-request-id"), "trace-123")
      const bad = yield* request(`${base}/health`, { headers: { "x-request-id": "has spaces and\u00e9" } })
      assert.match(bad.headers.get("x-request-id") ?? "", /^req_/)
    }))

  it.effect("answers /health with 200 while the database answers", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const answer = yield* request(`${base}/health`)
      assert.strictEqual(answer.status, 200)
      assert.deepStrictEqual(answer.body, { status: "ok", database: "ok" })
    }))

  it.effect("serves OpenAPI 3.1 at /api/v1/openapi.json with the routes and the error shape", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const answer = yield* request(`${base}/api/v1/openapi.json`)
      assert.strictEqual(answer.status, 200)
      assert.match(answer.body.openapi, /^3\.1/)
      assert.property(answer.body.paths, "/api/v1/accounts")
      const responses = answer.body.paths["/api/v1/accounts"].get.responses
      assert.property(responses, "401")
      assert.property(responses, "429")
      assert.notProperty(answer.body.paths, "/admin/workspaces")
      // The team, approvals, client review and inbox routes are described with the rest.
      for (const path of [
        "/api/v1/members",
        "/api/v1/members/invitations",
        "/api/v1/members/{id}",
        "/api/v1/workspace",
        "/api/v1/posts/{id}/approve",
        "/api/v1/posts/{id}/request-changes",
        "/api/v1/posts/{id}/submit",
        "/api/v1/posts/{id}/review-links",
        "/api/v1/review-profiles",
        "/api/v1/inbox/comments",
        "/api/v1/inbox/comments/{id}/reply",
        "/api/v1/inbox/conversations",
        "/api/v1/inbox/conversations/{id}/messages",
        "/invitations/{token}",
        "/review/{token}",
        "/networks/{network}/webhook"
      ]) assert.property(answer.body.paths, path)
      assert.property(answer.body.paths["/api/v1/posts/{id}/approve"].post.responses, "403")
    }))

  it.effect("serves a docs page that loads nothing from other hosts", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const answer = yield* request(`${base}/docs`)
      assert.strictEqual(answer.status, 200)
      assert.match(answer.headers.get("content-type") ?? "", /text\/html/)
      assert.notMatch(answer.text, /<script[^>]+src=["']https?:/)
      assert.include(answer.text, "/api/v1/accounts")
    }))
})

describe("rate limit", () => {
  layer(serverLayer({ rateLimitPerMinute: 3 }))("at 3 per minute", (it) => {
    it.effect("answers the 4th request with 429 rate_limited and Retry-After in whole seconds", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const { key } = yield* workspaceWithKey()
        const { key: otherKey } = yield* workspaceWithKey()
        const remaining: Array<string | null> = []
        for (let index = 0; index < 3; index++) {
          const answer = yield* request(`${base}/api/v1/accounts`, { headers: bearer(key.key) })
          assert.strictEqual(answer.status, 200)
          remaining.push(answer.headers.get("ratelimit"))
        }
        assert.deepStrictEqual(remaining.map((value) => value?.match(/r=(\d+)/)?.[1]), ["2", "1", "0"])
        const refused = yield* request(`${base}/api/v1/accounts`, { headers: bearer(key.key) })
        expectError(refused, 429, "rate_limited")
        const retryAfter = refused.headers.get("retry-after") ?? ""
        assert.match(retryAfter, /^\d+$/)
        assert.isAtLeast(Number(retryAfter), 1)
        assert.isAtMost(Number(retryAfter), 60)
        assert.strictEqual(refused.headers.get("ratelimit-policy"), `"default";q=3;w=60`)
        // Another key has its own budget.
        const other = yield* request(`${base}/api/v1/accounts`, { headers: bearer(otherKey.key) })
        assert.strictEqual(other.status, 200)
      }))
  })
})
