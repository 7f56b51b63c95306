// bench/killloop: Herald killed at random moments while it publishes, restarted, again and again; then, once
// everything has settled, every target is checked against what the sandbox networks hold:
//   duplicates      a target whose post the network holds more than once
//   stuck           a target still pending when the settling time is up
//   wrongly failed  a target that failed although the network holds its post
// Each round creates one post to all seven sandbox networks (with a video, which Instagram, TikTok and
// YouTube need; TikTok on every other post, as its 6 posts a minute would otherwise keep the run waiting),
// now or a few seconds ahead, waits a random moment and SIGKILLs the process. Loopback only; bounded by
// --kills and --settle. What the networks hold is read from `GET /sandbox/<network>/_posts` of the running
// process (with the Demo workspace's key) just before each kill and after settling, merged by post id (the sandbox keeps its state in the
// database, so the last read holds all of it; the earlier reads cover a sandbox that does not).
//
//   node bench/killloop/run.ts [--kills 100] [--backend embedded|postgres] [--settle 600] [--seed 1]
//   (HERALD_BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test, is where the database is made)
import { readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { parseArgs } from "node:util"
import {
  backendOf,
  createDatabase,
  databaseName,
  databaseUrl,
  dropDatabase,
  type Process,
  runFolder,
  seeded,
  sleep,
  start,
  tail
} from "../harness.ts"
import { failureLines, Holdings, settle, type Target } from "../sandbox.ts"

const { values: flags } = parseArgs({
  options: {
    kills: { type: "string", default: "100" },
    backend: { type: "string", default: "embedded" },
    // How long to wait, after the last kill, for every post to end.
    settle: { type: "string", default: "600" },
    seed: { type: "string", default: String(Date.now() % 100_000) }
  }
})
const kills = Number(flags.kills)
const backend = backendOf(flags.backend)
const settleMs = Number(flags.settle) * 1000
if (!Number.isInteger(kills) || kills < 1 || kills > 1000) throw new Error(`--kills: 1 to 1000, got ${flags.kills}`)
const random = seeded(flags.seed)

const networks = ["x", "threads", "linkedin", "facebook", "instagram", "tiktok", "youtube"] as const
const root = resolve(import.meta.dirname, "../..")
const video = readFileSync(join(root, "apps/server/test/fixtures/video-4s.mp4"))
const folder = runFolder("killloop")
const database = backend === "postgres" ? databaseName() : undefined
const env: Record<string, string> = {
  HERALD_DATA_DIR: join(folder, "data"),
  ...(database === undefined ? {} : { DATABASE_URL: databaseUrl(database) })
}

/** Every post the sandbox networks were seen to hold. */
const held = new Holdings(networks)

const kill = (process: Process) =>
  new Promise<void>((done) => {
    if (process.child.exitCode !== null || process.child.signalCode !== null) return done()
    process.child.once("exit", () => done())
    process.child.kill("SIGKILL")
  })

if (database !== undefined) createDatabase(database)
const begin = Date.now()
let current = await start(folder, "herald-0", env)
const firstRun = current.started.firstRun
if (firstRun === null) throw new Error("the first start made no Demo workspace")
const key = firstRun.key.key as string
const headers = { authorization: `Bearer ${key}` }
const accounts = new Map<string, { id: string; username: string }>()
for (const account of firstRun.accounts as Array<{ id: string; platform: string; username: string }>) {
  accounts.set(account.platform, account)
}
for (const network of networks) if (!accounts.has(network)) throw new Error(`no ${network} sandbox account in the Demo workspace`)

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${current.started.listening}/api/v1${path}`, { ...init, headers: { ...headers, ...init.headers }, signal: AbortSignal.timeout(15_000) })

const upload = await api("/media", { method: "POST", headers: { "content-type": "video/mp4" }, body: new Uint8Array(video) })
if (upload.status !== 200) throw new Error(`upload answered ${upload.status}: ${await upload.text()}`)
const videoId = ((await upload.json()) as { data: { id: string } }).data.id

const run = Math.random().toString(36).slice(2, 7)
/** Created posts: id and the marker their text carries. */
const posts: Array<{ id: string; marker: string; networks: ReadonlyArray<string> }> = []
let refusedCreates = 0
/** Rounds in which a network's account needed reconnecting, so its target was left out. */
const leftOut = new Map<string, number>()
let restartMs = 0

for (let round = 1; round <= kills; round++) {
  // Fixed width, so no marker is the start of another.
  const marker = `kl${run}n${String(round).padStart(4, "0")}`
  // An account the sandbox lost track of (a restart it did not survive) needs reconnecting: left out, and counted.
  const listed = await api("/accounts").then((answer) => answer.json() as Promise<{ data: Array<{ id: string; status: string }> }>)
    .catch(() => ({ data: [] }))
  const unusable = new Set(listed.data.filter((account) => account.status !== "connected").map((account) => account.id))
  const to = networks.filter((network) => (network !== "tiktok" || round % 2 === 0) && !unusable.has(accounts.get(network)!.id))
  for (const network of networks) if (unusable.has(accounts.get(network)!.id)) leftOut.set(network, (leftOut.get(network) ?? 0) + 1)
  const later = random() < 0.5
  const body = {
    content: `Kill loop ${marker}`,
    mediaIds: [videoId],
    youtubeTitle: `Kill loop ${marker}`,
    accountIds: to.map((network) => accounts.get(network)!.id),
    ...(later ? { scheduledAt: new Date(Date.now() + 1_000 + random() * 3_000).toISOString() } : { publishNow: true })
  }
  try {
    const answer = await api("/posts", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
    if (answer.status === 200 || answer.status === 201) {
      posts.push({ id: ((await answer.json()) as { data: { id: string } }).data.id, marker, networks: to })
    } else {
      refusedCreates++
      console.error(`round ${round}: create answered ${answer.status}: ${(await answer.text()).slice(0, 200)}`)
    }
  } catch (error) {
    refusedCreates++
    console.error(`round ${round}: create failed: ${String(error)}`)
  }
  // A random moment: right away, mid-call, mid-processing, or after some posts ended.
  await sleep(random() * 3_000)
  await held.read(current.started.listening, key)
  await kill(current)
  const restarting = Date.now()
  current = await start(folder, `herald-${round}`, env)
  restartMs += Date.now() - restarting
  if (round % 10 === 0) console.error(`${round} kills, ${Math.round((Date.now() - begin) / 1000)} s`)
}

// Settling: every post ended, or the time is up.
const settling = await settle(api, settleMs, 1_000)
const open = settling.settled ? 0 : posts.length
const settledInMs = settling.inMs
await held.read(current.started.listening, key)

const rows: Array<{ post: string; marker: string; target: Target; copies: number }> = []
for (const post of posts) {
  const answer = await api(`/posts/${post.id}`)
  const body = await answer.json() as { data: { targets: Array<Target> } }
  for (const target of body.data.targets) {
    const copies = held.roots(target.platform, post.marker, target.username).length
    rows.push({ post: post.id, marker: post.marker, target, copies })
  }
}
const log = current.log
await kill(current)
if (database !== undefined) dropDatabase(database)

const count = (network: string, test: (row: typeof rows[number]) => boolean) =>
  rows.filter((row) => row.target.platform === network && test(row)).length
const duplicate = (row: typeof rows[number]) => row.copies > 1
const stuck = (row: typeof rows[number]) => row.target.status === "pending"
const wronglyFailed = (row: typeof rows[number]) => row.target.status === "failed" && row.copies > 0
const publishedUnseen = (row: typeof rows[number]) => row.target.status === "published" && row.copies === 0

console.log(
  `killloop: ${kills} SIGKILLs on ${backend} (seed ${flags.seed}), ${posts.length} posts (${refusedCreates} creates refused), ` +
    `${rows.length} targets; restarts took ${Math.round(restartMs / kills)} ms on average; ` +
    (open === 0 ? `settled ${Math.round(settledInMs / 1000)} s after the last kill` : `NOT settled after ${flags.settle} s`) +
    `; ${Math.round((Date.now() - begin) / 1000)} s in all`
)
console.log("network    targets  published  failed  duplicates  stuck  wrongly-failed  published-but-not-seen")
for (const network of networks) {
  const all = count(network, () => true)
  console.log(
    `${network.padEnd(10)} ${String(all).padStart(7)}  ${String(count(network, (row) => row.target.status === "published")).padStart(9)}  ` +
      `${String(count(network, (row) => row.target.status === "failed")).padStart(6)}  ${String(count(network, duplicate)).padStart(10)}  ` +
      `${String(count(network, stuck)).padStart(5)}  ${String(count(network, wronglyFailed)).padStart(14)}  ${String(count(network, publishedUnseen)).padStart(22)}`
  )
}
if (leftOut.size > 0) {
  console.log(`left out (the account needed reconnecting): ${[...leftOut].map(([network, rounds]) => `${network} in ${rounds} rounds`).join(", ")}`)
}
const total = (test: (row: typeof rows[number]) => boolean) => rows.filter(test).length
console.log(`total: duplicates ${total(duplicate)}, stuck ${total(stuck)}, wrongly failed ${total(wronglyFailed)}`)
for (const line of failureLines(rows, wronglyFailed)) console.log(line)
const round = (marker: string) => Number(marker.slice(-4))
for (const network of networks) {
  const failed = rows.filter((row) => row.target.platform === network && row.target.status === "failed").map((row) => round(row.marker))
  if (failed.length > 0) console.log(`  ${network} failed in rounds ${failed.join(", ")}`)
}
for (const row of rows.filter((row) => duplicate(row) || stuck(row) || wronglyFailed(row)).slice(0, 20)) {
  console.log(`  ${row.target.platform} ${row.post} round ${round(row.marker)}: ${row.target.status}, held ${row.copies}×`)
}
if (open !== 0) console.log(tail(log, 20))
