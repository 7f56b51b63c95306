import { PGlite } from "@electric-sql/pglite"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as PgliteBridge from "../src/PgliteBridge.ts"

const q = (sql: string) => { const b = Buffer.from(sql + "\0"); const m = Buffer.alloc(5 + b.length); m[0] = 0x51; m.writeInt32BE(4 + b.length, 1); b.copy(m, 5); return m }
const hex = (u: Uint8Array) => Buffer.from(u).toString("latin1").replace(/[^\x20-\x7e]/g, ".")
const program = Effect.gen(function*() {
  const pglite = yield* Effect.acquireRelease(Effect.promise(() => PGlite.create()), (pg) => Effect.promise(() => pg.close()))
  const bridge = yield* PgliteBridge.make(pglite)
  const sql = yield* PgClient.make({ stream: bridge.connect, username: "postgres" })
  const raw = bridge.connect()
  raw.on("data", (d: Buffer) => console.log("raw <", hex(d)))
  const startup = Buffer.alloc(8 + 16); startup.writeInt32BE(24, 0); startup.writeInt32BE(196608, 4); Buffer.from("user\0postgres\0\0\0").copy(startup, 8)
  raw.write(startup)
  yield* Effect.sleep(20)
  raw.write(q("LISTEN a; LISTEN b"))
  yield* Effect.sleep(20)
  raw.write(q("SELECT pg_listening_channels()"))
  yield* Effect.sleep(20)
  console.log(yield* sql`SELECT pg_listening_channels() AS channel`)
  console.log(yield* sql`SELECT pg_listening_channels() AS channel ORDER BY 1`)
})
Effect.runPromise(Effect.scoped(program).pipe(Effect.provide(Reactivity.layer))).then(() => console.log("done"), (e) => { console.error("FAILED", e); process.exit(1) })
