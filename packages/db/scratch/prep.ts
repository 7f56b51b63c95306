import { PGlite } from "@electric-sql/pglite"
import * as PgConnection from "@effect/sql-pg/PgConnection"
import { Effect } from "effect"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as PgliteBridge from "../src/PgliteBridge.ts"

const program = Effect.gen(function*() {
  const pglite = yield* Effect.acquireRelease(Effect.promise(() => PGlite.create()), (pg) => Effect.promise(() => pg.close()))
  const bridge = yield* PgliteBridge.make(pglite)
  const connect = () => {
    const d = bridge.connect()
    const w = d.write.bind(d)
    d.write = ((c: any, ...a: any[]) => { console.log("write", String.fromCharCode(c[0]), c.length); return (w as any)(c, ...a) }) as any
    const e = d.end.bind(d)
    d.end = ((...a: any[]) => { console.log("end", a[0]?.length); return (e as any)(...a) }) as any
    return d
  }
  yield* Effect.scoped(Effect.gen(function*() {
    const c = yield* PgConnection.make({ stream: connect, username: "postgres" })
    yield* c.query("SELECT 1 AS one")
    console.log((yield* c.query("SELECT name FROM pg_prepared_statements", [], false)).rows)
  }))
  console.log("scope closed")
  const sql = yield* PgClient.make({ stream: connect, username: "postgres" })
  console.log((yield* sql`SELECT name FROM pg_prepared_statements`))
})
Effect.runPromise(Effect.scoped(program).pipe(Effect.provide(Reactivity.layer))).then(() => console.log("done"), (e) => { console.error("FAILED", e); process.exit(1) })
