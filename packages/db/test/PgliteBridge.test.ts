import * as PgConnection from "@effect/sql-pg/PgConnection"
import { assert, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Buffer } from "node:buffer"
import type { Duplex } from "node:stream"
import { eventually } from "../../../testing/eventually.ts"
import { patience } from "../../../vitest.shared.ts"
import { DatabaseInfo } from "../src/DatabaseInfo.ts"
import { backends } from "../src/testing.ts"

interface Message {
  readonly type: string
  readonly body: Buffer
}

/** A hand-driven client: writes raw frontend bytes and reads whole backend messages. */
const openRaw = Effect.gen(function*() {
  const info = yield* DatabaseInfo
  const stream: Duplex = info.connection.stream!()
  const messages: Array<Message> = []
  const wakeups = new Set<() => void>()
  let pending = Buffer.alloc(0)
  let cursor = 0
  let ended = false
  stream.on("data", (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk])
    // The answer to an SSLRequest is one untyped byte.
    if (pending.length === 1 && pending[0] === 0x4e && messages.length === 0) {
      messages.push({ type: "N", body: Buffer.alloc(0) })
      pending = Buffer.alloc(0)
    }
    while (pending.length >= 5 && pending.length >= 1 + pending.readInt32BE(1)) {
      const size = 1 + pending.readInt32BE(1)
      messages.push({ type: String.fromCharCode(pending[0]!), body: pending.subarray(5, size) })
      pending = pending.subarray(size)
    }
    for (const wakeup of wakeups) wakeup()
  })
  stream.on("close", () => {
    ended = true
    for (const wakeup of wakeups) wakeup()
  })
  yield* Effect.addFinalizer(() => Effect.sync(() => stream.destroy()))
  /** The messages up to and including the next one of `type`. */
  const until = (type: string) =>
    Effect.callback<Array<Message>>((resume) => {
      const check = () => {
        const index = messages.findIndex((message, position) => position >= cursor && message.type === type)
        if (index < 0) return
        wakeups.delete(check)
        const taken = messages.slice(cursor, index + 1)
        cursor = index + 1
        resume(Effect.succeed(taken))
      }
      wakeups.add(check)
      check()
      return Effect.sync(() => wakeups.delete(check))
    }).pipe(Effect.timeout(Duration.millis(patience)))
  const unread = () => messages.slice(cursor)
  const send = (bytes: Uint8Array) => Effect.sync(() => stream.write(bytes))
  const query = (sql: string) => Effect.andThen(send(frame("Q", `${sql}\0`)), until("Z"))
  return { stream, send, until, unread, query, isEnded: () => ended }
})

const frame = (type: string, body: string): Buffer => {
  const bytes = Buffer.from(body, "utf8")
  const message = Buffer.alloc(5 + bytes.length)
  message.write(type, 0, "latin1")
  message.writeInt32BE(4 + bytes.length, 1)
  bytes.copy(message, 5)
  return message
}

const untyped = (code: number, body: Buffer = Buffer.alloc(0)): Buffer => {
  const message = Buffer.alloc(8 + body.length)
  message.writeInt32BE(8 + body.length, 0)
  message.writeInt32BE(code, 4)
  body.copy(message, 8)
  return message
}

const startupMessage = untyped(196608, Buffer.from("user\0postgres\0database\0postgres\0\0", "latin1"))

const started = Effect.gen(function*() {
  const raw = yield* openRaw
  yield* raw.send(startupMessage)
  yield* raw.until("Z")
  return raw
})

const statusOf = (messages: ReadonlyArray<Message>) => String.fromCharCode(messages.at(-1)!.body[0]!)

const notifications = (messages: ReadonlyArray<Message>) =>
  messages.filter((message) => message.type === "A").map((message) => {
    const [channel, payload] = message.body.subarray(4).toString("utf8").split("\0")
    return { channel, payload }
  })

const pglite = backends().find((backend) => backend.name === "pglite")!

layer(pglite.layer, { excludeTestServices: true })("PgliteBridge", (it) => {
  it.effect("refuses TLS, answers the startup itself, and takes messages split across writes", () =>
    Effect.gen(function*() {
      const raw = yield* openRaw
      yield* raw.send(untyped(80877103))
      assert.deepStrictEqual((yield* raw.until("N")).map((message) => message.type), ["N"])
      yield* raw.send(startupMessage.subarray(0, 5))
      yield* raw.send(startupMessage.subarray(5))
      const startup = yield* raw.until("Z")
      assert.strictEqual(startup[0]!.type, "R")
      assert.strictEqual(startup[0]!.body.readInt32BE(0), 0)
      const parameters = startup.filter((message) => message.type === "S").map((message) => message.body.toString("utf8"))
      assert.isTrue(parameters.some((parameter) => parameter.startsWith("server_version\0")))
      assert.isTrue(parameters.includes("integer_datetimes\0on\0"))
      assert.isTrue(startup.some((message) => message.type === "K"))
      assert.strictEqual(statusOf(startup), "I")
      const query = frame("Q", "SELECT 41 + 1\0")
      yield* raw.send(query.subarray(0, 3))
      yield* raw.send(query.subarray(3))
      const answer = yield* raw.until("Z")
      const row = answer.find((message) => message.type === "D")!
      assert.strictEqual(row.body.subarray(6).toString("utf8"), "42")
    }))

  it.effect("a transaction holds the session: other connections wait until it ends", () =>
    Effect.gen(function*() {
      const first = yield* started
      const second = yield* started
      assert.strictEqual(statusOf(yield* first.query("BEGIN")), "T")
      yield* first.query("CREATE TABLE lock_probe (id integer)")
      yield* second.send(frame("Q", "SELECT count(*) FROM lock_probe\0"))
      // The first's next statement, sent after the second's, is answered while the second still waits.
      yield* first.query("INSERT INTO lock_probe VALUES (1)")
      assert.deepStrictEqual(second.unread(), [])
      assert.strictEqual(statusOf(yield* first.query("COMMIT")), "I")
      const answer = yield* second.until("Z")
      assert.strictEqual(answer.find((message) => message.type === "D")!.body.subarray(6).toString("utf8"), "1")
    }))

  it.effect("notifications go to the connections listening on their channel", () =>
    Effect.gen(function*() {
      const alpha = yield* started
      const beta = yield* started
      const sender = yield* started
      yield* alpha.query("LISTEN shared")
      yield* beta.query("LISTEN Shared; LISTEN \"Beta Only\"")
      const sent = yield* sender.query("NOTIFY shared, 'one'; NOTIFY \"Beta Only\", 'two'")
      assert.deepStrictEqual(notifications(sent), [])
      // Each listener's, as they come.
      assert.deepStrictEqual(notifications(yield* alpha.until("A")), [{ channel: "shared", payload: "one" }])
      assert.deepStrictEqual(notifications([...(yield* beta.until("A")), ...(yield* beta.until("A"))]), [
        { channel: "shared", payload: "one" },
        { channel: "Beta Only", payload: "two" }
      ])
      // One connection's UNLISTEN must not silence the channel for the other. Its answer comes after whatever
      // reached it before: nothing more (not "Beta Only").
      assert.deepStrictEqual(notifications(yield* alpha.query("UNLISTEN shared")), [])
      yield* sender.query("NOTIFY shared, 'three'")
      assert.deepStrictEqual(notifications(yield* beta.until("A")), [{ channel: "shared", payload: "three" }])
      // A listener hears its own notification, in place; the one that stopped listening heard none meanwhile.
      const own = yield* beta.query("NOTIFY \"Beta Only\", 'self'")
      assert.deepStrictEqual(notifications(own), [{ channel: "Beta Only", payload: "self" }])
      assert.deepStrictEqual(notifications(yield* alpha.query("SELECT 1")), [])
    }))

  it.effect("a channel stays listened to while any connection wants it", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const channels = Effect.map(
        sql<{ channel: string }>`SELECT pg_listening_channels() AS channel ORDER BY 1`,
        (rows) => rows.map((row) => row.channel)
      )
      const leaving = yield* started
      const staying = yield* started
      yield* leaving.query("LISTEN only_leaving; LISTEN shared")
      yield* staying.query("LISTEN shared; LISTEN only_staying")
      assert.deepStrictEqual(yield* channels, ["only_leaving", "only_staying", "shared"])
      leaving.stream.destroy()
      assert.deepStrictEqual(yield* channels, ["only_staying", "shared"])

      const other = yield* started
      yield* other.query("LISTEN own")
      yield* other.query("UNLISTEN *")
      assert.deepStrictEqual(yield* channels, ["only_staying", "shared"])
      yield* other.query("NOTIFY shared, 'still here'")
      assert.deepStrictEqual(notifications(yield* staying.until("A")), [{ channel: "shared", payload: "still here" }])
      assert.deepStrictEqual(notifications(other.unread()), [])
    }))

  it.effect("a connection destroyed while PGlite runs its BEGIN is rolled back", () =>
    Effect.gen(function*() {
      const leaving = yield* started
      yield* Effect.sync(() => {
        leaving.stream.write(frame("Q", "BEGIN; CREATE TABLE never_committed (id integer)\0"))
        leaving.stream.destroy()
      })
      const staying = yield* started
      const answer = yield* staying.query("SELECT to_regclass('never_committed') IS NULL")
      assert.strictEqual(answer.find((message) => message.type === "D")!.body.subarray(6).toString("utf8"), "t")
      assert.strictEqual(statusOf(answer), "I")
    }))

  it.effect("Terminate and CancelRequest end only their own connection", () =>
    Effect.gen(function*() {
      const leaving = yield* started
      yield* leaving.send(frame("X", ""))
      // The bridge ends what it sends the terminated connection once it has handled the Terminate.
      yield* eventually("the terminated connection's end", () => leaving.stream.readableEnded)
      const staying = yield* started
      const answer = yield* staying.query("SELECT 1")
      assert.strictEqual(statusOf(answer), "I")
      const cancel = yield* openRaw
      yield* cancel.send(untyped(80877102, Buffer.alloc(8)))
      yield* eventually("the cancelling connection to end", () => cancel.isEnded())
      assert.deepStrictEqual(cancel.unread(), [])
      assert.strictEqual(statusOf(yield* staying.query("SELECT 2")), "I")
    }))

  it.effect("a closed connection's prepared statements are closed in the shared session", () =>
    Effect.gen(function*() {
      const info = yield* DatabaseInfo
      const sql = yield* SqlClient.SqlClient
      const names = (connection: PgConnection.PgConnection) =>
        Effect.map(
          connection.query("SELECT name FROM pg_prepared_statements", [], false),
          (result) => new Set(result.rows.map((row) => row["name"] as string))
        )
      const own = yield* Effect.scoped(Effect.gen(function*() {
        const connection = yield* PgConnection.make(info.connection)
        const before = yield* names(connection)
        yield* connection.query("SELECT 1 AS one")
        yield* connection.query("SELECT 2 AS two")
        const after = yield* names(connection)
        return [...after].filter((name) => !before.has(name))
      }))
      assert.strictEqual(own.length, 2)
      const left = yield* sql<{ name: string }>`SELECT name FROM pg_prepared_statements`
      assert.deepStrictEqual(left.filter((row) => own.includes(row.name)), [])
    }))

  it.effect("large answers arrive whole", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const [big] = yield* sql<{ text: string }>`SELECT repeat('x', 3000000) AS text`
      assert.strictEqual(big!.text.length, 3000000)
      const rows = yield* sql<{ n: number }>`SELECT n FROM generate_series(1, 20000) AS n`
      assert.strictEqual(rows.length, 20000)
      assert.strictEqual(rows[19999]!.n, 20000)
    }))
})
