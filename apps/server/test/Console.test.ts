import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { HttpServer } from "effect/http"
import { NodeHttpServer, NodeServices } from "@effect/platform-node"
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { request as httpRequest } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib"
import * as Console from "../src/http/Console.ts"
import * as ErrorRendering from "../src/http/ErrorRendering.ts"
import * as Http from "../src/Http.ts"
import * as NodeServer from "../src/internal/nodeServer.ts"
import { baseUrl, request, serverLayer } from "./harness.ts"

// The console as the server serves it (apps/server/src/http/Console.ts), from a fake Vite build in a temp
// folder: hashed assets cached for good, index.html and the SPA fallback revalidated, the CSP everywhere,
// and no way out of the build folder.

const folder = mkdtempSync(join(tmpdir(), "herald-console-"))
const dist = join(folder, "dist")
mkdirSync(join(dist, "assets"), { recursive: true })
const indexHtml = `<!doctype html><html><head><script type="module" src="/app/assets/index-Ab12Cd.js"></script></head><body><div id="root"></div></body></html>`
const script = `console.log(${JSON.stringify("herald ".repeat(400))})\n`
writeFileSync(join(dist, "index.html"), indexHtml)
writeFileSync(join(dist, "assets", "index-Ab12Cd.js"), script)
writeFileSync(join(dist, "assets", "index-Ef34Gh.css"), "body{margin:0}")
// A file the build compressed ahead (apps/console/scripts/build.ts writes `.br` and `.gz` beside it), here at
// settings the server never uses itself, so the test tells the build's bytes from the server's.
const styles = Array.from({ length: 200 }, (_, i) => `.c${i}{padding:${i % 7}rem}`).join("\n")
const aheadBr = brotliCompressSync(styles, { params: { [zlib.BROTLI_PARAM_QUALITY]: 1 } })
const aheadGz = gzipSync(styles, { level: 1 })
writeFileSync(join(dist, "assets", "app-Zz11.css"), styles)
writeFileSync(join(dist, "assets", "app-Zz11.css.br"), aheadBr)
writeFileSync(join(dist, "assets", "app-Zz11.css.gz"), aheadGz)
writeFileSync(join(dist, "assets", "font-Xy99.woff2"), new Uint8Array([0x77, 0x4f, 0x46, 0x32]))
writeFileSync(join(dist, "favicon.svg"), `<svg xmlns="http://www.w3.org/2000/svg"/>`)
// Beside the build, where no request may reach.
writeFileSync(join(folder, "secret.txt"), "password=hunter2")

const serverFor = (root: string) =>
  Http.serve(Layer.mergeAll(Console.layer(root), ErrorRendering.layer)).pipe(
    Layer.provideMerge(NodeHttpServer.layer(NodeServer.make, { port: 0, host: "127.0.0.1" })),
    Layer.provide(NodeServices.layer)
  )

const base = Effect.map(HttpServer.HttpServer, (server) => HttpServer.formatAddress(server.address))

const get = (path: string, headers: Record<string, string> = {}) =>
  Effect.flatMap(base, (url) => request(`${url}${path}`, { headers, redirect: "manual" }))

/** A request with its path sent byte for byte, as fetch would normalise dot segments away. */
const raw = (path: string) =>
  Effect.flatMap(base, (url) =>
    Effect.promise(() =>
      new Promise<{ readonly status: number; readonly text: string }>((resolve, reject) => {
        const target = new URL(url)
        const outgoing = httpRequest({ host: target.hostname, port: target.port, path, method: "GET" }, (incoming) => {
          let text = ""
          incoming.on("data", (chunk) => (text += chunk))
          incoming.on("end", () => resolve({ status: incoming.statusCode ?? 0, text }))
        })
        outgoing.on("error", reject)
        outgoing.end()
      })
    ))

const assertSecured = (headers: Headers, what: string) => {
  assert.strictEqual(headers.get("content-security-policy"), Console.contentSecurityPolicy, what)
  assert.strictEqual(headers.get("x-content-type-options"), "nosniff", what)
  assert.strictEqual(headers.get("referrer-policy"), "same-origin", what)
}

describe("the console's routes", () => {
  layer(serverFor(dist))("with a build", (it) => {
    it.effect("serves hashed assets for a year with their type, and index.html revalidated", () =>
      Effect.gen(function*() {
        for (const [path, type] of [
          ["/app/assets/index-Ab12Cd.js", "text/javascript; charset=utf-8"],
          ["/app/assets/index-Ef34Gh.css", "text/css; charset=utf-8"],
          ["/app/assets/font-Xy99.woff2", "font/woff2"]
        ] as const) {
          const answer = yield* get(path)
          assert.strictEqual(answer.status, 200, path)
          assert.strictEqual(answer.headers.get("content-type"), type, path)
          assert.strictEqual(answer.headers.get("cache-control"), "public, max-age=31536000, immutable", path)
          assert.match(answer.headers.get("etag") ?? "", /^"[\w-]+"$/, path)
          assertSecured(answer.headers, path)
        }
        const index = yield* get("/app/")
        assert.strictEqual(index.status, 200, index.text)
        assert.strictEqual(index.text, indexHtml)
        assert.strictEqual(index.headers.get("content-type"), "text/html; charset=utf-8")
        assert.strictEqual(index.headers.get("cache-control"), "no-cache")
        assertSecured(index.headers, "/app/")
        const icon = yield* get("/app/favicon.svg")
        assert.strictEqual(icon.headers.get("content-type"), "image/svg+xml; charset=utf-8")
        assert.strictEqual(icon.headers.get("cache-control"), "no-cache")
      }))

    it.effect("answers every other /app path with index.html (the console's own routes), but a missing asset is 404", () =>
      Effect.gen(function*() {
        for (const path of ["/app/sign-in", "/app/settings/webhooks/whk_1", "/app/settings/api-keys/?tab=1", "/app/link"]) {
          const answer = yield* get(path)
          assert.strictEqual(answer.status, 200, path)
          assert.strictEqual(answer.text, indexHtml, path)
          assert.strictEqual(answer.headers.get("cache-control"), "no-cache", path)
          assertSecured(answer.headers, path)
        }
        const missing = yield* get("/app/assets/index-Old000.js")
        assert.strictEqual(missing.status, 404)
        assert.strictEqual(missing.body.error.code, "not_found")
        assert.notStrictEqual(missing.text, indexHtml)
        assertSecured(missing.headers, "missing asset")
      }))

    it.effect("sends brotli or gzip to clients that take it, and 304 for an ETag the client holds", () =>
      Effect.gen(function*() {
        const brotli = yield* get("/app/assets/index-Ab12Cd.js", { "accept-encoding": "gzip, br" })
        assert.strictEqual(brotli.headers.get("content-encoding"), "br")
        assert.strictEqual(brotli.text, script)
        assert.strictEqual(brotli.headers.get("vary"), "Accept-Encoding")
        const gzip = yield* get("/app/assets/index-Ab12Cd.js", { "accept-encoding": "gzip" })
        assert.strictEqual(gzip.headers.get("content-encoding"), "gzip")
        assert.strictEqual(gzip.text, script)
        const plain = yield* get("/app/assets/index-Ab12Cd.js", { "accept-encoding": "identity" })
        assert.isNull(plain.headers.get("content-encoding"))
        assert.strictEqual(plain.text, script)
        const etag = plain.headers.get("etag")!
        assert.notStrictEqual(gzip.headers.get("etag"), etag)

        const again = yield* get("/app/assets/index-Ab12Cd.js", { "accept-encoding": "identity", "if-none-match": etag })
        assert.strictEqual(again.status, 304)
        assert.strictEqual(again.text, "")
        const index = yield* get("/app/")
        const revalidated = yield* get("/app/settings/team", { "if-none-match": index.headers.get("etag")! })
        assert.strictEqual(revalidated.status, 304)
      }))

    it.effect("sends the forms the build compressed ahead as they are", () =>
      Effect.gen(function*() {
        const sent = (encoding: string) =>
          Effect.flatMap(base, (url) =>
            Effect.promise(() =>
              new Promise<{ readonly encoding: string | undefined; readonly body: Buffer }>((resolve, reject) => {
                const target = new URL(url)
                const outgoing = httpRequest({
                  host: target.hostname,
                  port: target.port,
                  path: "/app/assets/app-Zz11.css",
                  headers: { "accept-encoding": encoding }
                }, (incoming) => {
                  const chunks: Array<Buffer> = []
                  incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
                  incoming.on("end", () =>
                    resolve({ encoding: incoming.headers["content-encoding"], body: Buffer.concat(chunks) }))
                })
                outgoing.on("error", reject)
                outgoing.end()
              })
            ))
        const brotli = yield* sent("br")
        assert.strictEqual(brotli.encoding, "br")
        assert.deepStrictEqual(brotli.body, aheadBr)
        const gzip = yield* sent("gzip")
        assert.strictEqual(gzip.encoding, "gzip")
        assert.deepStrictEqual(gzip.body, aheadGz)
      }))

    it.effect("answers HEAD with the headers GET would send and no body", () =>
      Effect.gen(function*() {
        const url = yield* base
        const answer = yield* request(`${url}/app/assets/index-Ab12Cd.js`, { method: "HEAD" })
        assert.strictEqual(answer.status, 200)
        assert.strictEqual(answer.text, "")
        assert.strictEqual(answer.headers.get("cache-control"), "public, max-age=31536000, immutable")
        assertSecured(answer.headers, "HEAD")
      }))

    it.effect("redirects / and /app to /app/", () =>
      Effect.gen(function*() {
        for (const path of ["/", "/app"]) {
          const answer = yield* get(path)
          assert.strictEqual(answer.status, 302, path)
          assert.strictEqual(answer.headers.get("location"), "/app/", path)
        }
      }))

    it.effect("never serves a file outside the build folder", () =>
      Effect.gen(function*() {
        for (
          const path of [
            "/app/..%2fsecret.txt",
            "/app/assets/..%2f..%2fsecret.txt",
            "/app/%2e%2e/secret.txt",
            "/app/assets/%2e%2e/%2e%2e/secret.txt",
            "/app/../secret.txt",
            "/app/assets/../../secret.txt",
            "/app/..%5csecret.txt",
            "/app/%00",
            "/app/%ff"
          ]
        ) {
          const answer = yield* raw(path)
          assert.notInclude(answer.text, "hunter2", path)
          assert.include([200, 404], answer.status, path)
          // What is answered at all is the console's page (the SPA fallback) or a 404.
          if (answer.status === 200) assert.strictEqual(answer.text, indexHtml, path)
        }
      }))
  })

  layer(serverFor(join(folder, "not-built")))("without a build", (it) => {
    it.effect("answers a page saying how to build the console", () =>
      Effect.gen(function*() {
        for (const path of ["/app/", "/app/settings/team"]) {
          const answer = yield* get(path)
          assert.strictEqual(answer.status, 503, path)
          assert.strictEqual(answer.headers.get("content-type"), "text/html; charset=utf-8")
          assert.include(answer.text, "npx -y pnpm@12.21.0 install")
          assertSecured(answer.headers, path)
        }
      }))
  })
})

// The real server's routes (Http.routes) include the console, at its default build folder (built or not).
layer(serverLayer(), { excludeTestServices: true })("the console in the whole server", (it) => {
  it.effect("redirects / to /app/ and answers /app/ with the console or the page saying how to build it", () =>
    Effect.gen(function*() {
      const url = yield* baseUrl
      const root = yield* request(`${url}/`, { redirect: "manual" })
      assert.strictEqual(root.status, 302)
      assert.strictEqual(root.headers.get("location"), "/app/")
      const app = yield* request(`${url}/app/accounts`)
      const built = existsSync(join(Console.defaultDist, "index.html"))
      assert.strictEqual(app.status, built ? 200 : 503, app.text)
      assert.include(app.text, built ? `<div id="root">` : "npx -y pnpm@12.21.0 install")
      assertSecured(app.headers, "/app/accounts")
      // The API is untouched by the console's fallback.
      assert.strictEqual((yield* request(`${url}/api/v1/accounts`)).status, 401)
    }))
})
