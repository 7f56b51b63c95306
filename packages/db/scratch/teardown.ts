import { Effect, Layer, Scope, Exit, Redacted } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as PgClient from "@effect/sql-pg/PgClient"
import { backends } from "../src/testing.ts"
import * as Database from "../src/Database.ts"

Effect.runPromise(Effect.gen(function*() {
  const scope = yield* Scope.make()
  const t0 = performance.now()
  yield* Layer.buildWithScope(backends()[1]!.layer, scope)
  console.log("built", performance.now() - t0)
  const t1 = performance.now()
  yield* Scope.close(scope, Exit.void)
  console.log("closed", performance.now() - t1)
  const s2 = yield* Scope.make()
  const t2 = performance.now()
  yield* Layer.buildWithScope(Database.layerUrl("postgres://postgres@127.0.0.1:5432/test"), s2)
  console.log("built plain", performance.now() - t2)
  const t3 = performance.now()
  yield* Scope.close(s2, Exit.void)
  console.log("closed plain", performance.now() - t3)
  const t4 = performance.now()
  yield* Effect.scoped(Effect.flatMap(PgClient.make({ url: Redacted.make("postgres://postgres@127.0.0.1:5432/test"), maxConnections: 1 }), (sql) => sql`SELECT 1`)).pipe(Effect.provide(Reactivity.layer))
  console.log("admin one-shot", performance.now() - t4)
})).catch((e) => { console.error(e); process.exit(1) })
