import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Webhook } from "@herald/domain"
import { apiWithKey, serverLayer, workspaceWithKey } from "./harness.ts"

// Webhook endpoints over real HTTP: the settings calls of product.md ("Webhooks").

const client = Effect.gen(function*() {
  const { key, workspace } = yield* workspaceWithKey()
  const send = yield* apiWithKey(key.key)
  return { send, workspace }
})

layer(serverLayer(), { excludeTestServices: true })("webhook endpoints", (it) => {
  it.effect("creates an endpoint and shows its whsec_ secret once; list and get never show it", () =>
    Effect.gen(function*() {
      const { send } = yield* client
      const created = yield* send("POST", "/webhooks", {
        url: "http://127.0.0.1:9/hook",
        events: ["post.published", "post.failed", "post.published"],
        description: "CI"
      })
      assert.strictEqual(created.status, 200, created.text)
      const data = created.body.data
      assert.match(data.id, /^whk_[0-9A-Za-z]{22}$/)
      assert.strictEqual(data.url, "http://127.0.0.1:9/hook")
      assert.deepStrictEqual(data.events, ["post.published", "post.failed"])
      assert.strictEqual(data.description, "CI")
      assert.strictEqual(data.enabled, true)
      assert.match(data.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      assert.match(data.secret, /^whsec_[A-Za-z0-9_-]{43}$/)
      assert.deepStrictEqual(Object.keys(data).sort(), [
        "createdAt", "description", "disabledAt", "enabled", "events", "failures", "id", "secret", "switchedOff", "url"
      ])
      assert.strictEqual(data.failures, 0)
      assert.isNull(data.switchedOff)
      assert.isNull(data.disabledAt)

      const listed = yield* send("GET", "/webhooks")
      assert.strictEqual(listed.status, 200)
      assert.deepStrictEqual(listed.body.data, [{ ...data, secret: undefined }].map(({ secret: _, ...rest }) => rest))
      const one = yield* send("GET", `/webhooks/${data.id}`)
      assert.isUndefined(one.body.data.secret)
      assert.notInclude(one.text, data.secret)

      // Sealed at rest: the stored bytes do not contain it.
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* Effect.orDie(sql<{ readonly secret: Uint8Array }>`SELECT secret FROM webhook_endpoints WHERE id = ${data.id}`)
      assert.notInclude(Buffer.from(row!.secret).toString("latin1"), data.secret.slice(6))
    }))

  it.effect("says why an endpoint is off (after failures, or by hand) and its failure count, for the settings' banner", () =>
    Effect.gen(function*() {
      const { send } = yield* client
      const created = (yield* send("POST", "/webhooks", { url: "http://127.0.0.1:9/why" })).body.data
      const sql = yield* SqlClient.SqlClient
      // What the sender does at the 50th failed event in a row (HERALD_WEBHOOK_DISABLE_AFTER's default).
      yield* Effect.orDie(sql`
        UPDATE webhook_endpoints SET consecutive_failures = 50, enabled = false, disabled_at = now() WHERE id = ${created.id}`)
      const auto = (yield* send("GET", `/webhooks/${created.id}`)).body.data
      assert.strictEqual(auto.enabled, false)
      assert.strictEqual(auto.switchedOff, "failures")
      assert.strictEqual(auto.failures, 50)
      assert.match(auto.disabledAt, /^\d{4}-\d\d-\d\dT/)
      const listed = (yield* send("GET", "/webhooks")).body.data.find((endpoint: any) => endpoint.id === created.id)
      assert.strictEqual(listed.switchedOff, "failures")

      const on = (yield* send("PATCH", `/webhooks/${created.id}`, { enabled: true })).body.data
      assert.deepStrictEqual([on.enabled, on.switchedOff, on.failures, on.disabledAt], [true, null, 0, null])

      yield* Effect.orDie(sql`UPDATE webhook_endpoints SET consecutive_failures = 3 WHERE id = ${created.id}`)
      const off = (yield* send("PATCH", `/webhooks/${created.id}`, { enabled: false })).body.data
      assert.deepStrictEqual([off.enabled, off.switchedOff, off.failures], [false, "by_hand", 3])
      assert.match(off.disabledAt, /^\d{4}-\d\d-\d\dT/)
    }))

  it.effect("an empty or missing selection receives every event", () =>
    Effect.gen(function*() {
      const { send } = yield* client
      const created = yield* send("POST", "/webhooks", { url: "http://127.0.0.1:9/all" })
      assert.deepStrictEqual(created.body.data.events, [])
      assert.isNull(created.body.data.description)
    }))

  it.effect("refuses unknown event names, unknown fields and a bad URL, naming each problem", () =>
    Effect.gen(function*() {
      const { send } = yield* client
      const bad = yield* send("POST", "/webhooks", { url: "ftp://example.com/x", events: ["post.published", "post.exploded"] })
      assert.strictEqual(bad.status, 400)
      assert.strictEqual(bad.body.error.code, "invalid")
      assert.include(bad.body.error.message, `"post.exploded"`)
      assert.deepStrictEqual(bad.body.error.details.map((detail: any) => detail.field).sort(), ["events", "url"])
      const extra = yield* send("POST", "/webhooks", { url: "http://127.0.0.1:9/x", secret: "mine" })
      assert.strictEqual(extra.status, 400)
      assert.strictEqual(extra.body.error.code, "invalid")
    }))

  it.effect("an 11th endpoint is a conflict", () =>
    Effect.gen(function*() {
      const { send } = yield* client
      const made = yield* Effect.forEach(
        Array.from({ length: 11 }, (_, index) => index),
        (index) => send("POST", "/webhooks", { url: `http://127.0.0.1:9/${index}` }),
        { concurrency: 11 }
      )
      assert.deepStrictEqual(made.map((answer) => answer.status).sort(), [...Array(10).fill(200), 409])
      const refused = made.find((answer) => answer.status === 409)!
      assert.strictEqual(refused.body.error.code, "conflict")
      assert.strictEqual((yield* send("GET", "/webhooks")).body.data.length, 10)
    }))

  it.effect("updates only what is sent; switching on resets the failure count; rotates the secret", () =>
    Effect.gen(function*() {
      const { send } = yield* client
      const created = (yield* send("POST", "/webhooks", { url: "http://127.0.0.1:9/a", events: ["post.published"] })).body.data
      const sql = yield* SqlClient.SqlClient
      const failures = Effect.map(
        Effect.orDie(sql<{ readonly consecutiveFailures: number }>`
          SELECT consecutive_failures FROM webhook_endpoints WHERE id = ${created.id}`),
        (rows) => rows[0]!.consecutiveFailures
      )
      yield* Effect.orDie(sql`UPDATE webhook_endpoints SET consecutive_failures = 49 WHERE id = ${created.id}`)

      const off = yield* send("PATCH", `/webhooks/${created.id}`, { enabled: false, description: "paused" })
      assert.strictEqual(off.status, 200, off.text)
      assert.strictEqual(off.body.data.enabled, false)
      assert.strictEqual(off.body.data.description, "paused")
      assert.deepStrictEqual(off.body.data.events, ["post.published"])
      assert.strictEqual(yield* failures, 49)

      const on = yield* send("PATCH", `/webhooks/${created.id}`, { enabled: true, events: [] })
      assert.strictEqual(on.body.data.enabled, true)
      assert.deepStrictEqual(on.body.data.events, [])
      assert.strictEqual(yield* failures, 0)

      const rotated = yield* send("POST", `/webhooks/${created.id}/rotate-secret`)
      assert.strictEqual(rotated.status, 200)
      assert.match(rotated.body.data.secret, /^whsec_/)
      assert.notStrictEqual(rotated.body.data.secret, created.secret)

      const bad = yield* send("PATCH", `/webhooks/${created.id}`, { events: ["nope"] })
      assert.strictEqual(bad.status, 400)
    }))

  it.effect("deletes an endpoint; another workspace's endpoint is not found", () =>
    Effect.gen(function*() {
      const { send } = yield* client
      const other = yield* client
      const created = (yield* send("POST", "/webhooks", { url: "http://127.0.0.1:9/d" })).body.data
      for (const [method, path] of [["GET", ""], ["PATCH", ""], ["DELETE", ""], ["POST", "/rotate-secret"]] as const) {
        const answer = yield* other.send(method, `/webhooks/${created.id}${path}`, method === "PATCH" ? { enabled: false } : undefined)
        assert.strictEqual(answer.status, 404, `${method} ${path}`)
        assert.strictEqual(answer.body.error.code, "not_found")
      }
      const deleted = yield* send("DELETE", `/webhooks/${created.id}`)
      assert.deepStrictEqual(deleted.body, { data: { id: created.id, deleted: true } })
      assert.strictEqual((yield* send("GET", `/webhooks/${created.id}`)).status, 404)
    }))

  it.effect("an endpoint id given out before the whk_ prefix (wh_…) still names its endpoint", () =>
    Effect.gen(function*() {
      const { send } = yield* client
      const created = (yield* send("POST", "/webhooks", { url: "http://127.0.0.1:9/old" })).body.data
      const oldId = created.id.replace(/^whk_/, "wh_")
      const one = yield* send("GET", `/webhooks/${oldId}`)
      assert.strictEqual(one.status, 200, one.text)
      assert.strictEqual(one.body.data.id, created.id)
      const patched = yield* send("PATCH", `/webhooks/${oldId}`, { description: "renamed" })
      assert.strictEqual(patched.body.data.description, "renamed")
      assert.strictEqual((yield* send("GET", `/webhooks/${oldId}/deliveries`)).status, 200)
      assert.strictEqual((yield* send("DELETE", `/webhooks/${oldId}`)).status, 200)
      assert.strictEqual((yield* send("GET", `/webhooks/${created.id}`)).status, 404)
    }))

  it.effect("lists the events an endpoint can ask for, which are exactly the names it takes (decision 0085)", () =>
    Effect.gen(function*() {
      const { send } = yield* client
      const listed = yield* send("GET", "/webhooks/events")
      assert.strictEqual(listed.status, 200, listed.text)
      assert.deepStrictEqual(listed.body.data, [...Webhook.EventKinds])
      const every = yield* send("POST", "/webhooks", { url: "http://127.0.0.1:9/every", events: listed.body.data })
      assert.strictEqual(every.status, 200, every.text)
      assert.deepStrictEqual(every.body.data.events, listed.body.data)
      // Beside `/webhooks/:id`, the fixed path is never taken for an endpoint's id.
      assert.strictEqual((yield* send("DELETE", "/webhooks/events")).status, 404)
    }))

  it.effect("knows every event kind of the reference", () =>
    Effect.sync(() => assert.strictEqual(Webhook.EventKinds.length, 20)))
})

layer(serverLayer({ webhookAllowPrivate: false }), { excludeTestServices: true })("webhook endpoint addresses", (it) => {
  it.effect("only https to public addresses, unless private targets are allowed", () =>
    Effect.gen(function*() {
      const { send } = yield* client
      for (const url of ["http://example.com/hook", "https://127.0.0.1/hook", "https://localhost/hook", "https://10.0.0.5/hook", "https://[::1]/hook", "https://169.254.169.254/latest"]) {
        const answer = yield* send("POST", "/webhooks", { url })
        assert.strictEqual(answer.status, 400, url)
        assert.strictEqual(answer.body.error.details[0].field, "url", url)
      }
    }))
})
