// bench/publishing: the publishing engine under load, on the embedded database and on PostgreSQL.
//   burst    N posts with 3 sandbox targets each (x, linkedin, facebook), all due at the same second:
//            lag from the post's time to each target's end, and targets per second.
//   steady   1,000 posts due one every 60 ms over a minute: lag per target (target p99 < 1 s).
//   workers  the burst at the largest --n on PostgreSQL with one process, then with a second HERALD_ROLE=worker one.
// Every run gets a fresh data folder and, on PostgreSQL, a fresh database (dropped afterwards). Prints its
// figures; the numbers come from `post_targets.ended_at` against `posts.scheduled_at`.
//
//   pnpm bench:publishing [--n 1000,10000] [--backends embedded,postgres] [--only burst|steady|workers]
//   [--networks in-process|apart|both]  (cost: where the sandbox simulators run; see cost.ts)
//   (HERALD_BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test, is where databases are made)
import { readFileSync, rmSync } from "node:fs"
import { cpus } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import {
  activityBetween,
  admin,
  type Backend,
  busyBefore,
  byMessage,
  createDatabase,
  databaseActivity,
  databaseName,
  databaseUrl,
  dropDatabase,
  folders,
  machineCpu,
  percentile,
  postgresAnswers,
  postgresCpu,
  postgresSince,
  type Process,
  processCpu,
  readDatabase,
  runFolder,
  sendCreates,
  sleep,
  start,
  stop,
  tail,
  waitForShards
} from "../harness.ts"

import { cost, report as reportCost } from "./cost.ts"

type Scenario = "cost" | "burst" | "steady" | "workers"

const { values: flags } = parseArgs({
  options: {
    n: { type: "string", default: "1000,10000" },
    backends: { type: "string", default: "embedded,postgres" },
    // cost (the default), burst, steady, workers, or several joined by commas, or all.
    only: { type: "string", default: "cost" },
    // The cost scenario: posts measured, and posts whose statements pgbench replays.
    posts: { type: "string", default: "1000" },
    capture: { type: "string", default: "500" },
    // The cost scenario: the sandbox simulators in the measured process, apart in another, or both in turn.
    networks: { type: "string", default: "in-process" },
    // How long to wait for a run's posts to end before reporting what did.
    timeout: { type: "string", default: "600" }
  }
})
const sizes = flags.n.split(",").map((size) => Number(size.trim()))
const backends = flags.backends.split(",").map((name) => name.trim()) as Array<Backend>
const scenarios = (flags.only === "all" ? ["cost", "burst", "steady", "workers"] : flags.only.split(",").map((name) => name.trim())) as Array<Scenario>
const timeoutMs = Number(flags.timeout) * 1000
if (sizes.some((size) => !Number.isInteger(size) || size < 1)) throw new Error(`--n: whole numbers, got ${flags.n}`)
if (backends.some((name) => name !== "embedded" && name !== "postgres")) throw new Error(`--backends: embedded,postgres`)
if (scenarios.some((name) => !["cost", "burst", "steady", "workers"].includes(name))) throw new Error(`--only: cost, burst, steady, workers or all`)

/** Sends `count` creates, 32 at a time (drafts when `at` is undefined); resolves with how many were refused. */
const createPosts = (
  base: string,
  key: string,
  accountIds: ReadonlyArray<string>,
  count: number,
  at: ((i: number) => Date) | undefined
) => {
  const tag = Math.random().toString(36).slice(2, 8)
  return sendCreates(base, key, count, (i) => ({
    content: `bench ${tag} ${i}`,
    accountIds,
    ...(at === undefined ? { draft: true } : { scheduledAt: at(i).toISOString() })
  }))
}

/** Polls until no post is scheduled or publishing, or `until` passes; resolves with whether they all ended. */
const waitUntilEnded = async (base: string, key: string, until: number) => {
  const headers = { authorization: `Bearer ${key}` }
  while (Date.now() < until) {
    const answer = await fetch(`${base}/api/v1/posts?status=scheduled,publishing&limit=1`, { headers })
    const page = await answer.json() as { data?: Array<unknown> }
    if (answer.status === 200 && page.data?.length === 0) return true
    await sleep(250)
  }
  return false
}

interface TargetRow {
  readonly status: string
  readonly at: number
  readonly ended: number | null
  readonly attempts: number
  readonly error: string | null
}

/** Every target with its post's time and its end, in epoch milliseconds, read with the repo's own layer. */
const readTargets = (backend: Backend, where: string) =>
  readDatabase(backend, where, (sql) =>
    sql.unsafe<TargetRow>(`
      SELECT t.status, (extract(epoch FROM p.scheduled_at) * 1000)::float8 AS at,
        (extract(epoch FROM t.ended_at) * 1000)::float8 AS ended, t.attempts, t.error
      FROM post_targets t JOIN posts p ON p.id = t.post_id WHERE p.status <> 'draft'`))

/**
 * Reads a process's log: its network calls (count, each target's last answer and time in calls), and its warnings or errors, those from
 * `stoppingAt` on (what a process says as it is stopped) apart from the others.
 */
const readLog = (file: string, stoppingAt: number) => {
  const lines = readFileSync(file, "utf8").split("\n")
  const outcomes = new Map<string, number>()
  const problems: Array<string> = []
  const atShutdown: Array<string> = []
  const durations: Array<number> = []
  let attempts = 0
  for (const line of lines) {
    // One line per target sent: the network calls it took, the last one's step and answer, the time in them.
    if (line.includes(`message="target sent"`)) {
      const calls = Number(/calls=(\d+)/.exec(line)?.[1] ?? 0)
      attempts += calls
      durations.push(Number(/durationMs=(\d+)/.exec(line)?.[1] ?? Number.NaN))
      const outcome = /last=\w+:(\S+)/.exec(line)?.[1] ?? "none"
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1)
      if (calls > 1) outcomes.set("more than one call", (outcomes.get("more than one call") ?? 0) + 1)
    } else if (/level=(WARN|ERROR|FATAL)/i.test(line)) {
      const at = Date.parse(/timestamp=(\S+)/.exec(line)?.[1] ?? "")
      if (at >= stoppingAt) atShutdown.push(line)
      else problems.push(line)
    }
  }
  return { attempts, durations, outcomes, problems, atShutdown }
}

interface RunOptions {
  readonly backend: Backend
  readonly posts: number
  /** Milliseconds after the first post's time at which post `i` is due. */
  readonly offset: (i: number) => number
  readonly workers: number
}

interface Result {
  readonly targets: number
  readonly ended: number
  readonly failed: number
  readonly retried: number
  readonly first: number
  readonly p50: number
  readonly p99: number
  readonly max: number
  readonly span: number
  readonly perSecond: number
  readonly createsPerSecond: number
  readonly lateCreates: number
  readonly attemptsPerProcess: ReadonlyArray<number>
  /** The network calls as each process logged them ("target sent"), with each target's time in them, in ms. */
  readonly calls: { readonly count: number; readonly p50: number; readonly p99: number }
  /** Cores busy while the posts went out: each Herald process, the PostgreSQL server, the whole machine. */
  readonly cpu: ReadonlyArray<number>
  /** On PostgreSQL, what the database did while the posts went out (from the first post's time to the end). */
  readonly activity?: { readonly commits: number; readonly inserted: number; readonly updated: number; readonly deleted: number }
  readonly notes: ReadonlyArray<string>
}

const run = async (options: RunOptions): Promise<Result> => {
  const folder = runFolder("publishing")
  const database = options.backend === "postgres" ? databaseName() : undefined
  const processes: Array<Process> = []
  const notes: Array<string> = []
  let keep = false
  try {
    const busy = await busyBefore()
    if (database !== undefined) createDatabase(database)
    const env = database === undefined ? {} : { DATABASE_URL: databaseUrl(database) }
    const first = await start(folder, "all", env)
    processes.push(first)
    const base = first.started.listening as string
    for (let w = 1; w < options.workers; w++) {
      processes.push(await start(folder, `worker${w}`, { ...env, HERALD_ROLE: "worker", BASE_URL: base }))
    }
    if (database !== undefined) await waitForShards(databaseUrl(database), options.workers)
    const key = first.started.firstRun.key.key as string
    const accounts = first.started.firstRun.accounts as Array<{ id: string; platform: string }>
    const accountIds = ["x", "linkedin", "facebook"].map((platform) => {
      const found = accounts.find((account) => account.platform === platform)
      if (found === undefined) throw new Error(`no ${platform} sandbox account in the Demo workspace`)
      return found.id
    })

    // The first post is due on a whole second far enough ahead that every create has answered by then:
    // half as long again as the creates take at the rate of a first round of drafts (which the engine
    // never sees; they are left out of the figures), and that round warms the server up.
    const probe = Math.min(options.posts, 300)
    const probeBegan = Date.now()
    await createPosts(base, key, accountIds, probe, undefined)
    const probeRate = probe / Math.max(1, Date.now() - probeBegan)
    const lead = 2_000 + 1.5 * options.posts / probeRate
    const firstAt = Math.ceil((Date.now() + lead) / 1000) * 1000
    const began = Date.now()
    const created = await createPosts(base, key, accountIds, options.posts, (i) => new Date(firstAt + options.offset(i)))
    const createdAt = Date.now()
    if (created.refused > 0) notes.push(`${created.refused} creates refused, e.g. ${created.sample}`)
    const lateCreates = Math.max(0, createdAt - firstAt)
    if (lateCreates > 0) notes.push(`the creates ended ${lateCreates} ms after the first post was due: the lag is understated`)

    const lastAt = firstAt + options.offset(options.posts - 1)
    await sleep(Math.max(0, firstAt - Date.now()))
    const cpuBefore = [...processes.map(({ child }) => processCpu(child.pid)), machineCpu()]
    const postgresBefore = postgresCpu()
    const activityBefore = database === undefined ? undefined : databaseActivity(databaseUrl(database))
    await sleep(Math.max(0, lastAt - Date.now()))
    const ended = await waitUntilEnded(base, key, lastAt + timeoutMs)
    const window = (Date.now() - Math.max(firstAt, createdAt)) / 1000
    const cpuAfter = [...processes.map(({ child }) => processCpu(child.pid)), machineCpu()]
    const used = cpuAfter.map((after, i) => (after - cpuBefore[i]!) / window)
    const cpu = [...used.slice(0, -1), postgresSince(postgresBefore) / window, used.at(-1)!]
    if (!ended) notes.push(`not every post had ended ${timeoutMs / 1000} s after the last was due`)
    const stoppingAt = Date.now()
    for (const { child } of processes.toReversed()) await stop(child)
    // The statistics of a connection reach pg_stat_database when it closes, so they are read once the processes stopped.
    const activityAfter = database === undefined ? undefined : databaseActivity(databaseUrl(database))
    const activity = activityBefore === undefined || activityAfter === undefined ? undefined : activityBetween(activityBefore, activityAfter)

    const rows = await readTargets(
      options.backend,
      database === undefined ? join(folder, "all-data") : databaseUrl(database)
    )
    const lags = rows.filter((row) => row.ended !== null).map((row) => row.ended! - row.at).sort((a, b) => a - b)
    const lastEnd = rows.reduce((last, row) => Math.max(last, row.ended ?? 0), 0)
    const failed = rows.filter((row) => row.status === "failed")
    if (failed.length > 0) notes.push(`${failed.length} targets failed, e.g. ${failed[0]!.error}`)
    const pending = rows.length - lags.length
    if (pending > 0) notes.push(`${pending} targets never ended`)
    const logs = processes.map((entry) => readLog(entry.log, stoppingAt))
    for (const [message, { count, first }] of byMessage(logs.flatMap((log) => log.problems))) {
      notes.push(`${count} × log "${message}", first: ${first.length > 400 ? `${first.slice(0, 400)}…` : first}`)
    }
    const outcomes = new Map<string, number>()
    for (const log of logs) for (const [outcome, count] of log.outcomes) outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + count)
    const unexpected = [...outcomes].filter(([outcome]) => outcome !== "Published")
    if (unexpected.length > 0) notes.push(`network calls not Published: ${unexpected.map(([outcome, count]) => `${outcome} ${count}`).join(", ")}`)
    const calls = logs.flatMap((log) => log.durations).sort((a, b) => a - b)
    keep = notes.length > 0
    if (keep) notes.push(`logs kept in ${folder}`)
    const shutdown = [...byMessage(logs.flatMap((log) => log.atShutdown))]
    if (shutdown.length > 0) notes.push(`as the processes stopped: ${shutdown.map(([message, { count }]) => `${count} × "${message}"`).join(", ")}`)
    if (busy > 0.2) notes.push(`the machine was already ${Math.round(busy * 100)}% busy before this run: its figures are disturbed`)
    const span = lastEnd - firstAt
    return {
      targets: rows.length,
      ended: lags.length,
      failed: failed.length,
      retried: rows.filter((row) => row.attempts > 1).length,
      first: lags[0] ?? Number.NaN,
      p50: percentile(lags, 0.5),
      p99: percentile(lags, 0.99),
      max: lags.at(-1) ?? Number.NaN,
      span,
      perSecond: lags.length / (span / 1000),
      createsPerSecond: options.posts / ((createdAt - began) / 1000),
      lateCreates,
      attemptsPerProcess: logs.map((log) => log.attempts),
      calls: { count: calls.length, p50: percentile(calls, 0.5), p99: percentile(calls, 0.99) },
      cpu,
      ...(activity === undefined ? {} : { activity }),
      notes
    }
  } catch (error) {
    keep = true
    for (const entry of processes) {
      console.error(`--- last lines of ${entry.log}:\n${tail(entry.log, 15)}`)
    }
    throw error
  } finally {
    for (const { child } of processes) await stop(child)
    if (database !== undefined) dropDatabase(database)
    // A run with something to look at keeps its logs (not its data folders).
    if (keep) for (const name of ["all", "worker1"]) rmSync(join(folder, `${name}-data`), { recursive: true, force: true })
    else rmSync(folder, { recursive: true, force: true })
    folders.delete(folder)
  }
}

const attempts = (result: Result) => result.attemptsPerProcess.reduce((sum, count) => sum + count, 0)
const ms = (value: number) => Number.isNaN(value) ? "-" : `${Math.round(value)}`
const row = (name: string, result: Result) =>
  `${name.padEnd(24)} ${ms(result.first).padStart(7)} ${ms(result.p50).padStart(7)} ${ms(result.p99).padStart(7)} ${ms(result.max).padStart(7)}   ` +
  `${`${result.ended}/${result.targets}`.padStart(11)} ${String(result.failed).padStart(6)}  ` +
  `${(result.span / 1000).toFixed(1).padStart(7)} s ${result.perSecond.toFixed(0).padStart(8)}/s   ${result.createsPerSecond.toFixed(0).padStart(6)}/s`
const header = `${"".padEnd(24)} ${"first".padStart(7)} ${"p50".padStart(7)} ${"p99".padStart(7)} ${"max".padStart(7)}   ${"ended".padStart(11)} ${
  "failed".padStart(6)
}  ${"last end".padStart(9)} ${"targets".padStart(10)}   ${"creates".padStart(8)}`
const report = (name: string, result: Result) => {
  console.log(row(name, result))
  const cores = (value: number) => `${Math.round(value * 100)}%`
  const herald = result.cpu.slice(0, -2).map(cores).join(" + ")
  console.log(`${"".padEnd(24)} cpu while publishing: herald ${herald}, postgres server ${cores(result.cpu.at(-2)!)}, ` +
    `whole machine ${cores(result.cpu.at(-1)!)} of ${cpu.length * 100}%`)
  console.log(`${"".padEnd(24)} network calls: ${attempts(result)}, time in them per target p50 ${ms(result.calls.p50)} ms, p99 ${ms(result.calls.p99)} ms`)
  if (result.activity !== undefined) {
    const { commits, deleted, inserted, updated } = result.activity
    const each = (count: number) => (count / result.targets).toFixed(1)
    console.log(`${"".padEnd(24)} database while publishing, per target: ${each(commits)} transactions, rows ${each(inserted)} ` +
      `inserted, ${each(updated)} updated, ${each(deleted)} deleted`)
  }
  if (result.retried > 0) console.log(`${"".padEnd(24)} ${result.retried} targets needed more than one network call`)
  for (const note of result.notes) console.log(`${"".padEnd(24)} note: ${note}`)
}

const cpu = cpus()
console.log(`publishing: ${cpu.length} × ${cpu[0]?.model.trim() ?? "cpu"}, node ${process.version}; 3 sandbox targets a post ` +
  `(x, linkedin, facebook); lag = target's end − post's time, in ms`)
// The workers comparison needs PostgreSQL (the embedded database serves one process): it runs when
// --backends names postgres, or when it is asked for alone with --only workers.
const wantsPostgres = backends.includes("postgres") || scenarios.includes("workers") || scenarios.includes("cost")
const postgres = wantsPostgres && postgresAnswers()
if (wantsPostgres && !postgres) console.log(`postgres: nothing answers at ${admin}: its runs are skipped`)
const usable = backends.filter((backend) => backend === "embedded" || postgres)

if (scenarios.includes("cost")) {
  console.log(`\ncost: ${flags.posts} posts due at one second on postgres, one process, beside pgbench replaying the statements ` +
    `${flags.capture} posts ran (targets: ratio >= 0.5, herald cpu < 0.8 ms a target)`)
  if (!postgres) console.log("(skipped: no postgres)")
  else {
    const where = flags.networks === "both" ? ["in-process", "apart"] as const : [flags.networks as "in-process" | "apart"]
    if (where.some((name) => name !== "in-process" && name !== "apart")) throw new Error(`--networks: in-process, apart or both`)
    for (const networks of where) reportCost(await cost({ posts: Number(flags.posts), capture: Number(flags.capture), networks }))
  }
}

if (scenarios.includes("burst")) {
  console.log(`\nburst: N posts all due at one second (target: 10,000 out within 60 s on postgres, one process)`)
  console.log(header)
  for (const backend of usable) {
    for (const posts of sizes) {
      report(`${backend} N=${posts}`, await run({ backend, posts, offset: () => 0, workers: 1 }))
    }
  }
}

if (scenarios.includes("steady")) {
  console.log(`\nsteady: 1,000 posts, one due every 60 ms for a minute (target: p99 < 1,000 ms)`)
  console.log(header)
  for (const backend of usable) {
    report(`${backend}`, await run({ backend, posts: 1000, offset: (i) => i * 60, workers: 1 }))
  }
}

if (scenarios.includes("workers") && wantsPostgres) {
  const posts = Math.max(...sizes)
  console.log(`\nworkers: the N=${posts} burst on postgres, one process (HERALD_ROLE=all) and with a second (HERALD_ROLE=worker)`)
  if (!postgres) {
    console.log("(skipped: no postgres)")
  } else {
    console.log(header)
    const one = await run({ backend: "postgres", posts, offset: () => 0, workers: 1 })
    report("one process", one)
    const two = await run({ backend: "postgres", posts, offset: () => 0, workers: 2 })
    report("with a worker", two)
    console.log(`${"".padEnd(24)} network calls per process: ${two.attemptsPerProcess.join(" (all) / ")} (worker)`)
    console.log(`ratio two/one: ${(two.perSecond / one.perSecond).toFixed(2)}× the targets per second`)
  }
}
process.exit(0)
