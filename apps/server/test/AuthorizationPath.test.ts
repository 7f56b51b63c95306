import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { baseUrl, bearer, request, serverLayer, workspaceWithKey } from "./harness.ts"
import { roomInMinute } from "./limitWindows.ts"

// A request with an Authorization header is answered by the bearer scheme, from plain code when its key is
// cached and a permit is held (docs/decisions/0050-request-path-cost.md). HttpApi then tries the session
// scheme after a refusal; it must give the same answer without counting the request a second time.

layer(serverLayer({ rateLimitPerMinute: 3 }), { excludeTestServices: true })("the bearer path", (it) => {
  it.effect("a refused key counts once against the client's address", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      yield* roomInMinute
      const statuses: Array<number> = []
      for (let i = 0; i < 4; i++) {
        const answer = yield* request(`${base}/api/v1/accounts`, { headers: bearer("hrld_notarealkey") })
        statuses.push(answer.status)
        if (answer.status === 401) assert.include(answer.headers.get("www-authenticate") ?? "", "invalid_token")
      }
      // Three refusals a minute from this address, then 429: counted twice, the second would be refused.
      assert.deepStrictEqual(statuses, [401, 401, 401, 429])
    }))

  it.effect("a cached key keeps its rate-limit headers, and its limit, on the plain path", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      yield* roomInMinute
      const answers = []
      for (let i = 0; i < 4; i++) answers.push(yield* request(`${base}/api/v1/accounts`, { headers: bearer(key.key) }))
      assert.deepStrictEqual(answers.map((answer) => answer.status), [200, 200, 200, 429])
      assert.deepStrictEqual(
        answers.map((answer) => /r=(\d+)/.exec(answer.headers.get("ratelimit") ?? "")?.[1]),
        ["2", "1", "0", "0"]
      )
      assert.isNotNull(answers[3]!.headers.get("retry-after"))
      assert.strictEqual(answers[3]!.body.error.code, "rate_limited")
    }))
})
