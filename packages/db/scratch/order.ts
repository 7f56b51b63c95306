import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import * as Database from "../src/Database.ts"
import { DatabaseInfo } from "../src/DatabaseInfo.ts"

Effect.runPromise(Effect.scoped(Effect.gen(function*() {
  const context = yield* Layer.build(Database.layerEmbedded({ dataDir: undefined }))
  const info = Context.get(context, DatabaseInfo)
  const pglite = info.pglite.pipe((o: any) => o.value)
  const close = pglite.close.bind(pglite)
  pglite.close = () => { console.log("pglite.close called"); return close() }
  const sql = Context.get(context, SqlClient.SqlClient)
  yield* Effect.addFinalizer(() => Effect.sync(() => console.log("outer finalizer (first to run)")))
  yield* sql`SELECT 1`
  const conn = info.connection.stream!
  // an open transaction on a raw PgConnection left open at shutdown
  console.log("ok")
}))).then(() => console.log("done"), (e) => { console.error(e); process.exit(1) })
