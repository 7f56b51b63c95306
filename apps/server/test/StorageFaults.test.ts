import { assert, describe, it, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Cause, Effect, Exit, Layer, Logger, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
import { SqlClient, SqlError } from "effect/sql"
import { StorageFaults } from "@herald/core"
import { DatabaseInfo } from "@herald/db"
import { backends, unreachable } from "@herald/db/testing"
import { eventually } from "../../../testing/eventually.ts"
import { postgresMissing } from "../../../testing/postgresMissing.ts"
import { skipIf } from "../../../testing/skipIf.ts"
import { baseUrl, bearer, request, serverLayer, workspaceWithKey } from "./harness.ts"
import { call, connect } from "./mcpClient.ts"

// A database that cannot be reached, or a full disk, is the storage's fault, not Herald's: every route says so
// (503 unavailable with Retry-After, 507 insufficient_storage), /health says the disk is full, and the log
// gets one line per kind of fault per 10 s instead of a stack trace per request (decision 0067).

const logged: Array<string> = []
const capture = Logger.make((options) => void logged.push(Logger.formatLogFmt.log(options)))
// The lines that requests' failures write: REST's defects and the storage faults' counts.
const requestLines = () => logged.filter((line) => /answering a request|storage (unreachable|full)|MCP tool/.test(line))

const setup = Effect.gen(function*() {
  const base = yield* baseUrl
  const { key } = yield* workspaceWithKey()
  const started = yield* request(`${base}/api/v1/accounts/connect/example`, {
    method: "POST",
    headers: { ...bearer(key.key), "content-type": "application/json" },
    body: JSON.stringify({ username: "poster" })
  })
  const consent = yield* Effect.promise(() => fetch(started.body.data.url, { redirect: "manual" }))
  yield* request(consent.headers.get("location")!.replace("localhost", "127.0.0.1"))
  const accounts = yield* request(`${base}/api/v1/accounts`, { headers: bearer(key.key) })
  const accountId: string = accounts.body.data[0].id
  const api = (method: string, path: string, body?: unknown) =>
    request(`${base}${path}`, {
      method,
      headers: { ...bearer(key.key), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  return { base, key: key.key, accountId, api }
})

const draft = (accountId: string) => ({ content: "Saved for later", accountIds: [accountId], draft: true })

it("a storage fault is known by the error's structure: SQLSTATE, socket code, the driver's ConnectionError", () => {
  const sqlError = (reason: SqlError.SqlErrorReason) => new SqlError.SqlError({ reason })
  const serverError = (code: string) => Object.assign(new Error("from the server"), { code, severity: "FATAL" })

  assert.deepStrictEqual(
    StorageFaults.find(sqlError(new SqlError.UnknownError({ cause: serverError("57P01"), message: "PgConnection: Query failed" }))),
    { kind: "unreachable", code: "57P01" }
  )
  assert.deepStrictEqual(
    StorageFaults.find(sqlError(new SqlError.UnknownError({ cause: serverError("53100"), message: "PgConnection: Query failed" }))),
    { kind: "full", code: "53100" }
  )
  assert.deepStrictEqual(
    StorageFaults.find(sqlError(new SqlError.ConnectionError({ cause: new Error("Connection timed out"), message: "timed out" }))),
    { kind: "unreachable", code: "connection" }
  )
  // An ordinary failure of a statement is a bug, answered 500; a network's refused connection is no storage's.
  assert.isUndefined(
    StorageFaults.find(sqlError(new SqlError.UniqueViolation({ cause: serverError("23505"), constraint: "posts_pkey" })))
  )
  assert.isUndefined(StorageFaults.find(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })))
})

const { backend: stoppable, outage } = unreachable()

layer(
  serverLayer({}, undefined, stoppable).pipe(Layer.provide(Logger.layer([capture]))),
  { excludeTestServices: true }
)("a database that cannot be reached", (it) => {
  it.effect("answers 503 unavailable with Retry-After on every route, logs one line for 100 requests, and 200 once it is back", () =>
    Effect.gen(function*() {
      const { accountId, api, base, key } = yield* setup
      const created = yield* api("POST", "/api/v1/posts", draft(accountId))
      assert.strictEqual(created.status, 200)
      const postId: string = created.body.data.id
      const client = yield* connect(base, key)
      const before = requestLines().length

      outage.stop()
      const routes: ReadonlyArray<readonly [string, string, unknown?]> = [
        ["GET", "/api/v1/posts"],
        ["GET", `/api/v1/posts/${postId}`],
        ["POST", "/api/v1/posts", draft(accountId)],
        ["PATCH", `/api/v1/posts/${postId}`, { content: "Changed" }],
        ["DELETE", `/api/v1/posts/${postId}`],
        ["GET", "/api/v1/accounts"],
        ["GET", "/api/v1/webhooks"],
        ["GET", "/api/v1/queue"],
        ["GET", "/api/v1/networks"],
        ["GET", "/api/v1/workspace"]
      ]
      const answers = yield* Effect.forEach(routes, ([method, path, body]) => api(method, path, body))
      for (const [index, answer] of answers.entries()) {
        const [method, path] = routes[index]!
        assert.strictEqual(answer.status, 503, `${method} ${path}: ${JSON.stringify(answer.body)}`)
        assert.strictEqual(answer.body.error.code, "unavailable")
        assert.match(answer.body.error.message, /storage cannot be reached right now.*Try again/)
        assert.strictEqual(answer.headers.get("retry-after"), "5")
      }
      // MCP authenticates the key first: the same answer, before any JSON-RPC.
      const mcp = yield* Effect.exit(call(client, "list_posts"))
      assert.isTrue(Exit.isFailure(mcp))
      assert.match(Exit.isFailure(mcp) ? String(Cause.squash(mcp.cause)) : "", /"code":"unavailable"/)
      yield* Effect.forEach(Array.from({ length: 90 }), () => api("GET", "/api/v1/posts"), { concurrency: 10 })
      const health = yield* request(`${base}/health`)
      assert.strictEqual(health.status, 503)
      assert.strictEqual(health.body.database, "unreachable")
      const lines = requestLines().slice(before)
      assert.isAtMost(lines.length, 2, lines.join("\n"))
      assert.match(lines[0]!, /storage unreachable \((ECONNREFUSED|ECONNRESET|connection)\)/)
      assert.notMatch(lines.join("\n"), /at .*\.ts:\d+/)

      outage.restore()
      const back = yield* eventually(
        "GET /api/v1/posts to answer 200 once the database is back",
        Effect.map(api("GET", "/api/v1/posts"), (answer) => answer.status === 200)
      )
      assert.isTrue(back)
      const after = yield* Effect.forEach(Array.from({ length: 30 }), () => api("GET", "/api/v1/posts"), { concurrency: 10 })
      assert.deepStrictEqual(after.map((answer) => answer.status), after.map(() => 200))
    }))
})

// A full disk, as the driver reports it: PostgreSQL's disk_full (53100) on the statement that needed the space,
// raised here by a trigger on the posts table (a disk cannot be filled in the suite).
const fillDisk = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.andThen(
    sql.unsafe(`CREATE OR REPLACE FUNCTION herald_test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'could not extend file "base/5/16400": No space left on device' USING ERRCODE = 'disk_full'; END $$`),
    sql.unsafe(`CREATE TRIGGER herald_test_disk_full BEFORE INSERT OR UPDATE ON posts FOR EACH ROW EXECUTE FUNCTION herald_test_disk_full()`)
  )).pipe(Effect.orDie)
const freeDisk = Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`DROP TRIGGER herald_test_disk_full ON posts`)).pipe(Effect.orDie)

layer(serverLayer(), { excludeTestServices: true })("a full disk", (it) => {
  it.effect("answers 507 insufficient_storage to a write, reads still work, /health says full until a write succeeds", () =>
    Effect.gen(function*() {
      const { accountId, api, base, key } = yield* setup
      const client = yield* connect(base, key)
      yield* fillDisk
      const refused = yield* api("POST", "/api/v1/posts", draft(accountId))
      assert.strictEqual(refused.status, 507, JSON.stringify(refused.body))
      assert.strictEqual(refused.body.error.code, "insufficient_storage")
      assert.match(refused.body.error.message, /storage is full/)
      assert.strictEqual((yield* api("GET", "/api/v1/posts")).status, 200)
      const health = yield* request(`${base}/health`)
      assert.strictEqual(health.status, 503)
      assert.strictEqual(health.body.database, "full")

      const tool = yield* call(client, "create_post", draft(accountId))
      assert.isTrue(tool.isError)
      const text = (tool.content as ReadonlyArray<{ readonly text: string }>)[0]!.text
      assert.strictEqual(JSON.parse(text).error.code, "insufficient_storage")

      yield* freeDisk
      assert.strictEqual((yield* request(`${base}/health`)).status, 503)
      assert.strictEqual((yield* api("POST", "/api/v1/posts", draft(accountId))).status, 200)
      assert.deepStrictEqual((yield* request(`${base}/health`)).body, { status: "ok", database: "ok" })
    }))
})

// PostgreSQL restarted under Herald: every connection of its pool ended by the server (FATAL 57P01). A request
// that meets a connection at the instant it ends is told to retry (503 with Retry-After), never 500; once the
// driver has seen the ends, none answers from a stale connection.
const postgres = backends().find((backend) => backend.name === "postgres")

describe("PostgreSQL ending Herald's connections", skipIf(postgresMissing), () => {
  if (postgres === undefined) return
  layer(serverLayer({}, undefined, postgres), { excludeTestServices: true })("pg_terminate_backend", (it) => {
    it.effect("answers 503 unavailable (none 500) to a request meeting an ended connection, then 200 to every request", () =>
      Effect.gen(function*() {
        const { api } = yield* setup
        // Warm the pool: several connections in use at once, then idle.
        yield* Effect.forEach(Array.from({ length: 20 }), () => api("GET", "/api/v1/posts"), { concurrency: 10 })
        const info = yield* DatabaseInfo.DatabaseInfo
        const url = "url" in info.connection && info.connection.url !== undefined ? Redacted.value(info.connection.url) : ""
        const other = (statement: string) =>
          Effect.scoped(Effect.flatMap(
            PgClient.make({ url: Redacted.make(url), maxConnections: 1 }),
            (sql) => sql.unsafe<Record<string, unknown>>(statement)
          ))
            .pipe(Effect.provide(Reactivity.layer), Effect.orDie)
        const herald = `datname = current_database() AND pid <> pg_backend_pid() AND application_name LIKE 'herald/%'`
        const ended = yield* other(`SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE ${herald}`)
        assert.isAbove(ended.length, 1)
        const meeting = yield* Effect.forEach(Array.from({ length: 20 }), () => api("GET", "/api/v1/posts"), { concurrency: 10 })
        for (const answer of meeting) {
          if (answer.status === 200) continue
          assert.strictEqual(answer.status, 503, JSON.stringify(answer.body))
          assert.strictEqual(answer.body.error.code, "unavailable")
          assert.strictEqual(answer.headers.get("retry-after"), "5")
        }
        const pids = (yield* other(`SELECT pid FROM pg_stat_activity WHERE ${herald}`)).map((row) => Number(row["pid"]))
        yield* other(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid IN (${pids.join(",")})`)
        yield* eventually(
          "Herald's ended connections to leave pg_stat_activity",
          Effect.map(other(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid IN (${pids.join(",")})`), (rows) => Number(rows[0]!["n"]) === 0)
        )
        const answers = yield* Effect.forEach(Array.from({ length: 40 }), () => api("GET", "/api/v1/posts"), { concurrency: 10 })
        assert.deepStrictEqual(answers.map((answer) => answer.status), answers.map(() => 200))
      }))
  })
})
