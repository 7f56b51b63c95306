import { assert, layer } from "@effect/vitest"
import { Effect, Metric } from "effect"
import { Metrics } from "@herald/core"
import { baseUrl, bearer, request, serverLayer, workspaceWithKey } from "./harness.ts"
import { roomInMinute } from "./limitWindows.ts"

// Every answer of the public server is counted by route template, method and status, and each 429 of the
// per-key limit is counted as a refusal: what an operator's dashboard reads.

const labelled = { route: "", method: "", status: "" }
const count = (labels: typeof labelled) =>
  Effect.map(Metric.value(Metric.withAttributes(Metrics.httpRequests, labels)), (state) => state.count)
const timed = (labels: typeof labelled) =>
  Effect.map(Metric.value(Metric.withAttributes(Metrics.httpRequestDuration, labels)), (state) => state.count)
const refusals = Effect.map(Metric.value(Metrics.rateLimitRefusals), (state) => state.count)

const accountsOk = { route: "/api/v1/accounts", method: "GET", status: "200" }
const postMissing = { route: "/api/v1/posts/:id", method: "GET", status: "404" }
const unknownPath = { route: "unmatched", method: "GET", status: "404" }
const accountsRefused = { route: "/api/v1/accounts", method: "GET", status: "429" }

layer(serverLayer({ rateLimitPerMinute: 4 }), { excludeTestServices: true })("request metrics", (it) => {
  it.effect("counts each answer by route template, method and status; a 429 of the key's limit as a refusal", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      yield* roomInMinute
      const before = {
        accountsOk: yield* count(accountsOk),
        postMissing: yield* count(postMissing),
        unknownPath: yield* count(unknownPath),
        accountsRefused: yield* count(accountsRefused),
        timed: yield* timed(accountsOk),
        refusals: yield* refusals
      }

      for (let i = 0; i < 2; i++) {
        const answer = yield* request(`${base}/api/v1/accounts`, { headers: bearer(key.key) })
        assert.strictEqual(answer.status, 200, answer.text)
      }
      const missing = yield* request(`${base}/api/v1/posts/post_doesnotexist00000000`, { headers: bearer(key.key) })
      assert.strictEqual(missing.status, 404, missing.text)
      const unknown = yield* request(`${base}/no/such/path/1234`)
      assert.strictEqual(unknown.status, 404, unknown.text)
      // The key's four requests a minute are used up by now (three above, one more here), then refused.
      let refused = 0
      for (let i = 0; i < 3; i++) {
        const answer = yield* request(`${base}/api/v1/accounts`, { headers: bearer(key.key) })
        if (answer.status === 429) refused++
      }
      assert.strictEqual(refused, 2)

      assert.strictEqual((yield* count(accountsOk)) - before.accountsOk, 3)
      assert.strictEqual((yield* timed(accountsOk)) - before.timed, 3)
      // The template, never the id asked for; a path no route has is `unmatched`, not itself.
      assert.strictEqual((yield* count(postMissing)) - before.postMissing, 1)
      assert.strictEqual((yield* count(unknownPath)) - before.unknownPath, 1)
      assert.strictEqual((yield* count({ ...postMissing, route: "/api/v1/posts/post_doesnotexist00000000" })), 0)
      assert.strictEqual((yield* count({ ...unknownPath, route: "/no/such/path/1234" })), 0)
      assert.strictEqual((yield* count(accountsRefused)) - before.accountsRefused, 2)
      assert.strictEqual((yield* refusals) - before.refusals, 2)
    }))
})
