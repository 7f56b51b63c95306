// bench/drops: Herald keeps running while the path to the sandbox networks fails: a forwarder between them
// holds every connection's answers (or everything, `--holding both`) for 0.3 s every 1.5 s and then drops
// every open connection, for `--seconds`, while posts go
// out to all nine networks (text with a first comment and threads, and a video). Then, once every post has
// ended, each target is checked against what the networks hold:
//   duplicates     the network holds the target's post more than once
//   parts twice    a thread reply or the first comment is there more than once
//   wrongly failed the target failed although the network holds its post
//   stuck          the target is still pending when the settling time is up
// Loopback only; bounded by --posts, --seconds and --settle.
//
//   node bench/drops/run.ts [--posts 165] [--seconds 120] [--backend embedded|postgres] [--settle 900] [--seed 1]
//                           [--every 1500] [--hold 300] [--holding answers|both]
import { readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { parseArgs } from "node:util"
import {
  backendOf,
  createDatabase,
  databaseName,
  databaseUrl,
  dropDatabase,
  freePort,
  runFolder,
  seeded,
  sleep,
  start,
  stop,
  tail
} from "../harness.ts"
import { failureLines, Holdings, settle, type Target } from "../sandbox.ts"
import { Forwarder, type Holding } from "./forwarder.ts"

const { values: flags } = parseArgs({
  options: {
    posts: { type: "string", default: "165" },
    seconds: { type: "string", default: "120" },
    backend: { type: "string", default: "embedded" },
    settle: { type: "string", default: "900" },
    seed: { type: "string", default: String(Date.now() % 100_000) },
    every: { type: "string", default: "1500" },
    hold: { type: "string", default: "300" },
    holding: { type: "string", default: "answers" }
  }
})
const postCount = Number(flags.posts)
const seconds = Number(flags.seconds)
const backend = backendOf(flags.backend)
const settleMs = Number(flags.settle) * 1000
const everyMs = Number(flags.every)
const holdMs = Number(flags.hold)
if (!Number.isInteger(postCount) || postCount < 1 || postCount > 2000) throw new Error(`--posts: 1 to 2000, got ${flags.posts}`)
if (!(seconds >= 1 && seconds <= 3600)) throw new Error(`--seconds: 1 to 3600, got ${flags.seconds}`)
if (!(holdMs > 0 && holdMs < everyMs && everyMs <= 60_000)) throw new Error("--hold must be above 0 and below --every (at most 60000 ms)")
const holding = flags.holding as Holding
if (holding !== "answers" && holding !== "both") throw new Error(`--holding: answers or both`)
const random = seeded(flags.seed)

/** The networks a text post goes to (each takes a first comment); a video post goes to these and the three that need one. */
const textNetworks = ["x", "threads", "linkedin", "facebook", "bluesky", "mastodon"] as const
const networks = [...textNetworks, "instagram", "youtube", "tiktok"] as const
const root = resolve(import.meta.dirname, "../..")
const video = readFileSync(join(root, "apps/server/test/fixtures/video-4s.mp4"))
const folder = runFolder("drops")
const database = backend === "postgres" ? databaseName() : undefined
const heraldPort = await freePort()
const forwardPort = await freePort()

// The networks are reached through the forwarder: Herald's public address (where its sandbox networks live,
// and where they fetch media from) is the forwarder's, which passes everything on to Herald's own port.
const forwarder = new Forwarder(holding)
await forwarder.listen(forwardPort, heraldPort)
if (database !== undefined) createDatabase(database)
const begin = Date.now()
const herald = await start(folder, "herald", {
  PORT: String(heraldPort),
  BASE_URL: `http://127.0.0.1:${forwardPort}`,
  HERALD_DATA_DIR: join(folder, "data"),
  ...(database === undefined ? {} : { DATABASE_URL: databaseUrl(database) })
})
const firstRun = herald.started.firstRun
if (firstRun === null) throw new Error("the first start made no Demo workspace")
const direct = `http://127.0.0.1:${heraldPort}`
const headers = { authorization: `Bearer ${firstRun.key.key as string}` }
const accounts = new Map<string, { id: string; username: string }>()
for (const account of firstRun.accounts as Array<{ id: string; platform: string; username: string }>) accounts.set(account.platform, account)
for (const network of networks) if (!accounts.has(network)) throw new Error(`no ${network} sandbox account in the Demo workspace`)

// The bench's own requests go to Herald directly: only the path to the networks fails.
const api = (path: string, init: RequestInit = {}) =>
  fetch(`${direct}/api/v1${path}`, { ...init, headers: { ...headers, ...init.headers }, signal: AbortSignal.timeout(30_000) })

const upload = await api("/media", { method: "POST", headers: { "content-type": "video/mp4" }, body: new Uint8Array(video) })
if (upload.status !== 200) throw new Error(`upload answered ${upload.status}: ${await upload.text()}`)
const videoId = ((await upload.json()) as { data: { id: string } }).data.id

const run = Math.random().toString(36).slice(2, 7)
const posts: Array<{ id: string; marker: string; networks: ReadonlyArray<string> }> = []
let refusedCreates = 0
let videoPosts = 0

/** Post `index`: text with a first comment (every third with threads), or a video (TikTok on every fourth, its 6 posts a minute). */
const bodyOf = (index: number, marker: string) => {
  const ids = (list: ReadonlyArray<string>) => list.map((network) => accounts.get(network)!.id)
  if (index % 2 === 0) {
    const threaded = index % 6 === 0
    const thread = threaded ? [`${marker} 2/`, `${marker} 3/`] : []
    return {
      body: {
        content: `Drops ${marker} 1/`,
        firstComment: `${marker} first comment`,
        ...(threaded ? { xThread: thread, platformOptions: { mastodon: { thread }, bluesky: { thread } } } : {}),
        accountIds: ids(textNetworks)
      },
      networks: textNetworks
    }
  }
  const to = [...textNetworks, "instagram", "youtube", ...(videoPosts++ % 4 === 0 ? ["tiktok"] : [])]
  return {
    body: { content: `Drops ${marker} video`, mediaIds: [videoId], youtubeTitle: `Drops ${marker}`, accountIds: ids(to) },
    networks: to
  }
}

forwarder.startDropping(everyMs, holdMs)
const dropsBegan = Date.now()
const gapMs = (seconds * 1000) / postCount
for (let index = 0; index < postCount; index++) {
  // Fixed width, so no marker is the start of another.
  const marker = `dr${run}n${String(index).padStart(4, "0")}`
  const { body, networks: to } = bodyOf(index, marker)
  // Now, or up to three seconds ahead, so steps of many posts meet the drops at every moment.
  const timing = random() < 0.5 ? { publishNow: true } : { scheduledAt: new Date(Date.now() + 1_000 + random() * 2_000).toISOString() }
  try {
    const answer = await api("/posts", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ...body, ...timing }) })
    if (answer.status === 200 || answer.status === 201) {
      posts.push({ id: ((await answer.json()) as { data: { id: string } }).data.id, marker, networks: to })
    } else {
      refusedCreates++
      console.error(`post ${index}: create answered ${answer.status}: ${(await answer.text()).slice(0, 300)}`)
    }
  } catch (error) {
    refusedCreates++
    console.error(`post ${index}: create failed: ${String(error)}`)
  }
  await sleep(Math.max(0, dropsBegan + (index + 1) * gapMs - Date.now()))
}
// The drops go on for the whole window, then the path heals.
await sleep(Math.max(0, dropsBegan + seconds * 1000 - Date.now()))
forwarder.stopDropping()
const droppedFor = Math.round((Date.now() - dropsBegan) / 1000)
console.error(`drops stopped after ${droppedFor} s; settling`)

// Settling: every post ended, or the time is up.
const settling = await settle(api, settleMs, 2_000)
const open = settling.settled ? 0 : posts.length
const settledInMs = settling.inMs
const held = new Holdings(networks)
await held.read(direct, firstRun.key.key as string)

interface Row {
  readonly marker: string
  readonly target: Target
  readonly copies: number
  readonly partsTwice: number
}
const rows: Array<Row> = []
for (const post of posts) {
  const answer = await api(`/posts/${post.id}`)
  const body = await answer.json() as { data: { targets: Array<Target> } }
  for (const target of body.data.targets) {
    const copies = held.roots(target.platform, post.marker, target.username).length
    const partsTwice = [...held.parts(target.platform, post.marker, target.username).values()].filter((count) => count > 1).length
    rows.push({ marker: post.marker, target, copies, partsTwice })
  }
}
await stop(herald.child)
forwarder.close()
if (database !== undefined) dropDatabase(database)

const count = (network: string, test: (row: Row) => boolean) => rows.filter((row) => row.target.platform === network && test(row)).length
const duplicate = (row: Row) => row.copies > 1
const twice = (row: Row) => row.partsTwice > 0
const stuck = (row: Row) => row.target.status === "pending"
const wronglyFailed = (row: Row) => row.target.status === "failed" && row.copies > 0
const unseen = (row: Row) => row.target.status === "published" && row.copies === 0

console.log(
  `drops: ${posts.length} posts (${refusedCreates} creates refused), ${rows.length} targets on ${backend} (seed ${flags.seed}); ` +
    `the path to the networks held ${holding === "both" ? "everything" : "answers"} ${holdMs} ms every ${everyMs} ms and dropped for ${droppedFor} s: ` +
    `${forwarder.rounds} rounds, ${forwarder.connections} connections, ${forwarder.dropped} dropped, ` +
    `${forwarder.answersLost} with an answer lost, ${forwarder.requestsCut} with a request cut; ` +
    (open === 0 ? `settled ${Math.round(settledInMs / 1000)} s after` : `NOT settled after ${flags.settle} s`) +
    `; ${Math.round((Date.now() - begin) / 1000)} s in all`
)
console.log("network    targets  published  failed  duplicates  parts-twice  stuck  wrongly-failed  published-but-not-seen")
for (const network of networks) {
  const cells = [
    count(network, () => true),
    count(network, (row) => row.target.status === "published"),
    count(network, (row) => row.target.status === "failed"),
    count(network, duplicate),
    count(network, twice),
    count(network, stuck),
    count(network, wronglyFailed),
    count(network, unseen)
  ]
  const widths = [7, 9, 6, 10, 11, 5, 14, 22]
  console.log(`${network.padEnd(10)} ${cells.map((cell, index) => String(cell).padStart(widths[index]!)).join("  ")}`)
}
const total = (test: (row: Row) => boolean) => rows.filter(test).length
console.log(`total: duplicates ${total(duplicate)}, parts twice ${total(twice)}, stuck ${total(stuck)}, wrongly failed ${total(wronglyFailed)}`)
for (const line of failureLines(rows, wronglyFailed, 160)) console.log(line)
for (const row of rows.filter((row) => duplicate(row) || twice(row) || stuck(row) || wronglyFailed(row)).slice(0, 20)) {
  console.log(`  ${row.target.platform} ${row.marker}: ${row.target.status}, held ${row.copies}×, parts twice ${row.partsTwice}`)
}
if (open !== 0) console.log(tail(herald.log, 20))
