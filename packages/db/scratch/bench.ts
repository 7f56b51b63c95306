import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { backends } from "../src/testing.ts"

const measure = Effect.fnUntraced(function*(name: string, layer: Layer.Layer<SqlClient.SqlClient, any>) {
  for (let round = 0; round < 2; round++) {
    const t0 = performance.now()
    yield* Effect.scoped(Effect.gen(function*() {
      const context = yield* Layer.build(layer)
      const built = performance.now()
      const sql = Context.get(context, SqlClient.SqlClient)
      for (let i = 0; i < 200; i++) yield* sql`SELECT ${i}::int AS i`
      const n = 5000
      let start = performance.now()
      for (let i = 0; i < n; i++) yield* sql`SELECT ${i}::int AS i`
      const seq = (performance.now() - start) / n * 1000
      start = performance.now()
      for (let i = 0; i < 1000; i++) yield* sql`SELECT id, name, created_at FROM workspaces WHERE id = ${"w" + i}`
      const seq2 = (performance.now() - start) / 1000 * 1000
      start = performance.now()
      yield* Effect.forEach(Array.from({ length: n }, (_, i) => i), (i) => sql`SELECT ${i}::int AS i`, { concurrency: 50 })
      const conc = (performance.now() - start) / n * 1000
      start = performance.now()
      for (let i = 0; i < 500; i++) yield* sql.withTransaction(Effect.andThen(sql`INSERT INTO workspaces (id, name) VALUES (${"b" + i}, 'x')`, sql`SELECT 1`))
      const tx = (performance.now() - start) / 500 * 1000
      console.log(`${name} round ${round}: layer ${(built - t0).toFixed(0)} ms; SELECT $1 ${seq.toFixed(0)} us; by id ${seq2.toFixed(0)} us; 50 concurrent ${conc.toFixed(0)} us/query; tx(insert+select) ${tx.toFixed(0)} us`)
    }))
    console.log(`${name} round ${round}: total incl. teardown ${(performance.now() - t0).toFixed(0)} ms, rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`)
  }
})

Effect.runPromise(Effect.gen(function*() {
  for (const backend of backends()) yield* measure(backend.name, backend.layer)
})).catch((e) => { console.error(e); process.exit(1) })
