import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { randomUUID } from "node:crypto"
import { WebhookHttp } from "@herald/core"
import { eventually } from "../../../testing/eventually.ts"
import { baseUrl, bearer, countingListener, request, serverLayer, workspaceWithKey } from "./harness.ts"

// DNS rebinding, end to end through the delivery path: a name that resolves to a public address when the
// endpoint is saved and to a private one when Herald connects is refused at the connection, by the
// address actually dialled. Private targets are not allowed here (as in production).

const lookups: Array<string> = []
/** `rebind.example` answers a public address the first time it is asked, then loopback; `inside.example`, a private one. */
const rebinding = Layer.succeed(WebhookHttp.HostLookup, (hostname, callback) => {
  lookups.push(hostname)
  if (hostname === "inside.example") return callback(null, [{ address: "10.1.2.3", family: 4 }])
  if (hostname !== "rebind.example") return callback(Object.assign(new Error("not found"), { code: "ENOTFOUND" }), [])
  const first = lookups.filter((name) => name === hostname).length === 1
  callback(null, [{ address: first ? "93.184.215.14" : "127.0.0.1", family: 4 }])
})


layer(serverLayer({ webhookAllowPrivate: false }).pipe(Layer.provide(rebinding)), { excludeTestServices: true })(
  "webhook addresses",
  (it) => {
    it.effect("a name that resolved to a public address when saved and to loopback at send time is refused at the connection", () =>
      Effect.scoped(Effect.gen(function*() {
        const target = yield* countingListener
        const base = yield* baseUrl
        const { key, workspace } = yield* workspaceWithKey()
        const send = (method: string, path: string, body?: unknown) =>
          request(`${base}/api/v1${path}`, {
            method,
            headers: { ...bearer(key.key), ...(body === undefined ? {} : { "content-type": "application/json" }) },
            ...(body === undefined ? {} : { body: JSON.stringify(body) })
          })
        const saved = yield* send("POST", "/webhooks", { url: `https://rebind.example:${target.port}/hook`, events: ["post.created"] })
        assert.strictEqual(saved.status, 200, "public when saved")
        const sql = yield* SqlClient.SqlClient
        yield* Effect.orDie(sql`INSERT INTO events (id, workspace_id, event, data)
          VALUES (${randomUUID()}, ${workspace.id}, 'post.created', '{"postId":"pst_x"}'::jsonb)`)
        const listed: Array<any> = yield* eventually(
          "the attempt recorded",
          Effect.map(send("GET", `/webhooks/${saved.body.data.id}/deliveries`), (answer) => answer.body.data.length > 0 && answer.body.data),
          { everyMs: 50 }
        )
        assert.lengthOf(listed, 1)
        assert.isNull(listed[0].statusCode)
        assert.include(listed[0].error, "address refused: rebind.example resolves to 127.0.0.1, a loopback address")
        assert.isNotNull(listed[0].nextRetryAt, "a failed attempt like any other: retried on the schedule")
        assert.strictEqual(target.connections(), 0, "nothing was dialled")
        assert.isAtLeast(lookups.filter((name) => name === "rebind.example").length, 2, "resolved again at the connection")
      })))

    it.effect("a name that resolves to a private address is refused when saved", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const { key } = yield* workspaceWithKey()
        const saved = yield* request(`${base}/api/v1/webhooks`, {
          method: "POST",
          headers: { ...bearer(key.key), "content-type": "application/json" },
          body: JSON.stringify({ url: "https://inside.example/hook" })
        })
        assert.strictEqual(saved.status, 400)
        assert.strictEqual(saved.body.error.code, "invalid")
        assert.include(JSON.stringify(saved.body.error), "https://inside.example/hook resolves to 10.1.2.3, a private address")
      }))
  }
)
