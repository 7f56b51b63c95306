// bench/publishing cost: what one published target costs, beside pgbench replaying the same SQL, in one run.
//   1. measure  N posts (3 sandbox targets each) due at one second on PostgreSQL, one Herald process: targets
//               per second, Herald's CPU and its PostgreSQL backends' CPU per target (from /proc).
//   2. capture  K more posts, created, then Herald stops before their time; the database is copied (the
//               replay's starting point), PostgreSQL logs every statement of the run's database, Herald
//               starts again and publishes them: the statements they ran.
//   3. replay   pgbench runs those statements on the copy, one client per Herald connection, each once:
//               targets per second and CPU per target (pgbench and its backends).
// Figures from different machines or runs do not compare: the ratio is the figure.
//
// With `networks: "apart"` (`--networks apart`) the sandbox networks' simulators are served by a second Herald
// process (HERALD_ROLE=api, the same database) and the measured process calls them over HTTP as it would a
// network's servers (its BASE_URL is the second process's address): the measured CPU is then publishing's
// own, not also the simulated networks' side of each call (their HTTP serving and their state's load and
// save). The capture then keeps only the measured process's sessions (found by their application_name),
// so pgbench replays Herald's statements, not the simulators'. The simulators' CPU is printed beside.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { spawn } from "node:child_process"
import {
  admin,
  createDatabase,
  databaseUrl,
  dropDatabase,
  folders,
  freePort,
  processCpu,
  psql,
  runFolder,
  sendCreates,
  sleep,
  start,
  stop,
  waitForShards
} from "../harness.ts"
import { logEnd, pgbenchScripts, readStatements, summary, window } from "./statements.ts"

const postgresLog = process.env.HERALD_BENCH_POSTGRES_LOG ?? "/var/log/postgresql/postgresql-15-main.log"

/** CPU seconds used so far by each PostgreSQL backend connected to `database` (its title names the database). */
const backendsOf = (database: string) => {
  const used = new Map<number, number>()
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue
    try {
      const title = readFileSync(`/proc/${pid}/cmdline`, "utf8")
      // `postgres: 15/main: postgres <database> 127.0.0.1(port) idle` (the cluster's name is Debian's).
      if (title.startsWith("postgres: ") && title.includes(` postgres ${database} `)) used.set(Number(pid), processCpu(Number(pid)))
    } catch {
      // Gone in between.
    }
  }
  return used
}

/** CPU the backends used between two readings; a backend first seen in the second counts from nothing. */
const backendsBetween = (before: Map<number, number>, after: Map<number, number>) => {
  let total = 0
  for (const [pid, used] of after) total += used - (before.get(pid) ?? 0)
  return total
}

/** Where the run is, on stderr, for a run that seems stuck. */
const step = (what: string) => {
  if (process.env.HERALD_BENCH_VERBOSE !== undefined) console.error(`${new Date().toISOString()} ${what}`)
}

const pendingTargets = (url: string) => Number(psql(url, "SELECT count(*) FROM post_targets WHERE status = 'pending'").trim())

/** Creates `count` posts to the three accounts, all due at one whole second ahead of when the creates end. */
const schedule = async (base: string, key: string, accountIds: ReadonlyArray<string>, count: number, ratePerMs: number, extraMs: number) => {
  const at = Math.ceil((Date.now() + 1_000 + extraMs + 1.5 * count / ratePerMs) / 1000) * 1000
  const tag = Math.random().toString(36).slice(2, 8)
  const began = Date.now()
  const created = await sendCreates(base, key, count, (i) => ({ content: `cost ${tag} ${i}`, accountIds, scheduledAt: new Date(at).toISOString() }))
  if (created.refused > 0) throw new Error(`${created.refused} creates refused, e.g. ${created.sample}`)
  return { at, tag, createdIn: Date.now() - began }
}

const waitUntilPublished = async (url: string, timeoutMs: number) => {
  const until = Date.now() + timeoutMs
  while (pendingTargets(url) > 0) {
    if (Date.now() > until) throw new Error(`targets still pending after ${timeoutMs / 1000} s`)
    await sleep(200)
  }
}

export interface Options {
  readonly posts: number
  readonly capture: number
  /** Where the sandbox networks' simulators run: in the measured process (the default), or apart in another. */
  readonly networks?: "in-process" | "apart"
}

/** The PostgreSQL backends (their pids) of one Herald process, by the application_name it connects with. */
const sessionsOf = (url: string, pid: number) =>
  psql(url, `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'herald/%/${pid}'`)
    .trim().split("\n").filter((line) => line !== "").map(Number)

export const cost = async (options: Options) => {
  const folder = runFolder("publishing-cost")
  const database = `bench_publish_${Math.random().toString(36).slice(2, 10)}`
  const replay = `${database}_replay`
  const url = databaseUrl(database)
  let herald: Awaited<ReturnType<typeof start>> | undefined
  let networks: Awaited<ReturnType<typeof start>> | undefined
  let kept = false
  try {
    createDatabase(database)
    const apart = options.networks === "apart"
    // Apart, the simulators' process starts first (and so makes the first run's workspace, key and accounts).
    // On a fixed port: it is stopped and started again around the database's copy, which needs no session open.
    const networksEnv = { DATABASE_URL: url, HERALD_ROLE: "api", PORT: String(await freePort()) }
    if (apart) networks = await start(folder, "networks", networksEnv)
    const measuredEnv = { DATABASE_URL: url, ...(networks === undefined ? {} : { BASE_URL: networks.started.listening as string }) }
    herald = await start(folder, "measure", measuredEnv)
    await waitForShards(url, 1)
    const base = herald.started.listening as string
    const firstRun = (networks ?? herald).started.firstRun
    const key = firstRun.key.key as string
    const accounts = firstRun.accounts as Array<{ id: string; platform: string }>
    const accountIds = ["x", "linkedin", "facebook"].map((platform) => accounts.find((account) => account.platform === platform)!.id)

    // Warm: the pool's connections, the accounts' rows, the JIT; and the create rate, to time the rest.
    const warm = await schedule(base, key, accountIds, 200, 0.3, 0)
    await sleep(Math.max(0, warm.at - Date.now()))
    await waitUntilPublished(url, 120_000)
    const ratePerMs = 200 / warm.createdIn
    // What Herald and its backends use doing nothing (the cluster's polls and heartbeats): taken off the
    // measured CPU for the time it lasted, so a slow run on a busy machine is not charged for waiting.
    const idleBegan = Date.now()
    const idleHerald = processCpu(herald.child.pid)
    const idleNetworks = processCpu(networks?.child.pid)
    const idleBackends = backendsOf(database)
    await sleep(3_000)
    const idleSeconds = (Date.now() - idleBegan) / 1000
    const idle = {
      herald: (processCpu(herald.child.pid) - idleHerald) / idleSeconds,
      networks: (processCpu(networks?.child.pid) - idleNetworks) / idleSeconds,
      backends: backendsBetween(idleBackends, backendsOf(database)) / idleSeconds
    }

    step("measure")
    // 1. measure
    const measured = await schedule(base, key, accountIds, options.posts, ratePerMs, 0)
    await sleep(Math.max(0, measured.at - Date.now()))
    const heraldBefore = processCpu(herald.child.pid)
    const networksBefore = processCpu(networks?.child.pid)
    const backendsBefore = backendsOf(database)
    await waitUntilPublished(url, 300_000)
    const windowSeconds = (Date.now() - measured.at) / 1000
    const heraldUsed = processCpu(herald.child.pid) - heraldBefore - idle.herald * windowSeconds
    const networksUsed = processCpu(networks?.child.pid) - networksBefore - idle.networks * windowSeconds
    const backendsUsed = backendsBetween(backendsBefore, backendsOf(database)) - idle.backends * windowSeconds
    const lastEnd = Number(psql(url, `
      SELECT (extract(epoch FROM max(t.ended_at)) * 1000)::float8 FROM post_targets t JOIN posts p ON p.id = t.post_id
      WHERE p.content LIKE 'cost ${measured.tag} %'`).trim())
    const targets = options.posts * 3
    const herald1 = {
      idle,
      perSecond: targets / ((lastEnd - measured.at) / 1000),
      heraldMs: heraldUsed * 1000 / targets,
      postgresMs: backendsUsed * 1000 / targets,
      networksMs: networks === undefined ? undefined : networksUsed * 1000 / targets
    }

    step("capture")
    // 2. capture: the posts are made, Herald stops before their time, the copy is taken, Herald starts again.
    const captured = await schedule(base, key, accountIds, options.capture, ratePerMs, 6_000)
    const ids = psql(url, `SELECT id FROM posts WHERE content LIKE 'cost ${captured.tag} %'`).trim().split("\n")
    await stop(herald.child)
    if (networks !== undefined) await stop(networks.child)
    const early = Number(psql(url, `SELECT count(*) FROM posts WHERE content LIKE 'cost ${captured.tag} %' AND status <> 'scheduled'`).trim())
    if (early > 0) throw new Error(`${early} posts of the capture went out before Herald stopped: raise the lead`)
    psql(admin, `CREATE DATABASE ${replay} TEMPLATE ${database}`)
    createdDatabases.add(replay)
    psql(url, `ALTER DATABASE ${database} SET log_statement = 'all'`)
    const offset = logEnd(postgresLog)
    step("copied; starting again with every statement logged")
    if (networks !== undefined) networks = await start(folder, "networks-again", networksEnv)
    herald = await start(folder, "capture", measuredEnv)
    // The measured process's sessions, looked at while it runs (its pool opens and closes connections).
    const own = new Set<number>()
    const capturer = herald.child.pid!
    const look = () => {
      for (const pid of sessionsOf(url, capturer)) own.add(pid)
    }
    const looking = setInterval(look, 200)
    await sleep(Math.max(0, captured.at - Date.now()))
    await waitUntilPublished(url, 300_000)
    clearInterval(looking)
    look()
    await stop(herald.child)
    herald = undefined
    psql(admin, `ALTER DATABASE ${database} RESET log_statement`)
    const logged = readStatements(postgresLog, offset, database)
    const statements = window(apart ? logged.filter((statement) => own.has(statement.session)) : logged, ids)
    const capturedTargets = options.capture * 3

    step("replay")
    // 3. replay
    const holdMs = 500
    const scripts = pgbenchScripts(statements, holdMs)
    const replayUrl = databaseUrl(replay)
    const replayBefore = backendsOf(replay)
    const maxima = new Map<number, number>()
    const sample = setInterval(() => {
      for (const [pid, used] of backendsOf(replay)) maxima.set(pid, Math.max(maxima.get(pid) ?? 0, used))
    }, 50)
    // One pgbench per Herald connection, all at once, each running its session's statements once.
    const runs = await Promise.all(scripts.map((script, index) => {
      const file = join(folder, `session-${index}.sql`)
      writeFileSync(file, script)
      return pgbench(["-n", "-M", "simple", "-c", "1", "-t", "1", "-l", "--log-prefix", join(folder, `pgbench-${index}`), "-f", file, replayUrl])
    }))
    clearInterval(sample)
    const failed = runs.find((run) => run.code !== 0)
    if (failed !== undefined) throw new Error(`pgbench failed: ${failed.stderr.slice(-2000)}`)
    const errors = runs.flatMap((run) => run.stderr.match(/ERROR: .*/g) ?? []).slice(0, 3)
    // Each pgbench's one transaction (its log: client, transaction, µs taken, ...) less the hold at its end.
    // The pgbench processes start one after another, so the replay is taken to last as long as the longest
    // of them: all running side by side from one instant, its best case.
    const took = readdirSync(folder).filter((name) => name.startsWith("pgbench-")).map((name) =>
      Number(readFileSync(join(folder, name), "utf8").trim().split(" ")[2]) / 1000 - holdMs
    )
    const replayMs = Math.max(...took)
    const replayBackends = backendsBetween(replayBefore, maxima)
    const anchor = {
      perSecond: capturedTargets / (replayMs / 1000),
      postgresMs: replayBackends * 1000 / capturedTargets
    }
    return {
      herald: herald1,
      anchor,
      statementsPerTarget: statements.length / capturedTargets,
      clients: scripts.length,
      summary: summary(statements),
      errors,
      targets,
      capturedTargets,
      networks: options.networks ?? "in-process"
    }
  } catch (error) {
    // The logs and the pgbench script stay to be looked at.
    kept = true
    console.error(`the run's files are kept in ${folder}`)
    throw error
  } finally {
    if (herald !== undefined) await stop(herald.child)
    if (networks !== undefined) await stop(networks.child)
    try {
      psql(admin, `ALTER DATABASE ${database} RESET log_statement`)
    } catch {
      // Not made.
    }
    dropDatabase(database)
    for (const name of createdDatabases) dropDatabase(name)
    createdDatabases.clear()
    if (!kept) rmSync(folder, { recursive: true, force: true })
    folders.delete(folder)
  }
}

const createdDatabases = new Set<string>()

/** Runs pgbench and resolves with its exit and what it wrote. */
const pgbench = (args: ReadonlyArray<string>) =>
  new Promise<{ code: number | null; stderr: string }>((done) => {
    const child = spawn("pgbench", args, { stdio: ["ignore", "ignore", "pipe"] })
    let stderr = ""
    child.stderr.on("data", (chunk) => (stderr += chunk))
    child.once("exit", (code) => done({ code, stderr }))
  })

/** Prints the run's figures beside the targets of issue 20 (ratio at least 0.5, Herald under 0.8 ms a target). */
export const report = (figures: Awaited<ReturnType<typeof cost>>) => {
  const { anchor, herald } = figures
  const ms = (value: number) => value.toFixed(3)
  console.log(`herald   ${herald.perSecond.toFixed(0).padStart(6)} targets/s   cpu per target: herald ${ms(herald.heraldMs)} ms + postgres ${ms(herald.postgresMs)} ms` +
    `   (${figures.targets} targets; idle use taken off: herald ${Math.round(herald.idle.herald * 100)}%, its backends ` +
    `${Math.round(herald.idle.backends * 100)}% of a core)`)
  console.log(herald.networksMs === undefined
    ? `networks the sandbox simulators served by the measured process (their CPU is in herald's)`
    : `networks the sandbox simulators apart, in another Herald process: ${ms(herald.networksMs)} ms of its CPU per target (not in herald's)`)
  // pgbench's own CPU is left out: most of it is reading the script and skipping the other clients' branches.
  console.log(`pgbench  ${anchor.perSecond.toFixed(0).padStart(6)} targets/s   cpu per target: postgres ${ms(anchor.postgresMs)} ms` +
    `   (${figures.capturedTargets} targets' statements, ${figures.clients} clients, a pgbench for each Herald connection)`)
  const ratio = herald.perSecond / anchor.perSecond
  console.log(`ratio    ${ratio.toFixed(2)} of pgbench's targets/s (target >= 0.5: ${ratio >= 0.5 ? "met" : "not met"}); ` +
    `herald cpu ${ms(herald.heraldMs)} ms a target (target < 0.8: ${herald.heraldMs < 0.8 ? "met" : "not met"}); ` +
    `postgres cpu ${(herald.postgresMs / anchor.postgresMs).toFixed(2)}× the replay's`)
  console.log(`statements per target: ${figures.statementsPerTarget.toFixed(2)} (${
    figures.summary.map(([what, count]) => `${what} ${(count / figures.capturedTargets).toFixed(2)}`).join(", ")
  })`)
  if (figures.errors.length > 0) console.log(`note: the replay met errors, e.g. ${figures.errors.join(" | ")}`)
}
