// The served OpenAPI document as outside tools read it: a client generated with openapi-typescript must
// type-check the calls people write, and Redocly's recommended rules must find no error.
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import openapiTS, { astToString } from "openapi-typescript"
import { createConfig, lintFromString } from "@redocly/openapi-core"
import ts from "typescript"
import * as Packages from "../src/Packages.ts"
import { baseUrl, examplePackage, request, serverLayer } from "./harness.ts"

const served = Effect.gen(function*() {
  const base = yield* baseUrl
  const answer = yield* request(`${base}/api/v1/openapi.json`)
  assert.strictEqual(answer.status, 200)
  return { base, document: answer.body, text: answer.text }
})

// Calls as a client author writes them: numbers where the API takes whole numbers.
const calls = `import type { paths } from "./herald.ts"

type Query<Path extends keyof paths, Method extends "get" | "post"> =
  NonNullable<paths[Path][Method] extends { parameters: { query?: infer Q } } ? Q : never>

export const posts: Query<"/api/v1/posts", "get"> = { limit: 2, status: "scheduled" }
export const deliveries: Query<"/api/v1/webhooks/{id}/deliveries", "get"> = { limit: 2 }
export const comments: Query<"/api/v1/inbox/comments", "get"> = { limit: 2 }
export const conversations: Query<"/api/v1/inbox/conversations", "get"> = { limit: 2 }
export const messages: Query<"/api/v1/inbox/conversations/{id}/messages", "get"> = { limit: 2 }
export const media: Query<"/api/v1/media", "post"> = { width: 100, height: 100, durationMs: 1500 }
`

/** Type-checks `files` (name to text) in a fresh folder as a strict project would; answers the errors. */
const typeCheck = (files: Record<string, string>) => {
  const folder = mkdtempSync(join(tmpdir(), "herald-openapi-client-"))
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text)
  const program = ts.createProgram(Object.keys(files).map((name) => join(folder, name)), {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: true,
    types: []
  })
  return ts.getPreEmitDiagnostics(program).map((diagnostic) =>
    `${diagnostic.file?.fileName.slice(folder.length + 1) ?? ""}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`
  )
}

describe("the served OpenAPI document", () => {
  // The installed networks' packages: the document describes their post options.
  layer(serverLayer({}, [examplePackage, ...Packages.all]))("on a running server", (it) => {
    it.effect("generates an openapi-typescript client that takes whole numbers as numbers", () =>
      Effect.gen(function*() {
        const { document } = yield* served
        const client = astToString(yield* Effect.promise(() => openapiTS(document)))
        const errors = typeCheck({ "herald.ts": client, "calls.ts": calls })
        assert.deepStrictEqual(errors, [])

        for (const [path, method, name] of [
          ["/api/v1/posts", "get", "limit"],
          ["/api/v1/webhooks/{id}/deliveries", "get", "limit"],
          ["/api/v1/inbox/comments", "get", "limit"],
          ["/api/v1/media", "post", "width"]
        ] as const) {
          const parameter = document.paths[path][method].parameters.find((entry: any) => entry.name === name)
          assert.strictEqual(parameter.schema.type, "integer", `${method} ${path} ${name}`)
        }
        const limit = document.paths["/api/v1/posts"].get.parameters.find((entry: any) => entry.name === "limit")
        assert.deepInclude(limit.schema, { minimum: 1, maximum: 100 })
        // No number is typed as a number or the strings "Infinity"/"NaN" (a JSON-safe schema of any number):
        // the generated client would make every limit, attempt and count a union with strings.
        const loose = [...client.matchAll(/^.*"Infinity".*$/gm)].map((match) => match[0].trim())
        assert.deepStrictEqual(loose, [])
      }), 60_000)

    it.effect("passes Redocly's recommended rules without an error", () =>
      Effect.gen(function*() {
        const { base, text } = yield* served
        const config = yield* Effect.promise(() => createConfig({ extends: ["recommended"] }))
        const problems = yield* Effect.promise(() =>
          lintFromString({ source: text, absoluteRef: `${base}/api/v1/openapi.json`, config })
        )
        const errors = problems.filter((problem) => problem.severity === "error")
        assert.deepStrictEqual(errors.map((problem) => `${problem.ruleId}: ${problem.message}`), [])
        // The warnings left (decision 0015): the test server's address is localhost (a real one is its
        // BASE_URL), /health and /ready answer 200 or 503, as no request to them can be wrong, and an old invitation
        // link only redirects (303) to the console's page, which says what is wrong with it (decision 0021).
        // /accounts/{id}/queue-schedule (the path) could read as /accounts/connect/{platform}, but an
        // account id is never `connect` (they start `acc_`), and the fixed segment wins (decision 0037).
        const warnings = problems.filter((problem) => problem.severity === "warn")
          .map((problem) => `${problem.ruleId} ${problem.location[0]?.pointer}`)
        assert.deepStrictEqual(warnings.sort(), [
          "no-ambiguous-paths #/paths/~1api~1v1~1accounts~1{id}~1queue-schedule",
          "no-server-example.com #/servers/0/url",
          "operation-2xx-response #/paths/~1invitations~1{token}/get/responses",
          "operation-4xx-response #/paths/~1health/get/responses",
          "operation-4xx-response #/paths/~1invitations~1{token}/get/responses",
          "operation-4xx-response #/paths/~1ready/get/responses"
        ])
      }), 60_000)

    it.effect("names its tags in Title Case with descriptions, and has servers, a license and plain schema names", () =>
      Effect.gen(function*() {
        const { base, document } = yield* served
        assert.deepStrictEqual(document.servers, [{ url: base.replace("127.0.0.1", "localhost"), description: "This Herald server" }])
        assert.isString(document.info.license?.name)
        assert.isString(document.info.description)
        for (const tag of document.tags) {
          assert.match(tag.name, /^[A-Z][A-Za-z]*( [A-Z][A-Za-z]*)*$/, tag.name)
          assert.isString(tag.description, tag.name)
          assert.notStrictEqual(tag.description, document.info.description, `${tag.name} has its own description`)
        }
        assert.includeMembers(document.tags.map((tag: any) => tag.name), ["System", "OAuth", "Review Pages", "Network Webhooks", "Posts"])
        const names = Object.keys(document.components.schemas)
        assert.deepStrictEqual(names.filter((name) => name.endsWith("Encoded")), [])
        assert.notInclude(JSON.stringify(document), "Encoded\"")
        assert.include(names, "Post")
        assert.deepStrictEqual(document.components.securitySchemes.bearer.scheme, "bearer")
      }))

    it.effect("describes every field of the post, queued and xThreadMedia included, and the list's parameters", () =>
      Effect.gen(function*() {
        const { document } = yield* served
        const post = document.components.schemas.Post
        for (const [name, schema] of Object.entries<any>(post.properties)) {
          assert.isString(schema.description ?? document.components.schemas[schema.$ref?.split("/").pop()]?.description, name)
        }
        assert.match(post.properties.queued.description, /slot of the posting queue/)
        assert.isString(post.properties.xThreadMedia.description)
        // The list's query parameters too, so a client knows what from, status and cursor take.
        for (const parameter of document.paths["/api/v1/posts"].get.parameters) {
          assert.isString(parameter.schema.description, parameter.name)
        }
      }))
  })
})
