// bench/faults: the faults of issue 30, on Herald's own processes, each while posts go out, and then every
// target checked against what the sandbox networks hold:
//   database  Herald on a PostgreSQL cluster of the run's own, stopped fast and then crashed (immediate) for
//             --down seconds each under load; every API answer during and after the outage is tallied
//   outage    the path to the networks refuses every connection for --down seconds (a balancer restarting)
//   hang      the networks take connections and answer nothing for --hang seconds; /ready and the log are read
//   kill      two processes on PostgreSQL, one SIGKILLed every 2-6 s (--kills times) while threads with first
//             comments go out to X, Bluesky and Mastodon, the other taking over
// Per trial and network:
//   lost            a post created (201) that is gone, or a target missing from it
//   duplicated      the network holds the target's post, a thread reply or the first comment more than once
//   wrongly failed  failed although the network holds its post
//   parts missing   published, but a thread reply or the first comment is not on the network
//   stuck           still pending once the settling time is up
// Loopback only; bounded by --posts, --down, --hang, --kills and --settle.
//
//   node bench/faults/run.ts [--trials database,outage,hang,kill] [--posts 24] [--down 20] [--hang 70] [--kills 8]
//                            [--settle 900] [--seed 1]
import { type ChildProcess, execFileSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { parseArgs } from "node:util"
import {
  byMessage,
  createDatabase,
  databaseName,
  databaseUrl,
  dropDatabase,
  folders,
  freePort,
  postgresAnswers,
  revision,
  runFolder,
  seeded,
  sleep,
  start,
  stop,
  tail
} from "../harness.ts"
import { Holdings, settle, type Target } from "../sandbox.ts"
import { Forwarder } from "../drops/forwarder.ts"

const { values: flags } = parseArgs({
  options: {
    trials: { type: "string", default: "database,outage,hang,kill" },
    posts: { type: "string", default: "24" },
    down: { type: "string", default: "20" },
    hang: { type: "string", default: "70" },
    kills: { type: "string", default: "8" },
    settle: { type: "string", default: "900" },
    seed: { type: "string", default: String(Date.now() % 100_000) }
  }
})
const trials = flags.trials.split(",").map((trial) => trial.trim())
for (const trial of trials) {
  if (!["database", "outage", "hang", "kill"].includes(trial)) throw new Error(`--trials: database, outage, hang, kill; got ${trial}`)
}
const postCount = Number(flags.posts)
const downMs = Number(flags.down) * 1000
const hangMs = Number(flags.hang) * 1000
const kills = Number(flags.kills)
const settleMs = Number(flags.settle) * 1000
if (!Number.isInteger(postCount) || postCount < 1 || postCount > 500) throw new Error(`--posts: 1 to 500, got ${flags.posts}`)
if (!(downMs >= 1000 && downMs <= 600_000)) throw new Error(`--down: 1 to 600 s, got ${flags.down}`)
if (!(hangMs >= 1000 && hangMs <= 600_000)) throw new Error(`--hang: 1 to 600 s, got ${flags.hang}`)
if (!Number.isInteger(kills) || kills < 1 || kills > 200) throw new Error(`--kills: 1 to 200, got ${flags.kills}`)
if ((trials.includes("database") || trials.includes("kill")) && !postgresAnswers()) {
  throw new Error("the database and kill trials need PostgreSQL at HERALD_BENCH_DATABASE_URL (or drop them from --trials)")
}
const random = seeded(flags.seed)

const networks = ["x", "threads", "linkedin", "facebook", "bluesky", "mastodon"] as const
/** The networks a thread goes to (`xThread`, or their own `thread` option). */
const threaded = new Set(["x", "bluesky", "mastodon"])

// ---------------------------------------------------------------------------------------------------------------
// A cluster of the run's own, so stopping it stops nothing else.

interface Cluster {
  readonly url: string
  readonly stopFast: () => void
  readonly crash: () => void
  readonly start: () => void
  readonly remove: () => void
}

const pgBin = (() => {
  try {
    const versions = execFileSync("ls", ["/usr/lib/postgresql"], { encoding: "utf8" }).trim().split("\n").sort((a, b) => Number(b) - Number(a))
    return `/usr/lib/postgresql/${versions[0]}/bin`
  } catch {
    return ""
  }
})()

const makeCluster = async (): Promise<Cluster> => {
  if (pgBin === "") throw new Error("the database trial needs PostgreSQL's server programs under /usr/lib/postgresql")
  const folder = runFolder("faults-pg")
  const data = join(folder, "data")
  const port = await freePort()
  // initdb and the server refuse to run as root: they run as the `postgres` user when the bench is root.
  const asOwner = (program: string, args: ReadonlyArray<string>) => {
    const root = process.getuid?.() === 0
    execFileSync(root ? "runuser" : program, root ? ["-u", "postgres", "--", program, ...args] : args, {
      stdio: ["ignore", "pipe", "pipe"],
      cwd: "/"
    })
  }
  if (process.getuid?.() === 0) execFileSync("chown", ["postgres", folder])
  asOwner(`${pgBin}/initdb`, ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync"])
  const pgCtl = (...args: ReadonlyArray<string>) =>
    asOwner(`${pgBin}/pg_ctl`, ["-D", data, "-l", join(folder, "server.log"), "-w", ...args])
  const options = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off`
  const startServer = () => pgCtl("-o", options, "start")
  startServer()
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stopFast: () => pgCtl("-m", "fast", "stop"),
    crash: () => pgCtl("-m", "immediate", "stop"),
    start: startServer,
    remove: () => {
      try {
        pgCtl("-m", "immediate", "stop")
      } catch {
        // Already stopped.
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// What the API answered, tallied by status, code and Retry-After.

class Answers {
  readonly counts = new Map<string, number>()
  add(status: number, code: string | undefined, retryAfter: string | null) {
    const key = `${status}${code === undefined ? "" : ` ${code}`}${status >= 500 ? (retryAfter === null ? " (no Retry-After)" : " + Retry-After") : ""}`
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1)
  }
  addFailure(what: string) {
    this.counts.set(what, (this.counts.get(what) ?? 0) + 1)
  }
  get total() {
    return [...this.counts.values()].reduce((sum, count) => sum + count, 0)
  }
  toString() {
    return [...this.counts].sort((a, b) => b[1] - a[1]).map(([key, count]) => `${count} × ${key}`).join(", ") || "none"
  }
}

const tally = async (answers: Answers, request: Promise<Response>) => {
  try {
    const answer = await request
    const text = await answer.text()
    let code: string | undefined
    try {
      code = (JSON.parse(text) as { error?: { code?: string } }).error?.code
    } catch {
      code = answer.status >= 400 ? "(not JSON)" : undefined
    }
    answers.add(answer.status, code, answer.headers.get("retry-after"))
  } catch (error) {
    answers.addFailure(`no answer (${(error as Error).name})`)
  }
}

// ---------------------------------------------------------------------------------------------------------------
// One trial's Herald, posts and count.

interface Post {
  readonly id: string
  readonly marker: string
  readonly thread: ReadonlyArray<string>
  readonly to: ReadonlyArray<string>
}

interface Row {
  readonly network: string
  readonly target: Target | undefined
  readonly copies: number
  readonly partsTwice: number
  readonly partsMissing: number
}

interface Workspace {
  readonly key: string
  readonly accounts: Map<string, { id: string; username: string }>
}

const workspaceOf = (started: any): Workspace => {
  const firstRun = started.firstRun
  if (firstRun === null) throw new Error("the first start made no Demo workspace")
  const accounts = new Map<string, { id: string; username: string }>()
  for (const account of firstRun.accounts as Array<{ id: string; platform: string; username: string }>) accounts.set(account.platform, account)
  for (const network of networks) if (!accounts.has(network)) throw new Error(`no ${network} sandbox account in the Demo workspace`)
  return { key: firstRun.key.key as string, accounts }
}

const apiOf = (base: string, key: string) => (path: string, init: RequestInit = {}) =>
  fetch(`${base}/api/v1${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, ...init.headers },
    signal: AbortSignal.timeout(30_000)
  })

/** Creates post `index`: text with a first comment to `to`, every other one a thread of three. */
const createPost = async (
  api: ReturnType<typeof apiOf>,
  workspace: Workspace,
  run: string,
  index: number,
  to: ReadonlyArray<string>,
  answers: Answers
): Promise<Post | undefined> => {
  const marker = `fa${run}n${String(index).padStart(4, "0")}`
  const thread = index % 2 === 0 ? [`${marker} 2/`, `${marker} 3/`] : []
  const body = {
    content: `Faults ${marker} 1/`,
    firstComment: `${marker} first comment`,
    ...(thread.length > 0 ? { xThread: thread, platformOptions: { mastodon: { thread }, bluesky: { thread } } } : {}),
    accountIds: to.map((network) => workspace.accounts.get(network)!.id),
    ...(random() < 0.5 ? { publishNow: true } : { scheduledAt: new Date(Date.now() + 500 + random() * 2_500).toISOString() })
  }
  try {
    const answer = await api("/posts", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
    const text = await answer.text()
    let code: string | undefined
    try {
      code = (JSON.parse(text) as { error?: { code?: string } }).error?.code
    } catch {
      code = undefined
    }
    answers.add(answer.status, code, answer.headers.get("retry-after"))
    if (answer.status === 200 || answer.status === 201) {
      return { id: (JSON.parse(text) as { data: { id: string } }).data.id, marker, thread, to }
    }
  } catch (error) {
    answers.addFailure(`no answer (${(error as Error).name})`)
  }
  return undefined
}

/** Waits for the posts to end, reads what the networks hold and counts each target. */
const count = async (base: string, workspace: Workspace, posts: ReadonlyArray<Post>) => {
  const api = apiOf(base, workspace.key)
  const settling = await settle(api, settleMs, 2_000)
  const held = new Holdings(networks)
  await held.read(base, workspace.key)
  const rows: Array<Row> = []
  for (const post of posts) {
    const answer = await api(`/posts/${post.id}`)
    const targets = answer.status === 200 ? (await answer.json() as { data: { targets: Array<Target> } }).data.targets : []
    for (const network of post.to) {
      const username = workspace.accounts.get(network)!.username
      const target = targets.find((one) => one.platform === network)
      const parts = held.parts(network, post.marker, username)
      const expected = [`${post.marker} first comment`, ...(threaded.has(network) ? post.thread : [])]
      rows.push({
        network,
        target,
        copies: held.roots(network, post.marker, username).length,
        partsTwice: [...parts.values()].filter((times) => times > 1).length,
        partsMissing: target?.status === "published" ? expected.filter((text) => !parts.has(text)).length : 0
      })
    }
  }
  return { rows, settling }
}

const report = (name: string, rows: ReadonlyArray<Row>, settling: { settled: boolean; inMs: number }) => {
  const lost = (row: Row) => row.target === undefined
  const duplicated = (row: Row) => row.copies > 1 || row.partsTwice > 0
  const wronglyFailed = (row: Row) => row.target?.status === "failed" && row.copies > 0
  const failed = (row: Row) => row.target?.status === "failed"
  const missing = (row: Row) => row.partsMissing > 0
  const stuck = (row: Row) => row.target?.status === "pending"
  const columns = [
    ["targets", () => true],
    ["published", (row: Row) => row.target?.status === "published"],
    ["failed", failed],
    ["lost", lost],
    ["duplicated", duplicated],
    ["wrongly-failed", wronglyFailed],
    ["parts-missing", missing],
    ["stuck", stuck]
  ] as const
  console.log(`  ${"network".padEnd(10)} ${columns.map(([label]) => label.padStart(label.length)).join("  ")}`)
  for (const network of networks) {
    const mine = rows.filter((row) => row.network === network)
    if (mine.length === 0) continue
    console.log(`  ${network.padEnd(10)} ${columns.map(([label, test]) => String(mine.filter(test).length).padStart(label.length)).join("  ")}`)
  }
  const total = (test: (row: Row) => boolean) => rows.filter(test).length
  const line = `${name}: lost ${total(lost)}, duplicated ${total(duplicated)}, failed although on the network ${total(wronglyFailed)}, ` +
    `parts missing ${total(missing)}, stuck ${total(stuck)}, failed ${total(failed)} of ${rows.length}; ` +
    (settling.settled ? `settled ${Math.round(settling.inMs / 1000)} s after the fault` : `NOT settled within ${flags.settle} s`)
  console.log(line)
  const reasons = new Map<string, number>()
  for (const row of rows) {
    if (row.target?.status !== "failed") continue
    const reason = `${row.network}: ${(row.target.error ?? "").replace(/@\S+/g, "@…").slice(0, 180)}`
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1)
  }
  for (const [reason, times] of reasons) console.log(`    failed ×${times}: ${reason}`)
  return line
}

/** Warnings and errors a process logged since `from` (a byte offset of its log), by message. */
const warnings = (log: string, from = 0) => {
  const text = readFileSync(log, "utf8").slice(from)
  const lines = text.split("\n").filter((line) => /level=(WARN|ERROR|FATAL)/.test(line))
  return { lines: lines.length, byMessage: byMessage(lines), stackLines: text.split("\n").filter((line) => /^\s+at /.test(line)).length }
}
const printWarnings = (found: ReturnType<typeof warnings>, perMinuteOf: number) => {
  console.log(`  log: ${found.lines} warning or error lines (${(found.lines / Math.max(perMinuteOf / 60_000, 1 / 60)).toFixed(0)} a minute of fault), ${found.stackLines} stack-trace lines`)
  for (const [message, { count }] of [...found.byMessage].sort((a, b) => b[1].count - a[1].count).slice(0, 6)) {
    console.log(`    ×${count}: ${message.slice(0, 160)}`)
  }
}

const run = Math.random().toString(36).slice(2, 7)
const summary: Array<string> = []

/** Posts `postCount` posts, one every `gapMs`, while `fault` runs; answers the posts made. */
const postDuring = async (
  api: ReturnType<typeof apiOf>,
  workspace: Workspace,
  tag: string,
  to: ReadonlyArray<string>,
  gapMs: number,
  answers: Answers
) => {
  const posts: Array<Post> = []
  for (let index = 0; index < postCount; index++) {
    const made = await createPost(api, workspace, `${run}${tag}`, index, to, answers)
    if (made !== undefined) posts.push(made)
    await sleep(gapMs)
  }
  return posts
}

// ---------------------------------------------------------------------------------------------------------------

const databaseTrial = async () => {
  console.log(`\n# database: PostgreSQL stopped fast, then crashed, ${flags.down} s each, while ${postCount} posts go out`)
  const cluster = await makeCluster()
  const folder = runFolder("faults-database")
  try {
    const port = await freePort()
    const herald = await start(folder, "herald", { PORT: String(port), DATABASE_URL: cluster.url })
    const base = `http://127.0.0.1:${port}`
    const workspace = workspaceOf(herald.started)
    const api = apiOf(base, workspace.key)
    const creates = new Answers()
    const during = new Answers()
    const after = new Answers()
    // Set by the fault's timeline below, read by the probe as it sends.
    let phase = "before" as "before" | "during" | "after"
    const probes: Array<string> = []
    let probing = true
    // Reads and a create every 250 ms, through the whole trial; tallied by the phase each was sent in.
    const probe = (async () => {
      while (probing) {
        const into = phase === "during" ? during : phase === "after" ? after : undefined
        const requests = [
          api("/accounts"),
          api("/posts?limit=5"),
          api("/posts", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ content: `probe ${run}`, accountIds: [workspace.accounts.get("linkedin")!.id], scheduledAt: new Date(Date.now() + 86_400_000).toISOString() })
          })
        ]
        await Promise.all(requests.map((request, index) => {
          // The probe's own posts are deleted afterwards, so they do not keep the run from settling.
          const kept = index === 2 ? request.then((r) => r.clone().json().then((body: any) => body?.data?.id && probes.push(body.data.id), () => undefined), () => undefined) : undefined
          return Promise.all([kept, into === undefined ? request.then((r) => r.text(), () => undefined) : tally(into, request)])
        }))
        await sleep(250)
      }
    })()
    let logFrom = 0
    const faults = (async () => {
      for (const [how, act] of [["stopped fast", cluster.stopFast], ["crashed", cluster.crash]] as const) {
        await sleep(4_000)
        logFrom = Math.max(logFrom, readFileSync(herald.log, "utf8").length)
        act()
        phase = "during"
        console.log(`  PostgreSQL ${how}`)
        await sleep(downMs)
        cluster.start()
        phase = "after"
        console.log(`  PostgreSQL started again`)
        await sleep(10_000)
      }
    })()
    const posts = await postDuring(api, workspace, "d", networks, Math.max(250, (2 * (downMs + 14_000)) / postCount), creates)
    await faults
    probing = false
    await probe
    for (const id of probes) await api(`/posts/${id}`, { method: "DELETE" }).then((r) => r.text(), () => undefined)
    const { rows, settling } = await count(base, workspace, posts)
    console.log(`  creates: ${creates}`)
    console.log(`  answers while the database was down: ${during}`)
    console.log(`  answers in the 10 s after it was back: ${after}`)
    printWarnings(warnings(herald.log, logFrom), 2 * downMs)
    summary.push(report("database", rows, settling))
    summary.push(`database: answers while down: ${during}; after: ${after}`)
    await stop(herald.child)
  } finally {
    cluster.remove()
  }
}

/** The outage and hang trials: one embedded Herald whose networks are reached through a forwarder. */
const networkTrial = async (kind: "outage" | "hang") => {
  const faultMs = kind === "outage" ? downMs : hangMs
  console.log(`\n# ${kind}: the networks ${kind === "outage" ? "refuse every connection" : "take connections and answer nothing"} for ${faultMs / 1000} s, while ${postCount} posts go out`)
  const folder = runFolder(`faults-${kind}`)
  const port = await freePort()
  const forwardPort = await freePort()
  const forwarder = new Forwarder("both")
  await forwarder.listen(forwardPort, port)
  const herald = await start(folder, "herald", { PORT: String(port), BASE_URL: `http://127.0.0.1:${forwardPort}`, HERALD_DATA_DIR: join(folder, "data") })
  const base = `http://127.0.0.1:${port}`
  const workspace = workspaceOf(herald.started)
  const api = apiOf(base, workspace.key)
  const creates = new Answers()
  const logFrom = readFileSync(herald.log, "utf8").length
  const ready = new Map<string, number>()
  let watching = true
  const watch = (async () => {
    while (watching) {
      try {
        const answer = await fetch(`${base}/ready`, { signal: AbortSignal.timeout(10_000) })
        const body = await answer.text()
        const said = `${answer.status} ${body.replace(/"(checkedAt|at|since|ms|uptime\w*)":[^,}]*,?/g, "").slice(0, 300)}`
        ready.set(said, (ready.get(said) ?? 0) + 1)
      } catch (error) {
        ready.set(`no answer (${(error as Error).name})`, (ready.get(`no answer (${(error as Error).name})`) ?? 0) + 1)
      }
      await sleep(2_000)
    }
  })()
  // The posts start with the fault and go on through it; the path heals after `faultMs`.
  if (kind === "outage") forwarder.refuse()
  else forwarder.hang()
  const began = Date.now()
  const healing = sleep(faultMs).then(() => {
    forwarder.heal()
    console.log(`  healed after ${Math.round((Date.now() - began) / 1000)} s`)
  })
  const posts = await postDuring(api, workspace, kind[0]!, networks, Math.max(250, (faultMs * 0.8) / postCount), creates)
  await healing
  watching = false
  await watch
  const { rows, settling } = await count(base, workspace, posts)
  console.log(`  creates: ${creates}; forwarder: ${forwarder.connections} connections, ${forwarder.refused} refused, ${forwarder.dropped} dropped`)
  console.log(`  /ready said (every 2 s):`)
  for (const [said, times] of ready) console.log(`    ×${times}: ${said}`)
  printWarnings(warnings(herald.log, logFrom), faultMs)
  summary.push(report(kind, rows, settling))
  await stop(herald.child)
  forwarder.close()
}

const killTrial = async () => {
  console.log(`\n# kill: two processes on PostgreSQL, one SIGKILLed ${kills} times while threads with first comments go out`)
  const database = databaseName()
  createDatabase(database)
  const folder = runFolder("faults-kill")
  try {
    const steadyPort = await freePort()
    const killedPort = await freePort()
    const env = (port: number) => ({
      PORT: String(port),
      DATABASE_URL: databaseUrl(database),
      BASE_URL: `http://127.0.0.1:${steadyPort}`
    })
    const steady = await start(folder, "steady", env(steadyPort))
    const workspace = workspaceOf(steady.started)
    let killed: { child: ChildProcess } = await start(folder, "killed-0", env(killedPort))
    const base = `http://127.0.0.1:${steadyPort}`
    const api = apiOf(base, workspace.key)
    const creates = new Answers()
    let killing = true
    const killer = (async () => {
      for (let round = 1; round <= kills && killing; round++) {
        await sleep(2_000 + random() * 4_000)
        killed.child.kill("SIGKILL")
        await sleep(500)
        killed = await start(folder, `killed-${round}`, env(killedPort))
      }
    })()
    const posts = await postDuring(api, workspace, "k", ["x", "bluesky", "mastodon"], Math.max(250, (kills * 5_000) / postCount), creates)
    await killer
    killing = false
    const { rows, settling } = await count(base, workspace, posts)
    console.log(`  creates: ${creates}`)
    await stop(killed.child)
    await stop(steady.child)
    // The cluster's shard handoffs (a restarted process joining, each graceful stop) in the processes' logs.
    const logs = readdirSync(folder).filter((name) => name.endsWith(".log")).map((name) => readFileSync(join(folder, name), "utf8"))
    const releaseLines = logs.flatMap((log) => log.split("\n")).filter((line) => line.includes("Could not release shards"))
    console.log(`  shard release warnings: ${releaseLines.length} lines over ${logs.length} process logs`)
    if (releaseLines.length > 0) console.log(`  the first: ${releaseLines[0]!.slice(0, 1500)}`)
    summary.push(`${report("kill", rows, settling)}; ${releaseLines.length} shard release warning lines`)
  } finally {
    dropDatabase(database)
  }
}

console.log(`bench/faults on ${revision()}, seed ${flags.seed}, ${postCount} posts a trial`)
const began = Date.now()
for (const trial of trials) {
  try {
    if (trial === "database") await databaseTrial()
    else if (trial === "kill") await killTrial()
    else await networkTrial(trial as "outage" | "hang")
  } catch (error) {
    summary.push(`${trial}: the trial did not finish: ${(error as Error).message.slice(0, 400)}`)
    console.log(`  ${trial} did not finish: ${(error as Error).stack}`)
    for (const folder of folders) {
      try {
        for (const name of ["herald.log", "steady.log"]) console.log(tail(join(folder, name), 15))
      } catch {
        // No such log in this folder.
      }
    }
  }
}
console.log(`\nfaults: ${Math.round((Date.now() - began) / 1000)} s in all`)
for (const line of summary) console.log(line)
