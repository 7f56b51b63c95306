import { afterAll, assert, describe, it } from "@effect/vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { createInterface } from "node:readline"
import { pathToFileURL } from "node:url"
import { testDataFolder } from "./dataFolder.ts"
import * as Processes from "./processes.ts"
import { skipIf } from "../../../testing/skipIf.ts"

// What an idle `herald start` holds in memory starts with what it loads (decision 0055): the modules only
// some requests need are imported by the first of them, so a server nobody asks for docs, MCP, photos, videos
// or e-mail does not carry them, and a server on PostgreSQL does not carry PGlite.

const bin = resolve(import.meta.dirname, "../src/bin.ts")
const hook = pathToFileURL(resolve(import.meta.dirname, "loadedModules.ts")).href
const folder = mkdtempSync(join(tmpdir(), "herald-idle-modules-"))

afterAll(() => {
  rmSync(folder, { recursive: true, force: true })
})

/** Each module and the requests that load it; none is loaded by a server that has answered none of them. */
const onDemand = [
  { name: "the Scalar docs page's script", pattern: "/effect/dist/http-api/internal/httpApiScalar.js" },
  { name: "@redis/client (only @effect/platform-node's index names it)", pattern: "/node_modules/@redis/client/" },
  { name: "the MCP SDK", pattern: "/node_modules/@modelcontextprotocol/sdk/" },
  { name: "zod (the MCP SDK's)", pattern: "/node_modules/zod/" },
  { name: "sharp", pattern: "/node_modules/sharp/" },
  { name: "mp4box", pattern: "/node_modules/mp4box/" },
  { name: "nodemailer", pattern: "/node_modules/nodemailer/" }
]

interface Server {
  readonly child: ChildProcess
  readonly ready: any
  /** The URLs of the modules the server's own process has loaded so far. */
  readonly loaded: () => ReadonlyArray<string>
}

const start = (label: string, env: Record<string, string>) =>
  new Promise<Server>((resolveStart, reject) => {
    const file = join(folder, `${label}.modules`)
    const child = spawn(process.execPath, [bin, "start", "--json"], {
      env: {
        ...process.env,
        BASE_URL: "",
        DATABASE_URL: "",
        HERALD_DATA_DIR: join(folder, label),
        HERALD_SECRET_KEY: "22".repeat(32),
        HERALD_SANDBOX: "true",
        PORT: "0",
        HOST: "127.0.0.1",
        NODE_OPTIONS: `--import ${hook}`,
        HERALD_LOADED_MODULES: file,
        ...env
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stderr = ""
    child.stderr!.on("data", (chunk) => (stderr += chunk))
    const loaded = () =>
      existsSync(file)
        ? readFileSync(file, "utf8").split("\n").filter((line) => line.startsWith(`${child.pid} `)).map((line) => line.slice(line.indexOf(" ") + 1))
        : []
    createInterface({ input: child.stdout! }).once("line", (line) => resolveStart({ child, ready: JSON.parse(line), loaded }))
    child.once("exit", (code) => reject(new Error(`herald start exited with ${code}: ${stderr.slice(-2000)}`)))
  })

const stop = (child: ChildProcess) =>
  new Promise<void>((resolveStop) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolveStop()
    child.once("exit", () => resolveStop())
    child.kill("SIGTERM")
  })

const loadedOnDemand = (loaded: ReadonlyArray<string>) =>
  onDemand.filter(({ pattern }) => loaded.some((url) => url.includes(pattern))).map(({ name }) => name)

describe("modules an idle server loads", () => {
  it("embedded: none of the on-demand modules until asked; GET /docs then loads the docs page's script", async () => {
    const server = await start("embedded", { HERALD_DATA_DIR: await testDataFolder("herald-idle-modules-embedded-") })
    try {
      assert.isAbove(server.loaded().length, 100, "the hook saw the server's modules")
      assert.deepStrictEqual(loadedOnDemand(server.loaded()), [])
      const docs = await fetch(`${server.ready.listening}/docs`)
      assert.strictEqual(docs.status, 200)
      assert.include(await docs.text(), "api-reference")
      assert.deepStrictEqual(loadedOnDemand(server.loaded()), [onDemand[0]!.name])
    } finally {
      await stop(server.child)
    }
  })

  it("PostgreSQL: not PGlite either", skipIf(Processes.missing), async () => {
    const database = Processes.make("idle_modules")
    await database.create()
    try {
      const server = await start("postgres", { DATABASE_URL: database.databaseUrl })
      try {
        const loaded = server.loaded()
        assert.deepStrictEqual(loadedOnDemand(loaded), [])
        assert.isFalse(loaded.some((url) => url.includes("/node_modules/@electric-sql/pglite/")), "PGlite is loaded")
      } finally {
        await stop(server.child)
      }
    } finally {
      await database.dispose()
    }
  })
})
