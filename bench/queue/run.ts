// bench/queue: queued creates under load on PostgreSQL (issue 17, "Done when"). One sandbox account, a
// workspace schedule with a slot every 15 minutes of every day, then `--posts` creates with `queued: true`
// from `--clients` concurrent clients, each sending its next create when the previous one answered. With
// `--processes 2`, a second Herald process (HERALD_ROLE=api) shares the database and half the clients send
// to it. Prints the time, the creates per second and their latency, and checks that every create answered
// 200, that the posts' slots are distinct and are exactly the first slots of the schedule from the start
// (`QueueSchedule.upcoming`), and that `queue_seats` holds one row per post. Exits 1 when a check fails.
//
//   pnpm --filter @herald/bench queue [--posts 1000] [--clients 20] [--processes 1,2] [--zone Europe/Berlin]
//   (HERALD_BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test, is where databases are made)
import { parseArgs } from "node:util"
import { QueueSchedule } from "../../packages/domain/src/index.ts"
import {
  admin,
  createDatabase,
  databaseName,
  databaseUrl,
  dropDatabase,
  percentile,
  postgresAnswers,
  processCpu,
  psql,
  revision,
  runFolder,
  sleep,
  start,
  stop
} from "../harness.ts"

const { values: flags } = parseArgs({
  options: {
    posts: { type: "string", default: "1000" },
    clients: { type: "string", default: "20" },
    processes: { type: "string", default: "1,2" },
    // A zone with an offset, so the slots' wall-clock arithmetic is part of what is checked.
    zone: { type: "string", default: "Europe/Berlin" }
  }
})
const postCount = Number(flags.posts)
const clientCount = Number(flags.clients)
const processCounts = flags.processes.split(",").map((count) => Number(count.trim()))
if (!Number.isInteger(postCount) || postCount < 1) throw new Error(`--posts: a whole number, got ${flags.posts}`)
if (!Number.isInteger(clientCount) || clientCount < 1) throw new Error(`--clients: a whole number, got ${flags.clients}`)
if (processCounts.some((count) => count !== 1 && count !== 2)) throw new Error(`--processes: 1, 2 or 1,2; got ${flags.processes}`)
if (!postgresAnswers()) {
  console.error(`bench/queue needs PostgreSQL: nothing answered at ${admin} (set HERALD_BENCH_DATABASE_URL)`)
  process.exit(2)
}

/** Every 15 minutes of every day: 672 slots a week, so 1,000 posts fill about ten days. */
const everyQuarterHour = QueueSchedule.days.flatMap((day) =>
  Array.from({ length: 96 }, (_, quarter) => ({
    day,
    time: `${String(Math.floor(quarter / 4)).padStart(2, "0")}:${String((quarter % 4) * 15).padStart(2, "0")}`
  }))
)

const call = async (base: string, key: string, method: string, path: string, body?: unknown) => {
  const answer = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await answer.text()
  if (answer.status !== 200) throw new Error(`${method} ${path}: HTTP ${answer.status}: ${text.slice(0, 300)}`)
  return JSON.parse(text).data
}

interface Answer {
  readonly status: number
  readonly ms: number
  /** When it answered, in ms from the first create sent. */
  readonly at: number
  readonly scheduledAt: string | undefined
  readonly queued: boolean
  readonly text: string
}

/** `count` queued creates from `clients` clients, client `i` sending to `bases[i % bases.length]`. */
const sendQueued = async (bases: ReadonlyArray<string>, key: string, accountId: string) => {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" }
  const answers: Array<Answer> = []
  const origin = performance.now()
  let next = 0
  const client = async (index: number) => {
    const base = bases[index % bases.length]!
    while (next < postCount) {
      const i = next++
      const sent = performance.now()
      const answer = await fetch(`${base}/api/v1/posts`, {
        method: "POST",
        headers,
        body: JSON.stringify({ content: `Queued ${i}`, accountIds: [accountId], queued: true })
      })
      const text = await answer.text()
      const answered = performance.now()
      const post = answer.status === 200 ? JSON.parse(text).data : undefined
      answers.push({ status: answer.status, ms: answered - sent, at: answered - origin, scheduledAt: post?.scheduledAt, queued: post?.queued === true, text })
    }
  }
  await Promise.all(Array.from({ length: clientCount }, (_, index) => client(index)))
  return answers
}

/** One run on a fresh database; resolves with whether every check held. */
const run = async (processes: number) => {
  const name = databaseName()
  createDatabase(name)
  const url = databaseUrl(name)
  const folder = runFolder("queue")
  const first = await start(folder, "all", { DATABASE_URL: url })
  const second = processes === 2 ? await start(folder, "api", { DATABASE_URL: url, HERALD_ROLE: "api" }) : undefined
  const bases = [first, ...(second === undefined ? [] : [second])].map((started) => started.started.listening as string)
  const key: string = first.started.firstRun.key.key
  const account = first.started.firstRun.accounts.find((entry: any) => entry.platform === "x") ?? first.started.firstRun.accounts[0]

  await call(bases[0]!, key, "PATCH", "/workspace", { timeZone: flags.zone })
  const schedule = await call(bases[0]!, key, "PUT", "/queue/schedule", { slots: everyQuarterHour })
  // The first create must commit before the first slot passes, or the queue rightly starts at the second.
  const soonest = QueueSchedule.upcoming(schedule, schedule.timeZone, new Date(), 1)[0]!
  if (soonest.getTime() - Date.now() < 10_000) await sleep(soonest.getTime() - Date.now() + 1_000)
  const began = Date.now()
  const expected = QueueSchedule.upcoming(schedule, schedule.timeZone, new Date(began), postCount).map((at) => at.toISOString())

  const cpuBefore = [first, second].map((started) => processCpu(started?.child.pid))
  const startedAt = performance.now()
  const answers = await sendQueued(bases, key, account.id)
  const seconds = (performance.now() - startedAt) / 1000
  const cpu = [first, second].flatMap((started, index) => started === undefined ? [] : [processCpu(started.child.pid) - cpuBefore[index]!])
  // The rate in each quarter of the run, by answer order: whether a create costs more as the queue fills.
  const byAnswer = answers.map((answer) => answer.at).sort((a, b) => a - b)
  const quarters = [0, 1, 2, 3].map((quarter) => {
    const from = quarter === 0 ? 0 : byAnswer[Math.floor((quarter * postCount) / 4) - 1]!
    const to = byAnswer[Math.floor(((quarter + 1) * postCount) / 4) - 1]!
    return ((postCount / 4) / ((to - from) / 1000)).toFixed(0)
  })

  const ok = answers.filter((answer) => answer.status === 200)
  const refused = answers.filter((answer) => answer.status !== 200)
  const slots = ok.flatMap((answer) => answer.scheduledAt === undefined ? [] : [new Date(answer.scheduledAt).toISOString()])
  const distinct = [...new Set(slots)].sort()
  const firstDifference = expected.findIndex((at, index) => distinct[index] !== at)
  const latencies = answers.map((answer) => answer.ms).sort((a, b) => a - b)
  const [seatRows, seatSlots, queuedPosts] = psql(url, `
    SELECT (SELECT count(*) FROM queue_seats), (SELECT count(DISTINCT slot_at) FROM queue_seats),
      (SELECT count(*) FROM posts WHERE queued)`).trim().split("|").map(Number)

  const checks = [
    { name: `${postCount} answers 200 with queued: true`, holds: ok.length === postCount && ok.every((answer) => answer.queued) },
    { name: `${postCount} distinct scheduledAt`, holds: distinct.length === postCount },
    { name: `the first ${postCount} slots from the start, in order`, holds: distinct.length === expected.length && firstDifference === -1 },
    { name: `${postCount} rows in queue_seats`, holds: seatRows === postCount && seatSlots === postCount }
  ]
  const label = processes === 1 ? "1 process" : `${processes} processes (HERALD_ROLE=all + api, clients split between them)`
  console.log(`\n${label}, database ${name}`)
  console.log(`  total        ${seconds.toFixed(2)} s for ${answers.length} creates: ${(answers.length / seconds).toFixed(0)} creates/s`)
  console.log(`  by quarter   ${quarters.join(", ")} creates/s (answers 1–${postCount / 4}, …, ${(3 * postCount) / 4 + 1}–${postCount})`)
  console.log(`  herald cpu   ${cpu.map((used) => `${used.toFixed(1)} s`).join(" + ")} over the run (${(cpu.reduce((sum, used) => sum + used, 0) / seconds).toFixed(2)} cores)`)
  console.log(`  latency      p50 ${percentile(latencies, 0.5)!.toFixed(1)} ms, p95 ${percentile(latencies, 0.95)!.toFixed(1)} ms, ` +
    `p99 ${percentile(latencies, 0.99)!.toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`)
  console.log(`  answers      ${ok.length} × 200 (${ok.filter((answer) => answer.queued).length} with queued: true), ${refused.length} other` +
    (refused.length === 0 ? "" : `; first: HTTP ${refused[0]!.status} ${refused[0]!.text.slice(0, 300)}`))
  console.log(`  scheduledAt  ${distinct.length} distinct, from ${distinct[0]} to ${distinct.at(-1)} (${schedule.timeZone}); ` +
    `expected ${expected[0]} to ${expected.at(-1)}` +
    (firstDifference === -1 ? "" : `; first difference at #${firstDifference}: got ${distinct[firstDifference]}, expected ${expected[firstDifference]}`))
  console.log(`  queue_seats  ${seatRows} rows on ${seatSlots} distinct slots; ${queuedPosts} posts with queued = true`)
  for (const check of checks) console.log(`  ${check.holds ? "ok  " : "FAIL"} ${check.name}`)

  await Promise.all([first, second].flatMap((started) => started === undefined ? [] : [stop(started.child)]))
  dropDatabase(name)
  return checks.every((check) => check.holds)
}

console.log(`queue: ${postCount} creates with queued: true to one account, ${clientCount} concurrent clients, a slot every ` +
  `15 minutes every day in ${flags.zone}; PostgreSQL ${psql(admin, "SHOW server_version").trim()}, node ${process.version}, ` +
  `Herald ${revision()}`)
let held = true
for (const processes of processCounts) held = (await run(processes)) && held
process.exit(held ? 0 : 1)
