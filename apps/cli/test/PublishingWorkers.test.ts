import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { type ChildProcess, execFile, spawn, spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { createInterface } from "node:readline"

// Scale-out on one PostgreSQL: an API process and two workers (`HERALD_ROLE`) share the publishing work
// through the cluster. One worker is killed (SIGKILL) while posts are going out; the other takes its
// shards over, and every post goes out exactly once. Runs when HERALD_TEST_DATABASE_URL names a server.
const adminUrl = process.env["HERALD_TEST_DATABASE_URL"]
const bin = resolve(import.meta.dirname, "../src/bin.ts")
const database = `herald_workers_${randomBytes(6).toString("hex")}`
const folder = mkdtempSync(join(tmpdir(), "herald-workers-"))
const hasPsql = spawnSync("psql", ["--version"]).status === 0

const databaseUrl = () => {
  const url = new URL(adminUrl!)
  url.pathname = `/${database}`
  return url.toString()
}

const freePort = () =>
  new Promise<number>((resolvePort) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolvePort(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

const run = (file: string, args: ReadonlyArray<string>) =>
  new Promise<void>((resolveRun) => {
    execFile(file, args, { timeout: 60_000 }, () => resolveRun())
  })

/** What psql prints for one query (`-At`: bare values, one row a line). */
const psqlOut = (query: string) =>
  new Promise<string>((resolveQuery) => {
    execFile("psql", [databaseUrl(), "-At", "-c", query], { timeout: 30_000 }, (_error, stdout) => resolveQuery(stdout.trim()))
  })

/** Until both workers hold shard locks (advisory locks per process) and the split has settled. */
const shardsShared = async (runners: number) => {
  const until = Date.now() + 60_000
  let previous = ""
  let steady = 0
  while (Date.now() < until) {
    const held = await psqlOut(`SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted
      AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) GROUP BY pid ORDER BY pid`)
    const holders = held === "" ? 0 : held.split("\n").length
    steady = holders >= runners && held === previous ? steady + 1 : 0
    if (steady >= 4) return
    previous = held
    await new Promise((wait) => setTimeout(wait, 500))
  }
  throw new Error(`the shards were not shared by ${runners} workers within 60 s (locks per process: ${previous})`)
}

const processes: Array<ChildProcess> = []

/** Starts `herald start --json` with a role; resolves with its ready document. Its log goes to a file. */
const start = (name: string, env: Record<string, string>) =>
  new Promise<any>((resolveStart, reject) => {
    const child = spawn(process.execPath, [bin, "start", "--json"], {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl(),
        HERALD_SECRET_KEY: "22".repeat(32),
        HERALD_DATA_DIR: join(folder, name),
        HERALD_SANDBOX: "true",
        HERALD_RATE_LIMIT_PER_MINUTE: "100000",
        HOST: "127.0.0.1",
        ...env
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    processes.push(child)
    child.stderr!.pipe(createWriteStream(join(folder, `${name}.log`)))
    createInterface({ input: child.stdout! }).once("line", (line) => resolveStart(JSON.parse(line)))
    child.once("exit", (code, signal) => reject(new Error(`${name} exited (${code ?? signal}): ${readFileSync(join(folder, `${name}.log`), "utf8").slice(-2000)}`)))
  })

const stop = (child: ChildProcess) =>
  new Promise<void>((resolveStop) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolveStop()
    child.once("exit", () => resolveStop())
    child.kill("SIGTERM")
  })

describe.skipIf(adminUrl === undefined || adminUrl === "" || !hasPsql)("publishing with two workers on PostgreSQL", () => {
  beforeAll(async () => {
    await run("psql", [adminUrl!, "-c", `CREATE DATABASE ${database}`])
  }, 60_000)

  afterAll(async () => {
    await Promise.all(processes.map(stop))
    await run("psql", [adminUrl!, "-c", `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`])
    rmSync(folder, { recursive: true, force: true })
  }, 60_000)

  it("shares the posts between the workers, survives one being killed, and posts each exactly once", async () => {
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    const api = await start("api", { HERALD_ROLE: "api", PORT: String(port), BASE_URL: base })
    assert.strictEqual(api.role, "api")
    const key: string = api.firstRun.key.key
    const accountIds: Array<string> = api.firstRun.accounts
      .filter((account: any) => ["x", "linkedin", "facebook"].includes(account.platform))
      .map((account: any) => account.id)
    assert.strictEqual(accountIds.length, 3)
    // The workers call the sandbox networks where the API process serves them.
    const workers = await Promise.all(["one", "two"].map((name) =>
      start(`worker-${name}`, { HERALD_ROLE: "worker", PORT: "0", BASE_URL: base })
    ))
    assert.deepStrictEqual(workers.map((worker) => worker.role), ["worker", "worker"])
    assert.notStrictEqual(workers[0].runner, workers[1].runner)
    await shardsShared(2)

    // 40 posts of 3 targets, one every 100 ms from 2 s from now.
    const first = Date.now() + 2_000
    const ids: Array<string> = []
    for (let index = 0; index < 40; index++) {
      const answer = await fetch(`${base}/api/v1/posts`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({
          content: `Shared work ${index}`,
          accountIds,
          scheduledAt: new Date(first + index * 100).toISOString()
        })
      })
      assert.strictEqual(answer.status, 200, await answer.clone().text())
      ids.push(((await answer.json()) as any).data.id)
    }

    // Kill one worker while the posts are going out.
    await new Promise((wait) => setTimeout(wait, first + 1_500 - Date.now()))
    processes[1]!.kill("SIGKILL")

    const get = async (id: string): Promise<any> =>
      ((await (await fetch(`${base}/api/v1/posts/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as any).data
    const until = Date.now() + 90_000
    let posts: Array<any> = []
    while (Date.now() < until) {
      posts = await Promise.all(ids.map(get))
      if (posts.every((post) => post.status === "published" || post.status === "partial" || post.status === "failed")) break
      await new Promise((wait) => setTimeout(wait, 250))
    }
    const stuck = posts.filter((post) => post.status !== "published")
    assert.deepStrictEqual(stuck.map((post) => `${post.id}: ${post.status} ${JSON.stringify(post.targets)}`), [])

    // Each network holds each post exactly once, and it is the one linked.
    for (const platform of ["x", "linkedin", "facebook"]) {
      const made: Array<any> = ((await (await fetch(`${base}/sandbox/${platform}/_posts`)).json()) as any).data
      for (let index = 0; index < ids.length; index++) {
        const copies = made.filter((item) => item.text === `Shared work ${index}`)
        assert.strictEqual(copies.length, 1, `${platform}: "Shared work ${index}" ${copies.length} times`)
        const target = posts[index].targets.find((entry: any) => entry.platform === platform)
        assert.strictEqual(target.url, copies[0].url)
      }
    }
    // Both workers did some of the work before one was killed, each network call logged as one line.
    const logs = ["worker-one", "worker-two"].map((name) => readFileSync(join(folder, `${name}.log`), "utf8"))
    const attempt = /level=INFO .*message="publish attempt" post=pst_\w+ target=acc_\w+ network=(x|linkedin|facebook) step=publish outcome=Published durationMs=\d+/
    for (const log of logs) assert.match(log, attempt)
  }, 180_000)
})
