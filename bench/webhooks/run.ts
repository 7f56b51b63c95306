// bench/webhooks: webhook delivery under load. By default one run, `ratio`: N events (10,000) to a healthy
// receiver alone on PostgreSQL beside a bare node:http sender (bare.ts) sending the same signed bodies to
// the same receiver with the same concurrency, each one's deliveries per second and CPU per delivery, and
// the ratio against the target (issue 20: at least 0.4). The other runs, by name (`--runs`):
// N events (10,000) are fanned out to 3 local receivers — one
// answering 200 at once, one answering 200 after 2 s, one answering 500 — then (fresh runs) to the healthy
// and the slow one, and to the healthy one alone, to see whether the others hold it back. Reports
// deliveries per second to the healthy receiver and the latency from each event's commit to its arrival there.
//   postgres  the events are inserted straight into the outbox (`events`) in SQL, 500 rows a statement.
//   embedded  the server holds the database, so the events are `post.created` ones of N drafts created
//             through the API (32 at a time): the delivery rate is then bounded by the creates.
// Every run gets a fresh data folder and, on PostgreSQL, a fresh database (dropped afterwards). The
// receivers run in a child process of their own (bench/webhooks/receivers.ts).
//
//   pnpm bench:webhooks [--n 10000] [--backends postgres,embedded] [--runs ratio,all,slow,alone,steady] [--rate 500] [--batch 500]
//                       [--timeout 300] [--anchor-seconds 5]
//   (HERALD_BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test, is where databases are made)
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { readFileSync, rmSync } from "node:fs"
import { cpus } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { Effect } from "effect"
import {
  activityBetween,
  admin,
  type Backend,
  busyBefore,
  byMessage,
  children,
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
  psql,
  psqlScript,
  readDatabase,
  revision,
  runFolder,
  sendCreates,
  sleep,
  start,
  stop,
  tail
} from "../harness.ts"
import type { Answer, Arrival, Receiver, Request } from "./receivers.ts"


const { values: flags } = parseArgs({
  options: {
    n: { type: "string", default: "10000" },
    backends: { type: "string", default: "postgres,embedded" },
    // Rows a statement (a transaction) when inserting the events on PostgreSQL.
    batch: { type: "string", default: "500" },
    // How long to wait, after the last event committed, for the healthy receiver to have them all.
    timeout: { type: "string", default: "300" },
    // Which runs: all three receivers, the healthy one beside the slow one, the healthy one alone (each a
    // burst of --n events), and all three receivers with the events inserted steadily at --rate a second.
    // `ratio` (the default): the healthy receiver alone on PostgreSQL beside the bare sender, in one run.
    runs: { type: "string", default: "ratio" },
    rate: { type: "string", default: "500" },
    // How long the bare sender sends in the ratio run.
    "anchor-seconds": { type: "string", default: "5" }
  }
})
const events = Number(flags.n)
const batch = Number(flags.batch)
const backends = flags.backends.split(",").map((name) => name.trim()) as Array<Backend>
const timeoutMs = Number(flags.timeout) * 1000
if (!Number.isInteger(events) || events < 1) throw new Error(`--n: a whole number, got ${flags.n}`)
if (!Number.isInteger(batch) || batch < 1) throw new Error(`--batch: a whole number, got ${flags.batch}`)
if (backends.some((name) => name !== "embedded" && name !== "postgres")) throw new Error(`--backends: postgres,embedded`)
const runs = flags.runs.split(",").map((name) => name.trim())
if (runs.length === 0 || runs.some((name) => !["ratio", "all", "slow", "alone", "steady"].includes(name))) {
  throw new Error(`--runs: some of ratio,all,slow,alone,steady`)
}
const anchorSeconds = Number(flags["anchor-seconds"])
if (!(anchorSeconds > 0)) throw new Error(`--anchor-seconds: a number of seconds, got ${flags["anchor-seconds"]}`)
const rate = Number(flags.rate)
if (!Number.isInteger(rate) || rate < 1) throw new Error(`--rate: a whole number of events a second, got ${flags.rate}`)

// Targets: to the healthy receiver on PostgreSQL; against the bare sender (issue 20).
const targetRatio = 0.4
const targetPerSecond = 1_000
const targetP99 = 500
// After the healthy receiver has every event, how long the run goes on so a repeat would be seen.
const settleMs = 2_000
// Herald's attempts in flight to one endpoint (WebhookDelivery's `perEndpoint`), and so the bare sender's.
const perEndpoint = 32
// The receivers listen on 127.0.0.1; the failing one must stay switched on for the whole run.
const webhookEnv = { HERALD_WEBHOOK_ALLOW_PRIVATE: "true", HERALD_WEBHOOK_DISABLE_AFTER: "1000000" }

interface Receivers {
  readonly child: ChildProcess
  readonly ports: Record<Receiver, number>
  ask<T extends Request["type"]>(type: T): Promise<Extract<Answer, { type: T }>>
}

/** Starts the receivers' process and resolves once it listens; `ask` sends a request and awaits its answer. */
const startReceivers = async (): Promise<Receivers> => {
  const child = spawn(process.execPath, [join(import.meta.dirname, "receivers.ts")], { stdio: ["ignore", "inherit", "inherit", "ipc"] })
  children.add(child)
  child.once("exit", () => children.delete(child))
  const next = <T extends Answer["type"]>(type: T) =>
    new Promise<Extract<Answer, { type: T }>>((answered, reject) => {
      const onMessage = (answer: Answer) => {
        if (answer.type !== type) return
        child.off("message", onMessage)
        child.off("exit", onExit)
        answered(answer as Extract<Answer, { type: T }>)
      }
      const onExit = (code: number | null) => reject(new Error(`the receivers exited with ${code}`))
      child.on("message", onMessage)
      child.once("exit", onExit)
    })
  const { ports } = await next("ready")
  // One request at a time: an answer is matched to its request by type.
  let queue = Promise.resolve() as Promise<unknown>
  const ask = <T extends Request["type"]>(type: T) => {
    const answer = queue.then(() => {
      const answered = next(type)
      child.send({ type } satisfies Request)
      return answered
    })
    queue = answer.catch(() => undefined)
    return answer as Promise<Extract<Answer, { type: T }>>
  }
  return { child, ports, ask }
}

/** What the bare sender (bare.ts) did: 2xx answers, in how long, and the CPU it used sending them. */
interface Bare {
  readonly delivered: number
  readonly elapsedMs: number
  readonly cpuMs: number
}

/** The anchor: the bare node:http sender to the healthy receiver, as many in flight as Herald sends to one endpoint. */
const bareSender = (receivers: Receivers): Bare => {
  const output = execFileSync(process.execPath, [
    join(import.meta.dirname, "bare.ts"),
    "--url",
    `http://127.0.0.1:${receivers.ports.healthy}/webhooks/healthy`,
    "--concurrency",
    String(perEndpoint),
    "--seconds",
    String(anchorSeconds)
  ], { encoding: "utf8" })
  return JSON.parse(output.trim().split("\n").at(-1)!) as Bare
}

/**
 * CPU seconds of the PostgreSQL backends serving `database` (Herald's connections), by pid: the other
 * databases' backends on a shared server are not counted, nor the server's own processes (WAL writer,
 * checkpointer), which work for every database at once.
 */
const backendsCpu = (database: string) => {
  const used = new Map<string, number>()
  const pids = psql(admin, `SELECT pid FROM pg_stat_activity WHERE datname = '${database}'`).split("\n").filter((pid) => pid !== "")
  for (const pid of pids) used.set(pid, processCpu(Number(pid)))
  return used
}
const backendsSince = (database: string, before: Map<string, number>) => {
  let total = 0
  for (const [pid, used] of backendsCpu(database)) total += used - (before.get(pid) ?? 0)
  return total
}

/** Registers one endpoint for every event and answers its id. */
const register = async (base: string, key: string, url: string) => {
  const answer = await fetch(`${base}/api/v1/webhooks`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ url, events: [] })
  })
  const text = await answer.text()
  if (answer.status !== 201 && answer.status !== 200) throw new Error(`registering ${url}: HTTP ${answer.status}: ${text.slice(0, 300)}`)
  return (JSON.parse(text) as { data: { id: string } }).data.id
}

/** Creates `count` drafts, 32 at a time; answers their ids and how many were refused. */
const createDrafts = async (base: string, key: string, accountId: string, count: number) => {
  const ids: Array<string> = []
  const { refused, sample } = await sendCreates(
    base,
    key,
    count,
    (i) => ({ content: `bench webhooks ${i}`, accountIds: [accountId], draft: true }),
    (text) => ids.push((JSON.parse(text) as { data: { id: string } }).data.id)
  )
  return { ids, refused, sample }
}

/** Inserts the events straight into the outbox, `batch` rows a statement, each statement its own transaction. */
const insertEvents = (url: string, workspaceId: string, count: number) => {
  const statements: Array<string> = []
  for (let from = 1; from <= count; from += batch) {
    statements.push(`INSERT INTO events (id, workspace_id, event, data)
      SELECT gen_random_uuid(), '${workspaceId.replace(/'/g, "''")}', 'post.updated', jsonb_build_object('postId', 'pst_bench_' || g, 'n', g)
      FROM generate_series(${from}, ${Math.min(count, from + batch - 1)}) g;`)
  }
  psqlScript(url, statements.join("\n"))
}

/**
 * The same events at a steady rate: one psql kept open, sent a statement (its own transaction) every 50 ms
 * with the events due by then, so the load stays under the delivery rate and the latency is not the queue's.
 */
const insertEventsPaced = async (url: string, workspaceId: string, count: number, perSecond: number) => {
  const child = spawn("psql", [url, "-XAtq", "-v", "ON_ERROR_STOP=1"], { stdio: ["pipe", "ignore", "pipe"] })
  children.add(child)
  let errors = ""
  child.stderr!.on("data", (chunk: Buffer) => (errors += chunk.toString()))
  const ended = new Promise<number | null>((resolve) => child.on("close", resolve))
  const began = Date.now()
  let sent = 0
  while (sent < count) {
    const due = Math.min(count, Math.floor(((Date.now() - began) / 1000) * perSecond))
    if (due > sent) {
      child.stdin!.write(`INSERT INTO events (id, workspace_id, event, data)
        SELECT gen_random_uuid(), '${workspaceId.replace(/'/g, "''")}', 'post.updated', jsonb_build_object('postId', 'pst_bench_' || g, 'n', g)
        FROM generate_series(${sent + 1}, ${due}) g;\n`)
      sent = due
    }
    await sleep(50)
  }
  child.stdin!.end()
  const code = await ended
  children.delete(child)
  if (code !== 0) throw new Error(`psql (paced inserts) ended with ${code}: ${errors.trim()}`)
}

interface EventRow {
  readonly id: string
  readonly at: number
  readonly postId: string | null
}

interface AttemptRow {
  readonly endpointId: string
  readonly statusCode: number | null
  readonly durationMs: number | null
  readonly error: string | null
  readonly attempt: number
  readonly at: number
}

interface Stored {
  readonly events: ReadonlyArray<EventRow>
  readonly attempts: ReadonlyArray<AttemptRow>
  readonly pending: ReadonlyArray<{ readonly endpointId: string; readonly count: number }>
}

const succeeded = (row: AttemptRow) => row.statusCode !== null && row.statusCode >= 200 && row.statusCode < 300

/** The events with their commit times, every attempt, and the messages still pending, read with the repo's own layer. */
const readStored = (backend: Backend, where: string) =>
  readDatabase(backend, where, (sql) =>
    Effect.gen(function*() {
      const events = yield* sql.unsafe<EventRow>(`
        SELECT id::text AS id, (extract(epoch FROM created_at) * 1000)::float8 AS at, data->>'postId' AS post_id FROM events`)
      const attempts = yield* sql.unsafe<AttemptRow>(`
        SELECT endpoint_id, status_code, duration_ms, error, attempt, (extract(epoch FROM created_at) * 1000)::float8 AS at
        FROM webhook_deliveries`)
      const pending = yield* sql.unsafe<{ readonly endpointId: string; readonly count: number }>(`
        SELECT endpoint_id, count(*)::int AS count FROM webhook_messages WHERE state = 'pending' GROUP BY endpoint_id`)
      return { events, attempts, pending } satisfies Stored
    }))

/** A process's warnings and errors, those from `stoppingAt` on (what it says as it is stopped) apart. */
const readLog = (file: string, stoppingAt: number) => {
  const problems: Array<string> = []
  const atShutdown: Array<string> = []
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!/level=(WARN|ERROR|FATAL)/i.test(line)) continue
    const at = Date.parse(/timestamp=(\S+)/.exec(line)?.[1] ?? "")
    if (at >= stoppingAt) atShutdown.push(line)
    else problems.push(line)
  }
  return { problems, atShutdown }
}

interface RunOptions {
  readonly backend: Backend
  readonly receivers: ReadonlyArray<Receiver>
  /** Events per second, inserted steadily (PostgreSQL only); all at once when absent. */
  readonly paced?: number | undefined
  /** Runs the bare sender to the same healthy receiver first (the ratio run). */
  readonly anchor?: boolean | undefined
}

interface Seen {
  /** Bodies in the window (first commit to the healthy receiver's last first arrival) and distinct events among them. */
  readonly bodies: number
  readonly unique: number
}

interface Result {
  readonly events: number
  /** Distinct bench events the healthy receiver got, and the bodies beyond one per event. */
  readonly arrived: number
  readonly duplicates: number
  /** Bodies at the healthy receiver that were no bench event. */
  readonly strangers: number
  readonly first: number
  readonly p50: number
  readonly p99: number
  readonly max: number
  /** From the first commit to the last first arrival at the healthy receiver, ms. */
  readonly span: number
  readonly perSecond: number
  /** The inserts (or, embedded, the creates): from the first commit to the last, ms, and per second. */
  readonly commitSpan: number
  readonly commitsPerSecond: number
  readonly others: Partial<Record<Receiver, Seen>>
  /** Attempts as Herald recorded them by the time it stopped, per receiver: how many, how many 2xx, repeats, durations. */
  readonly attempts: Partial<
    Record<Receiver, {
      readonly count: number
      readonly ok: number
      /** The other outcomes ("HTTP 500", or the error when there was no answer) and how often. */
      readonly failures: ReadonlyArray<readonly [outcome: string, count: number]>
      readonly retries: number
      readonly p50: number
      readonly p99: number
    }>
  >
  readonly pending: Partial<Record<Receiver, number>>
  /** Cores busy from just before the first commit until the healthy receiver had every event: Herald, PostgreSQL, receivers, machine. */
  readonly cpu: readonly [herald: number, postgres: number, receivers: number, machine: number]
  /** CPU seconds in that window: Herald's, and its database's backends' (PostgreSQL only). */
  readonly cpuSeconds: { readonly herald: number; readonly database: number }
  /** The bare sender's runs just before Herald started and just after it stopped (the ratio run). */
  readonly anchor?: readonly [before: Bare, after: Bare] | undefined
  readonly activity?: {
    readonly commits: number
    readonly inserted: number
    readonly updated: number
    readonly deleted: number
    readonly deadlocks: number
  }
  readonly notes: ReadonlyArray<string>
}

const run = async (options: RunOptions): Promise<Result> => {
  const folder = runFolder("webhooks")
  const database = options.backend === "postgres" ? databaseName() : undefined
  const notes: Array<string> = []
  let herald: Process | undefined
  let receivers: Receivers | undefined
  let keep = false
  try {
    const busy = await busyBefore()
    if (database !== undefined) createDatabase(database)
    receivers = await startReceivers()
    // Before Herald starts, so that nothing of Herald's runs beside it.
    const anchorBefore = options.anchor === true ? bareSender(receivers) : undefined
    herald = await start(folder, "all", { ...webhookEnv, ...(database === undefined ? {} : { DATABASE_URL: databaseUrl(database) }) })
    const base = herald.started.listening as string
    const key = herald.started.firstRun.key.key as string
    const workspaceId = herald.started.firstRun.workspace.id as string
    const endpoints = new Map<string, Receiver>()
    for (const name of options.receivers) {
      endpoints.set(await register(base, key, `http://127.0.0.1:${receivers.ports[name]}/webhooks/${name}`), name)
    }
    // The start-up's own events (account.connected...) may reach the first endpoints: they go out before the counting starts.
    await sleep(1_000)
    await receivers.ask("reset")

    const cpuBefore = [processCpu(herald.child.pid), processCpu(receivers.child.pid), machineCpu()]
    const postgresBefore = postgresCpu()
    const backendsBefore = database === undefined ? new Map<string, number>() : backendsCpu(database)
    const activityBefore = database === undefined ? undefined : databaseActivity(databaseUrl(database))
    const began = Date.now()
    let isBench: (row: EventRow) => boolean
    if (database !== undefined) {
      if (options.paced === undefined) insertEvents(databaseUrl(database), workspaceId, events)
      else await insertEventsPaced(databaseUrl(database), workspaceId, events, options.paced)
      isBench = (row) => row.postId?.startsWith("pst_bench_") === true
    } else {
      const accounts = herald.started.firstRun.accounts as Array<{ id: string; platform: string }>
      if (accounts[0] === undefined) throw new Error("no sandbox account in the Demo workspace")
      const created = await createDrafts(base, key, accounts[0].id, events)
      if (created.refused > 0) notes.push(`${created.refused} creates refused, e.g. ${created.sample}`)
      const posts = new Set(created.ids)
      isBench = (row) => row.postId !== null && posts.has(row.postId)
    }
    const committed = Date.now()

    // Until the healthy receiver has them all (or the time is up).
    let done = false
    while (Date.now() < committed + timeoutMs) {
      if ((await receivers.ask("count")).healthy >= events) {
        done = true
        break
      }
      await sleep(50)
    }
    const doneAt = Date.now()
    const window = (doneAt - began) / 1000
    const heraldSeconds = processCpu(herald.child.pid) - cpuBefore[0]!
    const databaseSeconds = database === undefined ? 0 : backendsSince(database, backendsBefore)
    const heraldUsed = heraldSeconds / window
    const receiversUsed = (processCpu(receivers.child.pid) - cpuBefore[1]!) / window
    const machineUsed = (machineCpu() - cpuBefore[2]!) / window
    const postgresUsed = postgresSince(postgresBefore) / window
    if (!done) notes.push(`the healthy receiver did not have every event ${timeoutMs / 1000} s after the last committed`)
    await sleep(settleMs)
    const { arrivals, signed } = await receivers.ask("report")

    const stoppingAt = Date.now()
    await stop(herald.child)
    // Again once Herald has stopped: the machine is shared, and what the others leave of it drifts in a
    // minute; the anchor is the mean of the bare sender's runs on either side of Herald's.
    const anchor = anchorBefore === undefined ? undefined : [anchorBefore, bareSender(receivers)] as const
    // The statistics of a connection reach pg_stat_database when it closes, so they are read once Herald stopped.
    const activityAfter = database === undefined ? undefined : databaseActivity(databaseUrl(database))
    const activity = activityBefore === undefined || activityAfter === undefined ? undefined : activityBetween(activityBefore, activityAfter)
    const stored = await readStored(options.backend, database === undefined ? join(folder, "all-data") : databaseUrl(database))

    const commits = new Map<string, number>()
    for (const row of stored.events) if (isBench(row)) commits.set(row.id, row.at)
    if (commits.size !== events) notes.push(`${commits.size} bench events found in the outbox, ${events} expected`)
    const firstCommit = Math.min(...commits.values())
    const lastCommit = Math.max(...commits.values())

    // The healthy receiver: the first arrival of each event, repeats and strangers counted apart.
    const firstArrival = new Map<string, number>()
    let duplicates = 0
    let strangers = 0
    for (const [id, at] of arrivals.healthy) {
      if (!commits.has(id)) strangers++
      else if (firstArrival.has(id)) duplicates++
      else firstArrival.set(id, at)
    }
    const lags = [...firstArrival].map(([id, at]) => at - commits.get(id)!).sort((a, b) => a - b)
    const lastArrival = Math.max(...firstArrival.values())
    const span = lastArrival - firstCommit
    if (firstArrival.size < events) notes.push(`${events - firstArrival.size} events never reached the healthy receiver`)
    if (duplicates > 0) notes.push(`${duplicates} events reached the healthy receiver more than once`)
    if (strangers > 0) notes.push(`${strangers} bodies at the healthy receiver were not bench events`)
    const bodies = Object.values(arrivals).reduce((sum, list) => sum + list.length, 0)
    if (signed < bodies) notes.push(`${bodies - signed} bodies came without a Service-Signature`)
    if (lags[0] !== undefined && lags[0] < 0) notes.push(`an arrival precedes its commit by ${-lags[0]} ms: the clocks disagree`)

    const inWindow = (list: ReadonlyArray<Arrival>): Seen => {
      const within = list.filter(([id, at]) => commits.has(id) && at >= firstCommit && at <= lastArrival)
      return { bodies: within.length, unique: new Set(within.map(([id]) => id)).size }
    }
    const others: Partial<Record<Receiver, Seen>> = {}
    for (const name of options.receivers) if (name !== "healthy") others[name] = inWindow(arrivals[name])

    const attempts: Result["attempts"] = {}
    const pending: Partial<Record<Receiver, number>> = {}
    for (const [endpointId, name] of endpoints) {
      const rows = stored.attempts.filter((row) => row.endpointId === endpointId)
      const durations = rows.map((row) => row.durationMs ?? Number.NaN).sort((a, b) => a - b)
      attempts[name] = {
        count: rows.length,
        ok: rows.filter(succeeded).length,
        failures: [...Map.groupBy(rows.filter((row) => !succeeded(row)), (row) => row.statusCode === null ? row.error ?? "?" : `HTTP ${row.statusCode}`)]
          .map(([outcome, list]) => [outcome, list.length] as const).sort((a, b) => b[1] - a[1]),
        retries: rows.filter((row) => row.attempt > 1).length,
        p50: percentile(durations, 0.5),
        p99: percentile(durations, 0.99)
      }
      pending[name] = stored.pending.find((row) => row.endpointId === endpointId)?.count ?? 0
    }

    const log = readLog(herald.log, stoppingAt)
    for (const [message, { count, first }] of byMessage(log.problems)) {
      // The innermost cause says what happened (e.g. "deadlock detected"); the full line stays in the kept log.
      const reason = [...first.matchAll(/\[cause\]: (\w*Error): ([^\\"]+)/g)].at(-1)
      notes.push(`${count} × log "${message}"${reason === undefined ? "" : `, innermost cause ${reason[1]}: ${reason[2]!.trim()}`}, ` +
        `first: ${first.length > 300 ? `${first.slice(0, 300)}…` : first}`)
    }
    keep = notes.length > 0
    if (keep) notes.push(`logs kept in ${folder}`)
    const shutdown = [...byMessage(log.atShutdown)]
    if (shutdown.length > 0) notes.push(`as Herald stopped: ${shutdown.map(([message, { count }]) => `${count} × "${message}"`).join(", ")}`)
    if (busy > 0.2) notes.push(`the machine was already ${Math.round(busy * 100)}% busy before this run: its figures are disturbed`)
    return {
      events,
      arrived: firstArrival.size,
      duplicates,
      strangers,
      first: lags[0] ?? Number.NaN,
      p50: percentile(lags, 0.5),
      p99: percentile(lags, 0.99),
      max: lags.at(-1) ?? Number.NaN,
      span,
      perSecond: firstArrival.size / (span / 1000),
      commitSpan: lastCommit - firstCommit,
      commitsPerSecond: commits.size / (Math.max(1, committed - began) / 1000),
      others,
      attempts,
      pending,
      cpu: [heraldUsed, postgresUsed, receiversUsed, machineUsed],
      cpuSeconds: { herald: heraldSeconds, database: databaseSeconds },
      anchor,
      ...(activity === undefined ? {} : { activity }),
      notes
    }
  } catch (error) {
    keep = true
    if (herald !== undefined) console.error(`--- last lines of ${herald.log}:\n${tail(herald.log, 15)}`)
    throw error
  } finally {
    if (herald !== undefined) await stop(herald.child)
    if (receivers !== undefined) await stop(receivers.child)
    if (database !== undefined) dropDatabase(database)
    // A run with something to look at keeps its log (not its data folder).
    if (keep) rmSync(join(folder, "all-data"), { recursive: true, force: true })
    else rmSync(folder, { recursive: true, force: true })
    folders.delete(folder)
  }
}

const ms = (value: number) => Number.isNaN(value) ? "-" : `${Math.round(value)}`
const indent = "".padEnd(26)
const header = `${indent} ${"first".padStart(6)} ${"p50".padStart(6)} ${"p99".padStart(6)} ${"max".padStart(6)}   ${"healthy".padStart(11)} ${
  "repeats".padStart(7)
} ${"last arrival".padStart(12)} ${"deliveries".padStart(11)}   ${"slow".padStart(5)} ${"failing".padStart(7)}`
const row = (name: string, result: Result) =>
  `${name.padEnd(26)} ${ms(result.first).padStart(6)} ${ms(result.p50).padStart(6)} ${ms(result.p99).padStart(6)} ${ms(result.max).padStart(6)}   ` +
  `${`${result.arrived}/${result.events}`.padStart(11)} ${String(result.duplicates).padStart(7)} ` +
  `${(result.span / 1000).toFixed(1).padStart(10)} s ${result.perSecond.toFixed(0).padStart(9)}/s   ` +
  `${(result.others.slow === undefined ? "-" : String(result.others.slow.bodies)).padStart(5)} ` +
  `${(result.others.failing === undefined ? "-" : String(result.others.failing.bodies)).padStart(7)}`
const report = (name: string, backend: Backend, result: Result, paced?: number) => {
  console.log(row(name, result))
  const cores = (value: number) => `${Math.round(value * 100)}%`
  const [herald, postgres, receivers, machine] = result.cpu
  if (backend === "postgres") {
    const met = result.perSecond >= targetPerSecond ? "met" : "missed"
    const p99 = result.p99 < targetP99 ? "met" : "missed"
    console.log(paced === undefined
      ? `${indent} targets: ≥ ${targetPerSecond}/s ${met} (${result.perSecond.toFixed(0)}/s), p99 < ${targetP99} ms ${p99} (${ms(result.p99)} ms)`
      : `${indent} target: p99 < ${targetP99} ms ${p99} (${ms(result.p99)} ms) under a steady ${paced} events a second ` +
        `(the deliveries per second are the rate's, not the capacity)`)
  }
  console.log(`${indent} events committed in ${(result.commitSpan / 1000).toFixed(2)} s (${result.commitsPerSecond.toFixed(0)}/s` +
    `${backend === "embedded" ? ", drafts created through the API" : paced === undefined ? `, ${batch} a transaction` : ", a transaction every 50 ms"})`)
  console.log(`${indent} cpu while delivering: herald ${cores(herald)}, postgres server ${cores(postgres)}, receivers ${cores(receivers)}, ` +
    `whole machine ${cores(machine)} of ${cpu.length * 100}%`)
  for (const name of ["slow", "failing"] as const) {
    const seen = result.others[name]
    if (seen !== undefined) console.log(`${indent} ${name} receiver in that window: ${seen.bodies} bodies, ${seen.unique} distinct events`)
  }
  const attempts = Object.entries(result.attempts).map(([name, a]) =>
    `${name} ${a.count} (${a.ok} 2xx${a.failures.map(([outcome, count]) => `, ${count} × ${outcome}`).join("")}` +
    `${a.retries > 0 ? `; ${a.retries} of them retries` : ""}; each p50 ${ms(a.p50)} ms, p99 ${ms(a.p99)} ms)`
  )
  console.log(`${indent} attempts recorded by the stop: ${attempts.join(", ")}`)
  const left = Object.entries(result.pending).filter(([, count]) => count > 0).map(([name, count]) => `${name} ${count}`)
  if (left.length > 0) console.log(`${indent} messages still pending at the stop: ${left.join(", ")}`)
  if (result.activity !== undefined) {
    const { commits, deadlocks, deleted, inserted, updated } = result.activity
    const total = Object.values(result.attempts).reduce((sum, a) => sum + a.count, 0)
    const each = (count: number) => (count / total).toFixed(1)
    console.log(`${indent} database until the stop, per attempt (${total}): ${each(commits)} transactions, rows ${each(inserted)} ` +
      `inserted, ${each(updated)} updated, ${each(deleted)} deleted (fan-out and the inserts included); ${deadlocks} deadlocks`)
  }
  for (const note of result.notes) console.log(`${indent} note: ${note}`)
}

/** The ratio run: Herald beside the bare sender, deliveries per second and CPU per delivery, and the ratio. */
const reportRatio = (result: Result) => {
  const [before, after] = result.anchor!
  const rate = (bare: Bare) => bare.delivered / (bare.elapsedMs / 1000)
  const barePerSecond = (rate(before) + rate(after)) / 2
  const bareCpu = (before.cpuMs + after.cpuMs) / (before.delivered + after.delivered)
  const heraldCpu = (result.cpuSeconds.herald * 1000) / result.arrived
  const databaseCpu = (result.cpuSeconds.database * 1000) / result.arrived
  const ratio = result.perSecond / barePerSecond
  const each = (value: number) => `${value.toFixed(3)} ms`
  console.log(`${"bare node:http sender".padEnd(26)} ${barePerSecond.toFixed(0).padStart(7)}/s   cpu a delivery ${each(bareCpu)}` +
    `   (the mean of ${rate(before).toFixed(0)}/s before herald and ${rate(after).toFixed(0)}/s after, ${anchorSeconds} s each)`)
  console.log(`${"herald".padEnd(26)} ${result.perSecond.toFixed(0).padStart(7)}/s   cpu a delivery ${each(heraldCpu)} + ` +
    `${each(databaseCpu)} postgres   (${result.arrived} in ${(result.span / 1000).toFixed(1)} s)`)
  console.log(`ratio ${ratio.toFixed(2)} (herald's deliveries/s ÷ the bare sender's): target ≥ ${targetRatio} ` +
    `${ratio >= targetRatio ? "met" : "missed"}; cpu a delivery ${(heraldCpu / bareCpu).toFixed(1)}× the bare sender's ` +
    `(${((heraldCpu + databaseCpu) / bareCpu).toFixed(1)}× with postgres)`)
}

const cpu = cpus()
const startedOn = revision()
console.log(`webhooks: ${cpu.length} × ${cpu[0]?.model.trim() ?? "cpu"}, node ${process.version}, commit ${startedOn}; ${events} events; ` +
  `receivers (own process): healthy 200 at once, slow 200 after 2 s, failing 500`)
console.log(`latency = first arrival at the healthy receiver (its Date.now()) − the event's created_at (the database's now(), its ` +
  `transaction's start), in ms; one machine, one clock`)
console.log(`deliveries = healthy receiver's distinct events ÷ (its last arrival − the first commit); slow, failing = bodies they ` +
  `got in that window`)
const wantsPostgres = backends.includes("postgres")
const postgres = wantsPostgres && postgresAnswers()
if (wantsPostgres && !postgres) console.log(`postgres: nothing answers at ${admin}: its runs are skipped`)
const usable = backends.filter((backend) => backend === "embedded" || postgres)

if (runs.includes("ratio") && postgres) {
  console.log(`\nratio (postgres; the healthy receiver alone; ${perEndpoint} in flight, keep-alive, the same signed bodies; cpu from /proc: ` +
    `herald's process, and its database's backends)`)
  const result = await run({ backend: "postgres", receivers: ["healthy"], anchor: true })
  reportRatio(result)
  console.log(header)
  report("postgres, healthy alone", "postgres", result)
}

for (const backend of runs.some((name) => name !== "ratio") ? usable : []) {
  console.log(`\n${backend}${backend === "postgres" ? ` (targets: ≥ ${targetPerSecond} deliveries/s to the healthy receiver, p99 < ${targetP99} ms)` : ""}`)
  console.log(header)
  const all = runs.includes("all") ? await run({ backend, receivers: ["healthy", "slow", "failing"] }) : undefined
  if (all !== undefined) report(`${backend}, 3 receivers`, backend, all)
  const withSlow = runs.includes("slow") ? await run({ backend, receivers: ["healthy", "slow"] }) : undefined
  if (withSlow !== undefined) report(`${backend}, healthy + slow`, backend, withSlow)
  const alone = runs.includes("alone") ? await run({ backend, receivers: ["healthy"] }) : undefined
  if (alone !== undefined) report(`${backend}, healthy alone`, backend, alone)
  const steady = runs.includes("steady") && backend === "postgres"
    ? await run({ backend, receivers: ["healthy", "slow", "failing"], paced: rate })
    : undefined
  if (steady !== undefined) report(`${backend}, 3, ${rate}/s steady`, backend, steady, rate)
  if (alone !== undefined && (all !== undefined || withSlow !== undefined)) {
    const ratio = (result: Result | undefined) => result === undefined ? "-" : `${(result.perSecond / alone.perSecond).toFixed(2)}×`
    console.log(`healthy receiver's deliveries per second against alone: with slow + failing ${ratio(all)}, with slow ${ratio(withSlow)}`)
  }
}
if (revision() !== startedOn) console.log(`\nnote: the code changed during the bench (${startedOn} → ${revision()}): the runs may not compare`)
process.exit(0)
