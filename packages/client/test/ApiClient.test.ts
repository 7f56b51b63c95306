// The API half as its users call it: generated from packages/api's contract (and kept so), typed so that a
// wrong call does not compile, and talking to a real Herald.
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { createHeraldClient, type HeraldClient, type HeraldError, type HeraldErrorCode } from "@herald/client/api"
import { render, schemaPath } from "../scripts/schema.ts"
import { baseUrl, serverLayer, workspaceWithKey } from "../../../apps/server/test/harness.ts"

describe("the generated schema", () => {
  it.effect("is what packages/api's contract renders today", () =>
    Effect.gen(function*() {
      const rendered = yield* Effect.promise(render)
      const committed = readFileSync(schemaPath, "utf8")
      assert.isTrue(
        committed === rendered,
        "packages/client/src/api/schema.ts is out of date with packages/api: run `npx -y pnpm@12.21.0 generate:client` and commit it"
      )
    }), 60_000)
})

// Never run: the compiler checks these calls when the tests are type-checked (`pnpm typecheck`).
export const typed = (client: HeraldClient) => [
  client.GET("/api/v1/posts", { params: { query: { limit: 2 } } }),
  // @ts-expect-error a limit is a number
  client.GET("/api/v1/posts", { params: { query: { limit: "2" } } }),
  // @ts-expect-error no such path
  client.GET("/api/v1/postz"),
  // @ts-expect-error the path's id is required
  client.GET("/api/v1/posts/{id}", {}),
  // @ts-expect-error an error's code is one of the contract's
  ((code: HeraldErrorCode) => code)("teapot")
]

layer(serverLayer(), { excludeTestServices: true })("a client of a running Herald", (it) => {
  it.effect("lists accounts with a key, typed, and answers the reference's error shape without one", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      const client = createHeraldClient({ baseUrl: base, apiKey: key.key })

      const started = yield* Effect.promise(() =>
        client.POST("/api/v1/accounts/connect/{platform}", {
          params: { path: { platform: "example" } },
          body: { username: "alice" }
        })
      )
      assert.strictEqual(started.response.status, 200)
      // The example network's consent screen (the sandbox) sends the browser back to the callback.
      const consent = yield* Effect.promise(() => fetch(started.data!.data.url, { redirect: "manual" }))
      const callback = consent.headers.get("location")!.replace("localhost", "127.0.0.1")
      assert.strictEqual((yield* Effect.promise(() => fetch(callback))).status, 200)

      const listed = yield* Effect.promise(() => client.GET("/api/v1/accounts"))
      assert.strictEqual(listed.response.status, 200)
      const accounts = listed.data!.data
      assert.deepStrictEqual(accounts.map((account) => [account.platform, account.username, account.status]), [
        ["example", "alice", "connected"]
      ])

      const anonymous = createHeraldClient({ baseUrl: base, headers: { "x-request-note": "none" } })
      const refused = yield* Effect.promise(() => anonymous.GET("/api/v1/accounts"))
      assert.strictEqual(refused.response.status, 401)
      const error: HeraldError | undefined = refused.error
      assert.strictEqual(error?.error.code, "unauthorized")
      assert.isString(error?.error.message)
    }), 60_000)

  it.effect("sends the key as a bearer token through a fetch of the caller's, beside its own headers", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const seen: Array<Request> = []
      const client = createHeraldClient({
        baseUrl: base,
        apiKey: "hk_test_abc",
        headers: { "X-CSRF-Token": "t0k" },
        fetch: (request) => {
          seen.push(request)
          return fetch(request)
        }
      })
      const answer = yield* Effect.promise(() => client.GET("/api/v1/posts", { params: { query: { limit: 2 } } }))
      assert.strictEqual(answer.response.status, 401)
      assert.strictEqual(seen.length, 1)
      assert.strictEqual(seen[0]!.url, `${base}/api/v1/posts?limit=2`)
      assert.strictEqual(seen[0]!.headers.get("authorization"), "Bearer hk_test_abc")
      assert.strictEqual(seen[0]!.headers.get("x-csrf-token"), "t0k")
    }))
})
