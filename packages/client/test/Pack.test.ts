import { execFileSync, spawnSync } from "node:child_process"
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { basename, delimiter, dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { assert, beforeAll, describe, it } from "vitest"
import * as byName from "@herald/client"
// Herald's own signer, the one that signs every delivery, so the packed verifier is checked against it.
import { signature } from "../../core/src/WebhookDelivery.ts"
import * as bySource from "../src/index.ts"
import * as apiByName from "@herald/client/api"
import * as apiBySource from "../src/api/index.ts"

// The package as someone outside the repository gets it: `npm pack`, installed from the tarball into an
// empty project, imported by plain Node (no TypeScript, no build tool) and type-checked by a TS consumer.

const packageDir = fileURLToPath(new URL("..", import.meta.url))
const repositoryRoot = resolve(packageDir, "../..")
const work = mkdtempSync(join(tmpdir(), "herald-client-pack-"))
const consumer = join(work, "consumer")
const secret = "whsec_Pk7vQ2mT9pLr4WnYc8HdF3bJ6sAe1UgZ"
const body = JSON.stringify({
  id: "9c4e2a71-3b8d-4f60-a5e2-7d1c9b3f0a48",
  event: "post.published",
  createdAt: "2026-01-01T00:00:00.000Z",
  data: { postId: "pst_4Rk8Wq", note: "Grüße 😀" }
})

/** The Node a receiver runs: the first `node` on PATH outside node_modules (the project's own Node is there). */
const systemNode = (process.env["PATH"] ?? "").split(delimiter)
  .filter((directory) => directory !== "" && !directory.includes("node_modules"))
  .map((directory) => join(directory, "node"))
  .find((candidate) => existsSync(candidate)) ?? process.execPath

const npm = (args: ReadonlyArray<string>, cwd: string) =>
  execFileSync("npm", [...args, "--cache", join(work, "npm-cache"), "--offline", "--no-audit", "--no-fund"], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"]
  })

/**
 * The API half's one dependency (and its own), packed from the repository's installed copies: the consumer
 * installs them beside the tarball, so the test needs no network and no registry.
 */
const dependencyFolders = () => {
  const openapiFetch = realpathSync(join(packageDir, "node_modules/openapi-fetch"))
  const helpers = dirname(createRequire(join(openapiFetch, "package.json")).resolve("openapi-typescript-helpers/package.json"))
  return [openapiFetch, helpers]
}

let tarball = ""
let tarballFiles: ReadonlyArray<string> = []

beforeAll(() => {
  const packed = JSON.parse(npm(["pack", "--json", "--pack-destination", work], packageDir))
  tarball = join(work, packed[0].filename)
  tarballFiles = packed[0].files.map((file: { readonly path: string }) => file.path)
  mkdirSync(consumer)
  writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }))
  // Packed from copies: pnpm's store hard-links identical files, and npm's tarball keeps only the first of them.
  const dependencies = dependencyFolders().map((folder) => {
    const copy = join(work, "dependencies", basename(folder))
    cpSync(folder, copy, { recursive: true })
    return join(work, JSON.parse(npm(["pack", "--json", "--ignore-scripts", "--pack-destination", work], copy))[0].filename)
  })
  npm(["install", tarball, ...dependencies], consumer)
})

const run = (file: string, header = "") =>
  spawnSync(systemNode, [file], {
    cwd: consumer,
    encoding: "utf8",
    env: { PATH: process.env["PATH"] ?? "", BODY: body, HEADER: header, SECRET: secret }
  })

describe("the packed @herald/client", () => {
  it("is a public package of built JavaScript and declarations, without sources or tests, depending on openapi-fetch only", () => {
    const manifest = JSON.parse(readFileSync(join(consumer, "node_modules/@herald/client/package.json"), "utf8"))
    assert.isUndefined(manifest.private)
    assert.match(manifest.version, /^\d+\.\d+\.\d+$/)
    assert.isString(manifest.license)
    assert.isString(manifest.description)
    assert.deepStrictEqual(Object.keys(manifest.dependencies), ["openapi-fetch"])
    assert.isUndefined(manifest.peerDependencies)
    for (const file of ["package.json", "README.md", "dist/index.js", "dist/index.d.ts", "dist/Webhooks.js", "dist/cjs/index.js", "dist/api/index.js", "dist/api/index.d.ts", "dist/api/schema.d.ts", "dist/cjs/api/index.js"]) {
      assert.include(tarballFiles, file)
    }
    assert.deepStrictEqual(tarballFiles.filter((file) => !file.startsWith("dist/") && file !== "package.json" && file !== "README.md"), [])
    assert.deepStrictEqual(tarballFiles.filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts")), [])
  })

  it("verifies Herald's signature from a plain Node ESM script and from CommonJS, and refuses a changed body", () => {
    const now = Math.floor(Date.now() / 1000)
    const header = signature(secret, body, now)
    const check = `
      const { BODY, HEADER, SECRET } = process.env
      try {
        const event = verifyWebhook(BODY, HEADER, SECRET)
        console.log("accepted " + event.id + " " + event.event + " " + Webhooks.signWebhook(BODY, SECRET, ${now}))
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error
        console.log("refused " + error.reason)
      }`
    writeFileSync(join(consumer, "check.mjs"), `import { verifyWebhook, Webhooks, WebhookVerificationError } from "@herald/client"\n${check}`)
    writeFileSync(join(consumer, "check.cjs"), `const { verifyWebhook, Webhooks, WebhookVerificationError } = require("@herald/client")\n${check}`)
    // The main export loads no dependency: a receiver's install without openapi-fetch works the same.
    const installed = join(consumer, "node_modules/openapi-fetch")
    renameSync(installed, `${installed}-hidden`)
    try {
      for (const file of ["check.mjs", "check.cjs"]) {
        const genuine = run(file, header)
        assert.strictEqual(genuine.status, 0, `${systemNode} ${file}: ${genuine.stderr}`)
        assert.strictEqual(genuine.stdout.trim(), `accepted 9c4e2a71-3b8d-4f60-a5e2-7d1c9b3f0a48 post.published ${header}`)
      }
    } finally {
      renameSync(`${installed}-hidden`, installed)
    }
    for (const file of ["check.mjs", "check.cjs"]) {
      const genuine = run(file, header)
      assert.strictEqual(genuine.status, 0, `${systemNode} ${file}: ${genuine.stderr}`)
      assert.strictEqual(genuine.stdout.trim(), `accepted 9c4e2a71-3b8d-4f60-a5e2-7d1c9b3f0a48 post.published ${header}`)
      const tampered = run(file, signature(secret, body.replace("Grüße", "Grusse"), now))
      assert.strictEqual(tampered.stdout.trim(), "refused signature_mismatch", tampered.stderr)
    }
  })

  it("calls the API through @herald/client/api from plain Node ESM and CommonJS, with the key as a bearer token", () => {
    const call = `
      const client = createHeraldClient({
        baseUrl: "http://herald.test",
        apiKey: "hk_live_abc",
        fetch: async (request) => {
          console.log(request.method + " " + request.url + " " + request.headers.get("authorization"))
          return new Response(JSON.stringify({ data: [{ id: "pst_1" }], nextCursor: null }), { headers: { "content-type": "application/json" } })
        }
      })
      client.GET("/api/v1/posts", { params: { query: { limit: 2 } } }).then(({ data }) => console.log(data.data[0].id))`
    writeFileSync(join(consumer, "api.mjs"), `import { createHeraldClient } from "@herald/client/api"\n${call}`)
    writeFileSync(join(consumer, "api.cjs"), `const { createHeraldClient } = require("@herald/client/api")\n${call}`)
    for (const file of ["api.mjs", "api.cjs"]) {
      const answer = run(file)
      assert.strictEqual(answer.status, 0, `${systemNode} ${file}: ${answer.stderr}`)
      assert.strictEqual(answer.stdout.trim(), "GET http://herald.test/api/v1/posts?limit=2 Bearer hk_live_abc\npst_1")
    }
  })

  it("type-checks a TypeScript consumer against the packed declarations", () => {
    writeFileSync(join(consumer, "tsconfig.json"), JSON.stringify({
      compilerOptions: { module: "NodeNext", target: "ES2022", strict: true, noEmit: true, types: [], skipLibCheck: false },
      files: ["consumer.ts", "api.ts"]
    }))
    writeFileSync(join(consumer, "consumer.ts"), `
      import { verifyWebhook, Webhooks, WebhookVerificationError, type WebhookEvent, type WebhookVerificationReason } from "@herald/client"
      const event: WebhookEvent = verifyWebhook(new Uint8Array(), ["t=1,v1=00"], ["whsec_a", "whsec_b"], { toleranceSeconds: 60, now: new Date() })
      const reason: WebhookVerificationReason = new WebhookVerificationError("missing_header", "none").reason
      const header: string = Webhooks.signWebhook("{}", "whsec_a", 1)
      // @ts-expect-error the declarations are real: a parsed body is not a raw body
      verifyWebhook({ id: "x" }, header, "whsec_a")
      // @ts-expect-error and the reasons are a closed list
      const wrong: WebhookVerificationReason = "expired"
      export { event, reason, wrong }
    `)
    writeFileSync(join(consumer, "api.ts"), `
      import { createHeraldClient, type HeraldError, type components } from "@herald/client/api"
      const client = createHeraldClient({ baseUrl: "http://localhost:3000", apiKey: "hk_live_abc" })
      export const list = async () => {
        const { data, error } = await client.GET("/api/v1/posts", { params: { query: { limit: 2 } } })
        const posts: ReadonlyArray<components["schemas"]["Post"]> = data?.data ?? []
        const failure: HeraldError | undefined = error
        // @ts-expect-error the query is typed by the contract
        await client.GET("/api/v1/posts", { params: { query: { limit: "2" } } })
        // @ts-expect-error and so are the paths
        await client.GET("/api/v1/nothing")
        return { posts, failure }
      }
    `)
    const checked = spawnSync(systemNode, [join(repositoryRoot, "node_modules/typescript/bin/tsc"), "-p", consumer], { encoding: "utf8" })
    assert.strictEqual(checked.status, 0, checked.stdout + checked.stderr)
  })

  it("inside the repository the package name resolves to the TypeScript source, with nothing to build", () => {
    assert.strictEqual(byName.verifyWebhook, bySource.verifyWebhook)
    assert.strictEqual(byName.Webhooks, bySource.Webhooks)
    assert.strictEqual(apiByName.createHeraldClient, apiBySource.createHeraldClient)
  })
})
