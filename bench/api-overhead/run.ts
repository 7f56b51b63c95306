// bench/api-overhead: authenticated GET /api/v1/accounts on Herald (embedded database, or PostgreSQL with
// --database postgres) against a bare node:http server answering the same JSON, both under the same
// autocannon load in one run. Throughput on a shared machine is noisy; the stable figure is CPU per request,
// read from each server's /proc/<pid>/stat before and after its load (and PostgreSQL's, on that backend).
// Herald's own background work (cluster polls, the webhook dispatcher) goes on whether requests come or not:
// it is measured over 2 s of quiet before the load and also shown subtracted, since on a busy machine the
// same milliseconds per second are spread over fewer requests. A third server, floor.ts, is Effect's HttpApi
// with one endpoint and nothing else: the framework's own cost, for reading where Herald's goes.
//
//   pnpm bench:api-overhead [--database embedded|postgres]   (BENCH_SECONDS, BENCH_CONNECTIONS to change the load;
//   HERALD_BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test, is where the database is made)
import autocannon from "autocannon"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
// The harness drops the database it made when this process exits.
import { createDatabase, databaseName, databaseUrl, processCpu, psql } from "../harness.ts"

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, "../..")
const seconds = Number(process.env.BENCH_SECONDS ?? 8)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const { values: flags } = parseArgs({ options: { database: { type: "string", default: "embedded" } } })
if (flags.database !== "embedded" && flags.database !== "postgres") throw new Error("--database: embedded or postgres")
const database = flags.database === "postgres" ? databaseName() : undefined
if (database !== undefined) createDatabase(database)

const firstLine = (child: ChildProcess) =>
  new Promise<string>((resolveLine, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.once("line", (line) => resolveLine(line))
    child.once("exit", (code) => reject(new Error(`child exited with ${code} before answering`)))
  })

const load = (url: string, headers: Record<string, string>) =>
  new Promise<autocannon.Result>((resolveRun, reject) => {
    autocannon({ url, connections, duration: seconds, headers }, (error, result) => {
      if (error) reject(error)
      else resolveRun(result)
    })
  })

const warm = (url: string, headers: Record<string, string>) =>
  new Promise<void>((resolveRun) => {
    autocannon({ url, connections, duration: 3, headers }, () => resolveRun())
  })

const dataDir = mkdtempSync(join(tmpdir(), "herald-bench-"))
const children: Array<ChildProcess> = []
const stop = () => {
  // At once: the harness drops the PostgreSQL database next, under a process still using it otherwise.
  for (const child of children) child.kill("SIGKILL")
  rmSync(dataDir, { recursive: true, force: true })
}
process.on("exit", stop)

// A limit no benchmark reaches: the figure measured is serving, not refusing.
const herald = spawn(process.execPath, [join(root, "apps/cli/src/bin.ts"), "start", "--json"], {
  // No sandbox networks: the Demo workspace then has no accounts and Herald answers the same `{"data":[]}`.
  env: { ...process.env, PORT: "0", HOST: "127.0.0.1", HERALD_DATA_DIR: dataDir, HERALD_RATE_LIMIT_PER_MINUTE: "1000000000", DATABASE_URL: database === undefined ? "" : databaseUrl(database), HERALD_SECRET_KEY: "22".repeat(32), HERALD_SANDBOX: "false" },
  stdio: ["ignore", "pipe", "inherit"]
})
children.push(herald)
const startedLine = await firstLine(herald)
const started = JSON.parse(startedLine)
if (started.firstRun?.key === undefined) throw new Error(`Herald did not start: ${startedLine}`)
const heraldUrl = `${started.listening}/api/v1/accounts`
const headers = { authorization: `Bearer ${started.firstRun.key.key}` }

const bare = spawn(process.execPath, [join(here, "bare.ts")], { stdio: ["ignore", "pipe", "inherit"] })
children.push(bare)
const bareUrl = `http://127.0.0.1:${JSON.parse(await firstLine(bare)).port}/api/v1/accounts`
const floor = spawn(process.execPath, [join(here, "floor.ts")], { stdio: ["ignore", "pipe", "inherit"] })
children.push(floor)
const floorUrl = `http://127.0.0.1:${JSON.parse(await firstLine(floor)).port}/api/v1/accounts`

const check = await fetch(heraldUrl, { headers })
if (check.status !== 200) throw new Error(`Herald answered ${check.status}: ${await check.text()}`)

interface Run {
  readonly result: autocannon.Result
  /** CPU seconds of the server under the load, and of PostgreSQL. */
  readonly cpu: number
  readonly postgres: number
  /** CPU seconds the server (and PostgreSQL) would have used over the load's time without a request. */
  readonly idle: number
  readonly postgresIdle: number
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

// PostgreSQL's CPU is read from the backends of this run's database only (Herald's pool, open from its start
// to its end): other work on the machine's PostgreSQL is not Herald's.
const backends = () =>
  database === undefined
    ? []
    : psql(databaseUrl(database), "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
      .trim().split("\n").filter((line) => line !== "").map(Number)
const postgresCpu = (pids: ReadonlyArray<number>) => pids.reduce((sum, pid) => sum + (processCpu(pid) || 0), 0)

/** The load's result, with the CPU seconds the server (and PostgreSQL) used while under it and while quiet. */
const measure = async (url: string, pid: number | undefined): Promise<Run> => {
  const pids = pid === herald.pid ? backends() : []
  const quietBefore = processCpu(pid)
  const postgresQuiet = postgresCpu(pids)
  await sleep(2000)
  const idlePerSecond = (processCpu(pid) - quietBefore) / 2
  const postgresIdlePerSecond = (postgresCpu(pids) - postgresQuiet) / 2
  const cpuBefore = processCpu(pid)
  const postgresBefore = postgresCpu(pids)
  const result = await load(url, headers)
  const cpu = processCpu(pid) - cpuBefore
  const postgres = postgresCpu(pids) - postgresBefore
  return {
    result,
    cpu,
    postgres,
    idle: idlePerSecond * result.duration,
    postgresIdle: postgresIdlePerSecond * result.duration
  }
}

await warm(heraldUrl, headers)
await warm(bareUrl, headers)
await warm(floorUrl, headers)
const heraldRun = await measure(heraldUrl, herald.pid)
const bareRun = await measure(bareUrl, bare.pid)
const floorRun = await measure(floorUrl, floor.pid)

const microsPerRequest = (seconds: number, result: autocannon.Result) => (seconds * 1e6) / result.requests.total
const perRequest = (run: Run) => microsPerRequest(run.cpu, run.result)
const busyPerRequest = (run: Run) => microsPerRequest(run.cpu - run.idle, run.result)
const row = (name: string, run: Run) =>
  `${name.padEnd(24)} ${run.result.requests.average.toFixed(0).padStart(8)} req/s   p99 ${
    String(run.result.latency.p99).padStart(4)
  } ms   CPU ${perRequest(run).toFixed(1).padStart(6)} µs/request (${
    busyPerRequest(run).toFixed(1)
  } less idle background)${
    database === undefined || run !== heraldRun ? "" : `   PostgreSQL ${microsPerRequest(run.postgres, run.result).toFixed(1)} µs/request (${
      microsPerRequest(run.postgres - run.postgresIdle, run.result).toFixed(1)
    } less idle)`
  }   errors ${run.result.errors + run.result.non2xx}`

console.log(`api-overhead: GET /api/v1/accounts, ${connections} connections, ${seconds} s each, node ${process.version}`)
console.log(row(`herald (${flags.database} db)`, heraldRun))
console.log(row("bare node:http", bareRun))
console.log(row("effect http-api floor", floorRun))
const ratio = heraldRun.result.requests.average / bareRun.result.requests.average
console.log(`req/s ratio herald/bare: ${ratio.toFixed(2)} (target >= 0.35)`)
console.log(
  `CPU ratio herald/bare:   ${(perRequest(heraldRun) / perRequest(bareRun)).toFixed(2)}x per request, ${
    (busyPerRequest(heraldRun) / busyPerRequest(bareRun)).toFixed(2)
  }x less idle background (target <= 3x); the framework floor alone ${
    (busyPerRequest(floorRun) / busyPerRequest(bareRun)).toFixed(2)
  }x`
)
stop()
process.exit(0)
