import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends } from "@herald/db/testing"
import { baseUrl, bearer, examplePackage, request, serverLayer, workspaceWithKey } from "./harness.ts"
import { type Operation, operations } from "./openapi.ts"

// Herald's text rule over HTTP (apps/server/src/http/TextRule.ts): a NUL or an unpaired surrogate in any
// text a client sends is `invalid` naming the field, on every operation of the OpenAPI document, and
// nothing is stored. Before the rule, PostgreSQL refused such text and 26 operations answered 500.

const nul = "a\u0000b"
const lone = "a\ud800b"

/** A path of the operation with every parameter set to `value` (already encoded). */
const pathOf = (operation: Operation, value: (name: string) => string) =>
  operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => value(name))

const expectInvalid = (
  answer: { readonly status: number; readonly body: any; readonly text: string },
  field: string | ReadonlyArray<string>,
  what: string
) => {
  assert.strictEqual(answer.status, 400, `${what}: ${answer.text}`)
  assert.strictEqual(answer.body?.error?.code, "invalid", what)
  const named = answer.body.error.details[0].field
  assert.include(typeof field === "string" ? [field] : field, named, what)
  assert.match(answer.body.error.message, /NUL|unpaired surrogate/, what)
}

// On the embedded database, and on PostgreSQL when HERALD_TEST_DATABASE_URL names one.
for (const backend of backends()) layer(serverLayer({}, [examplePackage], backend), { excludeTestServices: true })(`text rule on ${backend.name}`, (it) => {
  it.effect("every operation refuses NUL and lone surrogates in path ids, query parameters and body fields", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      const document = (yield* request(`${base}/api/v1/openapi.json`)).body
      const all = operations(document)
      assert.isAtLeast(all.length, 46)
      let checked = 0
      for (const operation of all) {
        const headers = bearer(key.key)
        const named = operation.parameters.filter((parameter) => parameter.in === "path").map((parameter) => parameter.name)
        for (const name of named) {
          const path = pathOf(operation, (each) => each === name ? "%00" : "x")
          const answer = yield* request(`${base}${path}`, { method: operation.method, headers })
          expectInvalid(answer, "path", `${operation.method} ${path}`)
          checked++
        }
        const plain = pathOf(operation, () => "x")
        for (const parameter of operation.parameters.filter((each) => each.in === "query")) {
          const answer = yield* request(`${base}${plain}?${parameter.name}=%ED%A0%80x%00`, { method: operation.method, headers })
          expectInvalid(answer, parameter.name, `${operation.method} ${plain} ?${parameter.name}`)
          checked++
        }
        // Text from networks is repaired by the inbox, not refused (docs/decisions/0009).
        if (operation.path.startsWith("/networks/")) continue
        const json = operation.bodyTypes.includes("application/json")
        const form = operation.bodyTypes.includes("application/x-www-form-urlencoded")
        if (!json && !form) continue
        const fields = operation.bodyFields.length === 0 ? ["note"] : operation.bodyFields
        for (const text of [nul, lone]) {
          const body = Object.fromEntries(fields.map((field) => [field, text]))
          const answer = yield* request(`${base}${plain}`, {
            method: operation.method,
            headers: { ...headers, "content-type": json ? "application/json" : "application/x-www-form-urlencoded" },
            body: json ? JSON.stringify(body) : new URLSearchParams(body).toString()
          })
          if (!json && text === lone) continue // a form's bytes cannot carry a lone surrogate (UTF-8 gives U+FFFD)
          expectInvalid(answer, fields, `${operation.method} ${plain} body`)
          checked++
        }
      }
      assert.isAtLeast(checked, 60)
    }))

  it.effect("names the field deep in a body (array items, record keys) and stores nothing", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      const headers = { ...bearer(key.key), "content-type": "application/json" }
      const send = (body: string) => request(`${base}/api/v1/posts`, { method: "POST", headers, body })
      const item = yield* send(`{"content":"hi","accountIds":["acc_0000000000000000","acc_\\u0000"],"draft":true}`)
      expectInvalid(item, "accountIds.1", "array item")
      const recordKey = yield* send(`{"content":"hi","accountIds":["acc_0000000000000000"],"platformContent":{"x\\udc00":"y"},"draft":true}`)
      assert.strictEqual(recordKey.status, 400, recordKey.text)
      assert.strictEqual(recordKey.body.error.details[0].field, "platformContent.x\ufffd")
      assert.include(recordKey.body.error.message, "field name")
      const thread = yield* send(`{"content":"hi","accountIds":["acc_0000000000000000"],"xThread":["ok","\\ud83d"],"draft":true}`)
      expectInvalid(thread, "xThread.1", "thread item")
      const listed = yield* request(`${base}/api/v1/posts`, { headers: bearer(key.key) })
      assert.deepStrictEqual(listed.body.data, [])
    }))

  it.effect("lets well-formed text through, escapes and emoji included", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      const headers = { ...bearer(key.key), "content-type": "application/json" }
      const answer = yield* request(`${base}/api/v1/review-profiles`, {
        method: "POST",
        headers,
        body: `{"name":"Caf\\u00e9 \\ud83d\\udc4b \\u00a0ok"}`
      })
      assert.strictEqual(answer.status, 200, answer.text)
      assert.strictEqual(answer.body.data.name, "Café 👋 \u00a0ok")
    }))
})
