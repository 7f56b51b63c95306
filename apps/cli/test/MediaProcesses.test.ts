import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { type ChildProcess, execFile, spawn, spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { createInterface } from "node:readline"

// Two processes on one PostgreSQL, each with its own data folder: media uploaded through one are served,
// whole, by range and to HEAD, by the other, because their bytes live in the database and not on the disk
// of the process that took the upload. Runs when HERALD_TEST_DATABASE_URL names a server.
const adminUrl = process.env["HERALD_TEST_DATABASE_URL"]
const bin = resolve(import.meta.dirname, "../src/bin.ts")
const database = `herald_media_${randomBytes(6).toString("hex")}`
const folder = mkdtempSync(join(tmpdir(), "herald-media-processes-"))
const hasPsql = spawnSync("psql", ["--version"]).status === 0
const video = readFileSync(resolve(import.meta.dirname, "../../server/test/fixtures/video.mp4"))

const databaseUrl = () => {
  const url = new URL(adminUrl!)
  url.pathname = `/${database}`
  return url.toString()
}

const psql = (args: ReadonlyArray<string>) =>
  new Promise<void>((resolveRun) => {
    execFile("psql", args, { timeout: 60_000 }, () => resolveRun())
  })

const processes: Array<ChildProcess> = []

/** Starts `herald start --json` (API role, its own data folder and port); resolves with its ready document. */
const start = (name: string) =>
  new Promise<any>((resolveStart, reject) => {
    const child = spawn(process.execPath, [bin, "start", "--json"], {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl(),
        HERALD_SECRET_KEY: "33".repeat(32),
        HERALD_DATA_DIR: join(folder, name),
        HERALD_ROLE: "api",
        BASE_URL: "",
        PORT: "0",
        HOST: "127.0.0.1"
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    processes.push(child)
    child.stderr!.pipe(createWriteStream(join(folder, `${name}.log`)))
    createInterface({ input: child.stdout! }).once("line", (line) => resolveStart(JSON.parse(line)))
    child.once("exit", (code, signal) =>
      reject(new Error(`${name} exited (${code ?? signal}): ${readFileSync(join(folder, `${name}.log`), "utf8").slice(-2000)}`)))
  })

const stop = (child: ChildProcess) =>
  new Promise<void>((resolveStop) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolveStop()
    child.once("exit", () => resolveStop())
    child.kill("SIGTERM")
  })

describe.skipIf(adminUrl === undefined || adminUrl === "" || !hasPsql)("media across processes on PostgreSQL", () => {
  beforeAll(() => psql([adminUrl!, "-c", `CREATE DATABASE ${database}`]), 60_000)

  afterAll(async () => {
    await Promise.all(processes.map(stop))
    await psql([adminUrl!, "-c", `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`])
    rmSync(folder, { recursive: true, force: true })
  }, 60_000)

  it("serves an upload taken by one process from the other, whole, by range and to HEAD", async () => {
    const one = await start("one")
    const other = await start("other")
    const key: string = one.firstRun.key.key
    // A video over three 1 MiB chunks: the fixture, then bytes that are not all alike.
    const body = new Uint8Array(video.length + 2_500_000)
    body.set(video)
    for (let index = video.length; index < body.length; index++) body[index] = (index * 7919) & 0xff
    const uploaded = await fetch(`${one.listening}/api/v1/media?durationMs=2000&width=320&height=240`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "video/mp4" },
      body
    })
    assert.strictEqual(uploaded.status, 200, await uploaded.clone().text())
    const media = ((await uploaded.json()) as any).data
    assert.strictEqual(media.bytes, body.length)
    const path = new URL(media.url).pathname

    const whole = await fetch(`${other.listening}${path}`)
    assert.strictEqual(whole.status, 200)
    assert.strictEqual(whole.headers.get("content-type"), "video/mp4")
    assert.strictEqual(whole.headers.get("accept-ranges"), "bytes")
    assert.strictEqual(whole.headers.get("etag"), `"${path.slice("/media/".length)}"`)
    assert.deepStrictEqual(new Uint8Array(await whole.arrayBuffer()), body)

    const [first, last] = [1_000_000, 2_200_000]
    const part = await fetch(`${other.listening}${path}`, { headers: { range: `bytes=${first}-${last}` } })
    assert.strictEqual(part.status, 206)
    assert.strictEqual(part.headers.get("content-range"), `bytes ${first}-${last}/${body.length}`)
    assert.deepStrictEqual(new Uint8Array(await part.arrayBuffer()), body.subarray(first, last + 1))

    const outside = await fetch(`${other.listening}${path}`, { headers: { range: `bytes=${body.length}-` } })
    assert.strictEqual(outside.status, 416)
    const head = await fetch(`${other.listening}${path}`, { method: "HEAD" })
    assert.strictEqual(head.status, 200)
    assert.strictEqual(head.headers.get("content-length"), String(body.length))
  }, 120_000)
})
