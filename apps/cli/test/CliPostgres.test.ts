import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { createInterface } from "node:readline"
import { patience } from "../../../vitest.shared.ts"
import { postgresMissing } from "../../../testing/postgresMissing.ts"
import { skipIf } from "../../../testing/skipIf.ts"

// With PostgreSQL, the command line and the server are separate processes on one database: a key revoked by
// the command is refused by the running server on the next request (the revocation reaches it through
// LISTEN/NOTIFY, not through a shared cache). Runs when HERALD_TEST_DATABASE_URL names a server.
const adminUrl = process.env["HERALD_TEST_DATABASE_URL"]
const bin = resolve(import.meta.dirname, "../src/bin.ts")
const database = `herald_cli_${randomBytes(6).toString("hex")}`
const dataDir = mkdtempSync(join(tmpdir(), "herald-cli-pg-"))

const databaseUrl = () => {
  const url = new URL(adminUrl!)
  url.pathname = `/${database}`
  return url.toString()
}

const env = () => ({
  ...process.env,
  BASE_URL: "",
  DATABASE_URL: databaseUrl(),
  HERALD_SECRET_KEY: "11".repeat(32),
  HERALD_DATA_DIR: dataDir,
  PORT: "0",
  HOST: "127.0.0.1"
})

const run = (file: string, args: ReadonlyArray<string>, extraEnv: Record<string, string | undefined> = {}) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolveRun) => {
    execFile(file, args, { env: { ...process.env, ...extraEnv }, timeout: patience }, (error, stdout, stderr) =>
      resolveRun({ code: error === null ? 0 : 1, stdout, stderr }))
  })

const herald = async (...args: ReadonlyArray<string>) => {
  const result = await run(process.execPath, [bin, ...args], env())
  return { ...result, json: JSON.parse(result.stdout) }
}

let server: ChildProcess | undefined

// The database for this file is made and dropped with psql, PostgreSQL's own client: without it, or
// without a server, the file is skipped.
describe("herald on PostgreSQL", skipIf(postgresMissing), () => {
  beforeAll(async () => {
    await run("psql", [adminUrl!, "-c", `CREATE DATABASE ${database}`])
  })

  afterAll(async () => {
    if (server !== undefined && server.exitCode === null) {
      await new Promise<void>((resolveStop) => {
        server!.once("exit", () => resolveStop())
        server!.kill("SIGTERM")
      })
    }
    await run("psql", [adminUrl!, "-c", `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`])
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("revokes a key from another process; the running server refuses it on the next request", async () => {
    const migrated = await herald("migrate", "--json")
    assert.strictEqual(migrated.code, 0, migrated.stderr)
    assert.include(migrated.json.applied, "0001_foundation")

    const started = await new Promise<any>((resolveStart, reject) => {
      server = spawn(process.execPath, [bin, "start", "--json"], { env: env(), stdio: ["ignore", "pipe", "pipe"] })
      createInterface({ input: server.stdout! }).once("line", (line) => resolveStart(JSON.parse(line)))
      server.once("exit", (code) => reject(new Error(`server exited with ${code}`)))
    })
    assert.strictEqual(started.database, "postgres")
    const key = started.firstRun.key
    const accounts = () =>
      fetch(`${started.listening}/api/v1/accounts`, { headers: { authorization: `Bearer ${key.key}` } })
    assert.strictEqual((await accounts()).status, 200)

    const listed = await herald("key", "list", "--workspace", started.firstRun.workspace.id, "--json")
    assert.strictEqual(listed.code, 0, listed.stderr)
    assert.isString(listed.json[0].lastUsedAt)

    const revoked = await herald("key", "revoke", key.id, "--json")
    assert.strictEqual(revoked.code, 0, revoked.stderr)
    const refused = await accounts()
    assert.strictEqual(refused.status, 401)
  })

  it("refuses to start on PostgreSQL without HERALD_SECRET_KEY", async () => {
    const result = await run(process.execPath, [bin, "start", "--json"], { ...env(), HERALD_SECRET_KEY: "" })
    assert.strictEqual(result.code, 1)
    assert.include(JSON.parse(result.stdout).error.message, "HERALD_SECRET_KEY")
  })
})

