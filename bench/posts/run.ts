// bench/posts: on PostgreSQL, the cost of creating a post (3 targets) with 0 and with 100,000 scheduled posts
// (their cluster messages waiting in the cluster's table), beside pgbench replaying the statements one create
// runs, captured from the server's statement log; the due check's time at each size; then the list page
// (`GET /api/v1/posts?limit=20`) beside a bare node:http server answering the same body. Throughput on a
// shared machine is noisy: the stable figures are CPU per unit, read from /proc for Herald's process and for
// the PostgreSQL backends of this run's database only.
//
//   pnpm bench:posts          (BENCH_SECONDS per phase, default 8; BENCH_SCHEDULED, default 100000;
//                              BENCH_SEED_MESSAGES=false seeds the posts without their cluster messages)
//   pnpm bench:posts --all    also the older embedded-database creates and the 500 MB upload (embedded.ts)
//
// Before and after a change on a busy machine: bench/posts/compare.ts runs two trees' phases in turn.
import autocannon from "autocannon"
import { execFileSync, spawn } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { createInterface } from "node:readline"
import {
  createDatabase,
  databaseName,
  databaseUrl,
  dropDatabase,
  postgresAnswers,
  processCpu,
  psql,
  revision,
  runFolder,
  start,
  stop
} from "../harness.ts"
import { seedScheduled } from "./seed.ts"
import { captureCreate, pgbenchScript } from "./statements.ts"

const seconds = Number(process.env.BENCH_SECONDS ?? 8)
const scheduled = Number(process.env.BENCH_SCHEDULED ?? 100_000)
// The seeded posts get cluster messages as Herald's own creates before them left theirs (none for posts
// handed over only when nearly due, decision 0051); false leaves them out in any case.
const seedMessages = process.env.BENCH_SEED_MESSAGES !== "false"
const postgresLog = process.env.HERALD_BENCH_POSTGRES_LOG ?? "/var/log/postgresql/postgresql-15-main.log"

if (!postgresAnswers()) {
  console.log("posts: no PostgreSQL at HERALD_BENCH_DATABASE_URL (default 127.0.0.1:5432): skipped")
  process.exit(0)
}

const folder = runFolder("posts")
const database = databaseName()
createDatabase(database)
const url = databaseUrl(database)

const load = (options: autocannon.Options) =>
  new Promise<autocannon.Result>((done, reject) => autocannon(options, (error, result) => error ? reject(error) : done(result)))

/**
 * CPU seconds used by this database's client connections, by pid (the bench's own psql excluded; so is
 * autovacuum, which the seeding would otherwise set off in the middle of a phase).
 */
const backendCpu = () => {
  const used = new Map<number, number>()
  const pids = psql(url, `
    SELECT pid FROM pg_stat_activity
    WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()`)
  for (const pid of pids.split("\n").filter((line) => line !== "").map(Number)) used.set(pid, processCpu(pid))
  return used
}

/**
 * Runs `work` while sampling the CPU of this database's backends every 100 ms, so that connections that end
 * with the work (pgbench's) are counted up to their last sample. Resolves with the work's result and the
 * backends' CPU seconds.
 */
const withBackendCpu = async <A>(work: () => Promise<A>) => {
  const first = backendCpu()
  const last = new Map(first)
  const sample = () => {
    for (const [pid, used] of backendCpu()) if (!Number.isNaN(used)) last.set(pid, Math.max(used, last.get(pid) ?? 0))
  }
  const sampler = setInterval(sample, 100)
  const result = await work()
  clearInterval(sampler)
  sample()
  let total = 0
  for (const [pid, used] of last) total += used - (first.get(pid) ?? 0)
  return { result, postgres: total }
}

const startHerald = async (name: string) => {
  const herald = await start(folder, name, { DATABASE_URL: url })
  const { started } = herald
  const accountIds: Array<string> = started.firstRun?.accounts
    ?.filter((account: any) => ["x", "threads", "linkedin"].includes(account.platform))
    .map((account: any) => account.id) ?? []
  return { ...herald, base: started.listening as string, key: started.firstRun?.key.key as string, accountIds }
}

// The statements of one create, from PostgreSQL's statement log of this database while a first Herald
// process creates a few posts one at a time; then the log is switched off again and a fresh process measures.
psql(url, `ALTER DATABASE ${database} SET log_statement = 'all'`)
const recorder = await startHerald("recorder")
const { base: recorderBase, key } = recorder
const workspaceId: string = recorder.started.firstRun.workspace.id
const { accountIds } = recorder
const createBody = (at: number) =>
  JSON.stringify({ content: "Benchmark post", accountIds, scheduledAt: new Date(at).toISOString() })
const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" }
const captured = await captureCreate({
  log: postgresLog,
  database,
  create: async () => {
    const answer = await fetch(`${recorderBase}/api/v1/posts`, { method: "POST", headers, body: createBody(Date.now() + 86_400_000) })
    const text = await answer.text()
    if (answer.status !== 200) throw new Error(`create answered ${answer.status}: ${text}`)
    return JSON.parse(text).data.id as string
  },
  known: [workspaceId, ...accountIds]
})
await stop(recorder.child)
psql(url, `ALTER DATABASE ${database} RESET log_statement`)
const scriptFile = join(folder, "create.sql")
writeFileSync(scriptFile, pgbenchScript(captured))
if (process.env.BENCH_SCRIPT_COPY !== undefined) writeFileSync(process.env.BENCH_SCRIPT_COPY, pgbenchScript(captured))

const herald = await startHerald("measured")
const { base } = herald

/** Creates for `seconds` from 50 connections, each a day or more ahead (so none is published meanwhile). */
const creates = async () => {
  const before = processCpu(herald.child.pid)
  const { postgres, result } = await withBackendCpu(() =>
    load({
      url: `${base}/api/v1/posts`,
      method: "POST",
      headers,
      body: createBody(Date.now() + 2 * 86_400_000),
      connections: 50,
      duration: seconds
    })
  )
  const herald_ = processCpu(herald.child.pid) - before
  const count = result["2xx"]
  return { rate: count / seconds, heraldMicros: (herald_ * 1e6) / count, postgresMicros: (postgres * 1e6) / count, failed: result.non2xx + result.errors }
}

/** pgbench replaying one create's statements from 10 clients (Herald's pool size) for `seconds`. */
const pgbench = async () => {
  const { postgres, result } = await withBackendCpu(() =>
    new Promise<string>((done, reject) => {
      const child = spawn("pgbench", ["-n", "-M", "simple", "-f", scriptFile, "-c", "10", "-j", "2", "-T", String(seconds), url], {
        stdio: ["ignore", "pipe", "pipe"]
      })
      let output = ""
      child.stdout.on("data", (chunk) => output += chunk)
      child.stderr.on("data", (chunk) => output += chunk)
      child.once("exit", (code) => code === 0 ? done(output) : reject(new Error(`pgbench exited with ${code}:\n${output}`)))
    })
  )
  const transactions = Number(/number of transactions actually processed: (\d+)/.exec(result)?.[1])
  return { rate: transactions / seconds, postgresMicros: (postgres * 1e6) / transactions }
}

/** The cluster's due check as its storage sends it on PostgreSQL (every poll, all 300 shards), timed by EXPLAIN ANALYZE. */
const dueCheckMs = () => {
  const shards = Array.from({ length: 300 }, (_, index) => `'default:${index + 1}'`).join(",")
  const plan = psql(url, `
    EXPLAIN (ANALYZE, FORMAT JSON)
    SELECT m.* FROM cluster_messages m
    WHERE m.shard_id IN (${shards})
      AND NOT EXISTS (SELECT 1 FROM cluster_replies WHERE request_id = m.request_id AND (kind = 0 OR acked = false))
      AND m.processed = false
      AND (m.last_read IS NULL OR m.last_read < now() - interval '10 minutes')
      AND (m.deliver_at IS NULL OR m.deliver_at <= ${Date.now()})
    ORDER BY m.rowid ASC LIMIT 1024 FOR UPDATE`)
  return (JSON.parse(plan)[0]["Execution Time"] as number)
}

/**
 * Brings the workspace to `count` more scheduled posts (3 targets each), each with a cluster message
 * copied from the latest one Herald wrote for a create, if there is one.
 */
const seed = (count: number) => seedScheduled(url, workspaceId, count, seedMessages)

/** The list page, then the bare server answering the same body, for `seconds` each from 10 connections. */
const listPages = async () => {
  const listUrl = `${base}/api/v1/posts?limit=20&status=scheduled`
  const page = await fetch(listUrl, { headers })
  const body = Buffer.from(await page.arrayBuffer())
  if (page.status !== 200) throw new Error(`list answered ${page.status}: ${body}`)
  const bodyFile = join(folder, "page.json")
  writeFileSync(bodyFile, body)
  const measure = async (target: string, pid: number | undefined) => {
    await load({ url: target, headers, connections: 10, duration: 2 })
    const before = processCpu(pid)
    const { postgres, result } = await withBackendCpu(() => load({ url: target, headers, connections: 10, duration: seconds }))
    const pages = result["2xx"]
    return { rate: pages / seconds, micros: ((processCpu(pid) - before) * 1e6) / pages, postgresMicros: (postgres * 1e6) / pages }
  }
  const heraldRun = await measure(listUrl, herald.child.pid)
  const bare = spawn(process.execPath, [join(import.meta.dirname, "bare.ts"), bodyFile], { stdio: ["ignore", "pipe", "inherit"] })
  const port = JSON.parse(await new Promise<string>((done) => createInterface({ input: bare.stdout! }).once("line", done))).port
  const bareRun = await measure(`http://127.0.0.1:${port}/api/v1/posts`, bare.pid)
  bare.kill("SIGKILL")
  return { bytes: body.byteLength, herald: heraldRun, bare: bareRun }
}

const fixed = (value: number, digits = 0) => value.toFixed(digits)
const createRow = (label: string, run: Awaited<ReturnType<typeof creates>>, anchor: Awaited<ReturnType<typeof pgbench>>, dueMs: number) =>
  `${label.padEnd(22)} herald ${fixed(run.rate).padStart(5)} creates/s  CPU ${fixed(run.heraldMicros).padStart(5)} µs + PostgreSQL ${
    fixed(run.postgresMicros).padStart(5)
  } µs per create (${run.failed} failed)\n${"".padEnd(22)} pgbench ${fixed(anchor.rate).padStart(4)} tx/s  PostgreSQL ${
    fixed(anchor.postgresMicros).padStart(5)
  } µs per tx   ratio ${fixed(run.rate / anchor.rate, 2)} (target >= 0.6)   due check ${fixed(dueMs, 1)} ms`

console.log(`posts on PostgreSQL: creates with 3 targets from 50 connections, ${seconds} s per phase, node ${process.version}, ${revision()}`)
console.log(`one create's statements (${captured.statements.length}, replayed by pgbench from 10 clients): ${captured.summary}`)
// Warmed for 5 s: with less, the first phase still paid for the JIT and read as the dearer one.
await load({ url: `${base}/api/v1/posts`, method: "POST", headers, body: createBody(Date.now() + 2 * 86_400_000), connections: 50, duration: 5 })
const emptyCreates = await creates()
const emptyBench = await pgbench()
const emptyDue = dueCheckMs()
console.log(createRow("0 scheduled", emptyCreates, emptyBench, emptyDue))
const seedStarted = Date.now()
seed(scheduled)
const messages = Number(psql(url, "SELECT count(*) FROM cluster_messages WHERE processed = false").trim())
console.log(`${"".padEnd(22)} seeded ${scheduled} scheduled posts in ${fixed((Date.now() - seedStarted) / 1000, 1)} s; ${messages} unprocessed cluster messages`)
const fullCreates = await creates()
const fullBench = await pgbench()
const fullDue = dueCheckMs()
console.log(createRow(`${scheduled} scheduled`, fullCreates, fullBench, fullDue))
console.log(`${"".padEnd(22)} flat: creates/s ${fixed((fullCreates.rate / emptyCreates.rate) * 100)}% of empty, CPU per create ${
  fixed(((fullCreates.heraldMicros + fullCreates.postgresMicros) / (emptyCreates.heraldMicros + emptyCreates.postgresMicros)) * 100)
}% (target within 10%)`)
const list = await listPages()
console.log(`list page (${list.bytes} bytes, 20 posts, 10 connections)\n${"".padEnd(22)} herald ${fixed(list.herald.rate).padStart(5)} pages/s  CPU ${
  fixed(list.herald.micros)
} µs + PostgreSQL ${fixed(list.herald.postgresMicros)} µs per page\n${"".padEnd(22)} bare   ${fixed(list.bare.rate).padStart(5)} pages/s  CPU ${
  fixed(list.bare.micros)
} µs per page   ratio ${fixed(list.herald.rate / list.bare.rate, 3)}, CPU ${fixed(list.herald.micros / list.bare.micros, 1)}x`)
await stop(herald.child)
dropDatabase(database)
if (process.argv.includes("--all")) execFileSync(process.execPath, [join(import.meta.dirname, "embedded.ts")], { stdio: "inherit" })
process.exit(0)
