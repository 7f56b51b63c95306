// bench/takeover: how long the posts of a killed process wait for another to take them over, on PostgreSQL.
// An API process (which serves the sandbox networks) and two workers share one database. Posts with x and
// linkedin targets are scheduled due one second after a worker is killed with SIGKILL; the figures are the
// time from the kill to the survivor's "took over N shards of runner R" line (its own timestamp), and to
// the last of the posts ending (`post_targets.ended_at`), the killed worker's included.
// Then, with --pause, a worker is stopped (SIGSTOP) for that many seconds and resumed: its shards must not move.
//
//   pnpm bench:takeover [--trials 3] [--posts 40] [--pause 1.5]
//   (HERALD_BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test, is where databases are made)
import { readFileSync } from "node:fs"
import { parseArgs } from "node:util"
import {
  createDatabase,
  databaseName,
  databaseUrl,
  dropDatabase,
  postgresAnswers,
  psql,
  runFolder,
  sendCreates,
  sleep,
  start,
  stop,
  waitForShards
} from "../harness.ts"

const { values: flags } = parseArgs({
  options: {
    trials: { type: "string", default: "3" },
    posts: { type: "string", default: "40" },
    pause: { type: "string", default: "1.5" }
  }
})
const trials = Number(flags.trials)
const postCount = Number(flags.posts)
const pauseSeconds = Number(flags.pause)
if (!postgresAnswers()) throw new Error("bench/takeover needs PostgreSQL (HERALD_BENCH_DATABASE_URL)")

const takeoverLine = /timestamp=(\S+) level=INFO .*message="(took over \d+ shards of runner[^"]*)"/

/** The survivor's takeover lines logged after `since`. */
const takeovers = (log: string, since: number) =>
  readFileSync(log, "utf8").split("\n").flatMap((line) => {
    const match = takeoverLine.exec(line)
    if (match === null) return []
    const at = Date.parse(match[1]!)
    return at >= since ? [{ at, message: match[2]! }] : []
  })

const trial = async (index: number) => {
  const name = databaseName()
  createDatabase(name)
  const url = databaseUrl(name)
  const folder = runFolder("takeover")
  const api = await start(folder, "api", { DATABASE_URL: url, HERALD_ROLE: "api" })
  const base = api.started.listening as string
  const key: string = api.started.firstRun.key.key
  const accountIds: Array<string> = api.started.firstRun.accounts
    .filter((account: any) => account.platform === "x" || account.platform === "linkedin")
    .map((account: any) => account.id)
  const workers = await Promise.all(
    ["one", "two"].map((worker) => start(folder, worker, { DATABASE_URL: url, HERALD_ROLE: "worker", BASE_URL: base }))
  )
  await waitForShards(url, 2)

  const victim = workers[index % 2]!
  const survivor = workers[(index + 1) % 2]!
  // Room for the creates on a busy machine: the kill must come before the posts are due.
  const due = Date.now() + 8_000
  const { refused, sample } = await sendCreates(base, key, postCount, (i) => ({
    content: `Takeover ${index} post ${i}`,
    accountIds,
    scheduledAt: new Date(due).toISOString()
  }))
  if (refused > 0) throw new Error(`${refused} posts refused: ${sample}`)
  if (Date.now() > due - 1_000) throw new Error("creating the posts took longer than 7 s; try fewer --posts")
  await sleep(due - 1_000 - Date.now())
  victim.child.kill("SIGKILL")
  const killed = Date.now()

  let ended = ""
  while (Date.now() < killed + 120_000) {
    ended = psql(url, `SELECT count(*) FILTER (WHERE ended_at IS NULL), extract(epoch FROM max(ended_at)) * 1000
      FROM post_targets`).trim()
    if (ended.startsWith("0|")) break
    await sleep(250)
  }
  const [open, lastEnded] = ended.split("|")
  // The survivor looks at its shards once a second, so its line can follow the posts by up to a second.
  let logged = takeovers(survivor.log, killed)
  for (let wait = 0; logged.length === 0 && wait < 20; wait++) {
    await sleep(250)
    logged = takeovers(survivor.log, killed)
  }
  const seconds = (at: number) => ((at - killed) / 1000).toFixed(1)
  console.log(
    `trial ${index + 1}: ${logged.length === 0 ? "no takeover logged" : `"${logged[0]!.message}" ${seconds(logged[0]!.at)} s after the kill`}; ` +
      (open === "0"
        ? `all ${postCount * accountIds.length} targets ended ${seconds(Number(lastEnded))} s after the kill`
        : `${open} targets still open after 120 s`)
  )

  if (pauseSeconds > 0) {
    // The survivor alone now: bring the second worker back, let the shards settle, then freeze one for a while.
    const again = await start(folder, "three", { DATABASE_URL: url, HERALD_ROLE: "worker", BASE_URL: base })
    await waitForShards(url, 2)
    const frozen = Date.now()
    again.child.kill("SIGSTOP")
    await sleep(pauseSeconds * 1000)
    again.child.kill("SIGCONT")
    await sleep(10_000)
    const moved = takeovers(survivor.log, frozen)
    console.log(
      `trial ${index + 1}: a worker frozen for ${pauseSeconds} s: ${
        moved.length === 0 ? "no shard moved" : `shards moved (${moved.map((line) => line.message).join("; ")})`
      }`
    )
    await stop(again.child)
  }
  await Promise.all([stop(survivor.child), stop(api.child)])
  dropDatabase(name)
}

console.log(`takeover: 2 workers and an API process on PostgreSQL, ${postCount} posts of ${2} targets, SIGKILL one worker`)
for (let index = 0; index < trials; index++) await trial(index)
process.exit(0)
