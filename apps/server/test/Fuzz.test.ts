import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import fc from "fast-check"
import { SandboxConnect } from "../src/index.ts"
import { describe, judge, requests, send } from "./fuzz.ts"
import { baseUrl, bearer, request, serverLayer, workspaceWithKey } from "./harness.ts"

// A bounded property-based run over every operation of the served OpenAPI document (test/fuzz.ts): malformed
// paths, ids, queries, bodies, content types and keys never get a 5xx, and every error is in the reference's
// shape. The long run is `node bench/fuzz/run.ts --requests N`.

const runs = Number(process.env["HERALD_FUZZ_RUNS"] ?? 300)

layer(serverLayer({ rateLimitPerMinute: 1_000_000 }), { excludeTestServices: true })("fuzz", (it) => {
  it.effect(`${runs} malformed requests over every operation: no 5xx, every error in the error shape`, () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key, workspace } = yield* workspaceWithKey("Fuzz")
      const account = yield* Effect.orDie(SandboxConnect.connect({ workspaceId: workspace.id, platform: "example", username: "fuzz" }))
      const headers = { ...bearer(key.key), "content-type": "application/json" }
      const draft = yield* request(`${base}/api/v1/posts`, {
        method: "POST",
        headers,
        body: JSON.stringify({ content: "fuzz", accountIds: [account.id], draft: true })
      })
      assert.strictEqual(draft.status, 200, draft.text)
      const profile = yield* request(`${base}/api/v1/review-profiles`, { method: "POST", headers, body: JSON.stringify({ name: "Fuzz" }) })
      const document = (yield* request(`${base}/api/v1/openapi.json`)).body
      const context = { document, key: key.key, ids: [account.id, draft.body.data.id, profile.body.data.id, "example"] }
      const seed = Number(process.env["HERALD_FUZZ_SEED"] ?? Date.now() % 2 ** 31)
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(requests(context), async (fuzzed) => {
            const problem = judge(fuzzed, await send(base, fuzzed))
            if (problem !== undefined) throw new Error(`${problem}\n  request: ${describe(fuzzed)}`)
          }),
          { numRuns: runs, seed, endOnFailure: true }
        ).catch((error: Error) => {
          throw new Error(`seed ${seed} (HERALD_FUZZ_SEED to replay): ${error.message}`)
        })
      )
    }))
})
