// bench/api-overhead: authenticated GET /api/v1/accounts on Herald (embedded database, or PostgreSQL with
// --database postgres) against a bare node:http server answering the same JSON, both under the same
// autocannon load in one run.
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
import { createDatabase, databaseName, databaseUrl } from "../harness.ts"

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, "../..")
const seconds = Number(process.env.BENCH_SECONDS ?? 15)
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

const check = await fetch(heraldUrl, { headers })
if (check.status !== 200) throw new Error(`Herald answered ${check.status}: ${await check.text()}`)

await warm(heraldUrl, headers)
await warm(bareUrl, headers)
const heraldResult = await load(heraldUrl, headers)
const bareResult = await load(bareUrl, headers)

const row = (name: string, result: autocannon.Result) =>
  `${name.padEnd(24)} ${result.requests.average.toFixed(0).padStart(8)} req/s   p99 ${
    String(result.latency.p99).padStart(4)
  } ms   errors ${result.errors + result.non2xx}`

console.log(`api-overhead: GET /api/v1/accounts, ${connections} connections, ${seconds} s each, node ${process.version}`)
console.log(row(`herald (${flags.database} db)`, heraldResult))
console.log(row("bare node:http", bareResult))
const ratio = heraldResult.requests.average / bareResult.requests.average
console.log(`ratio herald/bare: ${(ratio * 100).toFixed(1)}% of the bare server's requests per second (target >= 50%)`)
stop()
process.exit(0)
