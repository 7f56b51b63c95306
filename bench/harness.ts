// bench/harness: the helpers bench/publishing and bench/webhooks share. The databases they make in PostgreSQL,
// the Herald processes they start, CPU and database readings, and the clean-up of whatever a run leaves
// behind, even when the bench is stopped with ^C.
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { type AddressInfo, createServer } from "node:net"
import { createInterface } from "node:readline"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Database } from "../packages/db/src/index.ts"

export type Backend = "embedded" | "postgres"

const root = resolve(import.meta.dirname, "..")
export const admin = process.env.HERALD_BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"
const secretKey = "22".repeat(32)
/** What a run has under way: killed, dropped and removed when the bench exits, however it does. */
export const children = new Set<ChildProcess>()
const databases = new Set<string>()
export const folders = new Set<string>()

export const psql = (url: string, query: string) =>
  execFileSync("psql", [url, "-XAtq", "-v", "ON_ERROR_STOP=1", "-c", query], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
/** Runs a script: each statement is its own transaction (unlike `-c`, which runs them all in one). */
export const psqlScript = (url: string, script: string) =>
  execFileSync("psql", [url, "-XAtq", "-v", "ON_ERROR_STOP=1"], { encoding: "utf8", input: script, stdio: ["pipe", "pipe", "pipe"] })
export const databaseUrl = (name: string) => {
  const url = new URL(admin)
  url.pathname = `/${name}`
  return url.toString()
}
/** A name for a run's own database, unlike any other run's. */
export const databaseName = () => `herald_bench_${Math.random().toString(36).slice(2, 10)}`
/** Makes a database, and has it dropped when the bench exits should the run not drop it itself. */
export const createDatabase = (name: string) => {
  psql(admin, `CREATE DATABASE ${name}`)
  databases.add(name)
}
export const dropDatabase = (name: string) => {
  try {
    psql(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  } catch (error) {
    console.error(`could not drop ${name}: ${String(error)}`)
  }
  databases.delete(name)
}
/** A fresh folder for a run's logs and data, removed when the bench exits should the run not remove it itself. */
export const runFolder = (bench: string) => {
  const folder = mkdtempSync(join(tmpdir(), `herald-bench-${bench}-`))
  folders.add(folder)
  return folder
}
const cleanUp = () => {
  for (const child of children) child.kill("SIGKILL")
  for (const name of [...databases]) dropDatabase(name)
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
}
process.on("exit", cleanUp)
process.on("SIGINT", () => process.exit(130))
process.on("SIGTERM", () => process.exit(143))

export const postgresAnswers = () => {
  try {
    psql(admin, "SELECT 1")
    return true
  } catch {
    return false
  }
}

export interface Process {
  readonly child: ChildProcess
  readonly log: string
  readonly started: any
}

/** Starts `herald start --json` with its log in a file, and resolves with its ready document. */
export const start = async (folder: string, name: string, env: Record<string, string>): Promise<Process> => {
  const log = join(folder, `${name}.log`)
  const fd = openSync(log, "w")
  const child = spawn(process.execPath, [join(root, "apps/cli/src/bin.ts"), "start", "--json"], {
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      HERALD_SANDBOX: "true",
      HERALD_RATE_LIMIT_PER_MINUTE: "1000000000",
      HERALD_SECRET_KEY: secretKey,
      HERALD_DATA_DIR: join(folder, `${name}-data`),
      DATABASE_URL: "",
      BASE_URL: "",
      HERALD_ROLE: "all",
      ...env
    },
    stdio: ["ignore", "pipe", fd]
  })
  closeSync(fd)
  children.add(child)
  child.once("exit", () => children.delete(child))
  const line = await new Promise<string>((resolveLine, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolveLine)
    child.once("exit", (code) => reject(new Error(`herald (${name}) exited with ${code}:\n${tail(log, 20)}`)))
  })
  const started = JSON.parse(line)
  if (started.listening === undefined) throw new Error(`herald (${name}) did not start: ${line}`)
  return { child, log, started }
}

export const stop = (child: ChildProcess) =>
  new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done()
    const killer = setTimeout(() => child.kill("SIGKILL"), 20_000)
    child.once("exit", () => {
      clearTimeout(killer)
      done()
    })
    child.kill("SIGTERM")
  })

/** Waits until `runners` processes hold shard locks (advisory locks in the database) and the split settles. */
export const waitForShards = async (url: string, runners: number) => {
  const until = Date.now() + 60_000
  let previous = ""
  let steady = 0
  while (Date.now() < until) {
    const held = psql(url, `
      SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
      GROUP BY pid ORDER BY pid`).trim()
    const holders = held === "" ? 0 : held.split("\n").length
    steady = holders >= runners && held === previous ? steady + 1 : 0
    if (steady >= 4) return
    previous = held
    await sleep(500)
  }
  throw new Error(`the shards were not shared by ${runners} processes within 60 s (locks per process: ${previous.replace(/\n/g, ", ")})`)
}

export const tail = (file: string, lines: number) => readFileSync(file, "utf8").split("\n").slice(-lines - 1).join("\n")
export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

/**
 * A small generator of numbers in [0, 1) with a seed (xorshift), so a run that finds something can be
 * repeated with the same moments and choices.
 */
export const seeded = (seed: string) => {
  let state = Number(seed) >>> 0 || 1
  return () => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return (state >>> 0) / 2 ** 32
  }
}

/** `--backend`, checked: embedded, or postgres when PostgreSQL answers at HERALD_BENCH_DATABASE_URL. */
export const backendOf = (flag: string | undefined): Backend => {
  if (flag !== "embedded" && flag !== "postgres") throw new Error(`--backend: embedded or postgres`)
  if (flag === "postgres" && !postgresAnswers()) throw new Error("PostgreSQL does not answer at HERALD_BENCH_DATABASE_URL")
  return flag
}

/** A port nothing listens on now. */
export const freePort = () =>
  new Promise<number>((done, fail) => {
    const server = createServer()
    server.once("error", fail)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      server.close(() => done(port))
    })
  })

/**
 * Sends `count` creates of posts to the API, 32 at a time, the `i`th with `body(i)`; hands each created post's
 * answer to `created`, and resolves with how many were refused and the answer of one of them.
 */
export const sendCreates = async (
  base: string,
  key: string,
  count: number,
  body: (i: number) => unknown,
  created?: (text: string) => void
) => {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" }
  let next = 0
  let refused = 0
  let sample = ""
  const client = async () => {
    while (next < count) {
      const i = next++
      const answer = await fetch(`${base}/api/v1/posts`, { method: "POST", headers, body: JSON.stringify(body(i)) })
      const text = await answer.text()
      if (answer.status !== 201 && answer.status !== 200) {
        refused++
        sample = `HTTP ${answer.status}: ${text.slice(0, 300)}`
      } else {
        created?.(text)
      }
    }
  }
  await Promise.all(Array.from({ length: 32 }, client))
  return { refused, sample }
}

/** Runs `query` on a run's database (PostgreSQL at `where`, or the embedded one in the data folder `where`) with the repo's own layer. */
export const readDatabase = <A, E>(backend: Backend, where: string, query: (sql: SqlClient.SqlClient) => Effect.Effect<A, E>) =>
  Effect.runPromise(
    Effect.gen(function*() {
      return yield* query(yield* SqlClient.SqlClient)
    }).pipe(
      Effect.provide(backend === "postgres" ? Database.layerUrl(where) : Database.layerEmbedded({ dataDir: where })),
      Effect.scoped
    )
  )

/** CPU seconds a process has used, and those the whole machine has (Linux's /proc; NaN elsewhere). */
export const processCpu = (pid: number | undefined) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return Number.NaN
  }
}
export const machineCpu = () => {
  try {
    const [, ...ticks] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).map(Number)
    return (ticks.reduce((sum, tick) => sum + tick, 0) - ticks[3]! - ticks[4]!) / 100
  } catch {
    return Number.NaN
  }
}

/** CPU seconds of each PostgreSQL server process on this machine (its connections included), by pid. */
export const postgresCpu = () => {
  const used = new Map<string, number>()
  try {
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue
      try {
        if (readFileSync(`/proc/${pid}/stat`, "utf8").includes(" (postgres) ")) used.set(pid, processCpu(Number(pid)))
      } catch {
        // Gone in between.
      }
    }
  } catch {
    // No /proc.
  }
  return used
}
/** What the PostgreSQL processes used between two readings (those that ended in between are not seen). */
export const postgresSince = (before: Map<string, number>) => {
  let total = 0
  for (const [pid, used] of postgresCpu()) total += used - (before.get(pid) ?? 0)
  return total
}

/**
 * Cores busy on the machine over a second, before a run starts anything; up to 10 tries while more than
 * 20% of a core is (the previous run's processes may still be exiting).
 */
export const busyBefore = async () => {
  let busy = Number.NaN
  for (let tries = 0; tries < 10 && !(busy <= 0.2); tries++) {
    const before = machineCpu()
    await sleep(1000)
    busy = machineCpu() - before
  }
  return busy
}

export const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!

/** Warnings and errors, one line per message with how often it came and its first occurrence. */
export const byMessage = (lines: ReadonlyArray<string>) => {
  const found = new Map<string, { count: number; first: string }>()
  for (const line of lines) {
    const message = /message="([^"]*)"/.exec(line)?.[1] ?? line
    const seen = found.get(message)
    if (seen === undefined) found.set(message, { count: 1, first: line })
    else seen.count++
  }
  return found
}

export interface Activity {
  readonly commits: number
  readonly inserted: number
  readonly updated: number
  readonly deleted: number
  readonly deadlocks: number
}

/** Transactions committed in the database, rows written to it and deadlocks so far (PostgreSQL's statistics). */
export const databaseActivity = (url: string): Activity => {
  const [commits, inserted, updated, deleted, deadlocks] = psql(url, `
    SELECT xact_commit, tup_inserted, tup_updated, tup_deleted, deadlocks FROM pg_stat_database WHERE datname = current_database()`)
    .trim().split("|").map(Number)
  return { commits: commits!, inserted: inserted!, updated: updated!, deleted: deleted!, deadlocks: deadlocks! }
}

/** What the database did between two readings of `databaseActivity`. */
export const activityBetween = (before: Activity, after: Activity): Activity => ({
  commits: after.commits - before.commits,
  inserted: after.inserted - before.inserted,
  updated: after.updated - before.updated,
  deleted: after.deleted - before.deleted,
  deadlocks: after.deadlocks - before.deadlocks
})

/** The commit Herald runs from, and whether its code has changes not committed (other work in the same tree). */
export const revision = () => {
  try {
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim()
    const changed = execFileSync("git", ["status", "--porcelain", "--", "packages", "apps", "adapters"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"]
    }).trim()
    return `${head}${changed === "" ? "" : " + uncommitted changes"}`
  } catch {
    return "unknown"
  }
}
