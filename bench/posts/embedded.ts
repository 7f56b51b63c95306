// bench/posts/embedded (run by `pnpm bench:posts --all`): creating posts with 3 targets (50 concurrent clients) and listing them, on the embedded
// database and on PostgreSQL (when 127.0.0.1:5432 answers), then one 500 MB video upload with the server's
// memory watched. Prints its figures.
//
//   pnpm bench:posts --all   (BENCH_SECONDS, BENCH_LIST_POSTS to change the load)
import autocannon from "autocannon"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { closeSync, createReadStream, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { createInterface } from "node:readline"

const root = resolve(import.meta.dirname, "../..")
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const listPosts = Number(process.env.BENCH_LIST_POSTS ?? 100_000)
const children: Array<ChildProcess> = []
process.on("exit", () => children.forEach((child) => child.kill("SIGTERM")))

const start = async (env: Record<string, string>) => {
  const child = spawn(process.execPath, [join(root, "apps/cli/src/bin.ts"), "start", "--json"], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", HERALD_RATE_LIMIT_PER_MINUTE: "1000000000", HERALD_SANDBOX: "true", BASE_URL: "", ...env },
    stdio: ["ignore", "pipe", "inherit"]
  })
  children.push(child)
  const line = await new Promise<string>((resolveLine, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolveLine)
    child.once("exit", (code) => reject(new Error(`herald exited with ${code}`)))
  })
  const started = JSON.parse(line)
  return { child, started, base: started.listening as string, key: started.firstRun.key.key as string }
}

const stop = (child: ChildProcess) => new Promise<void>((done) => { child.once("exit", () => done()); child.kill("SIGTERM") })

const load = (options: autocannon.Options) =>
  new Promise<autocannon.Result>((done, reject) => autocannon(options, (error, result) => error ? reject(error) : done(result)))

const postgresAnswers = () =>
  new Promise<boolean>((done) => {
    const socket = connect(5432, "127.0.0.1")
    socket.once("connect", () => { socket.end(); done(true) })
    socket.once("error", () => done(false))
  })

const rss = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024

const bench = async (name: string, env: Record<string, string>, seed: (workspaceId: string, accountIds: Array<string>) => void) => {
  const { base, child, key, started } = await start(env)
  const accounts = started.firstRun.accounts.filter((account: any) => ["x", "threads", "linkedin"].includes(account.platform))
  const accountIds = accounts.map((account: any) => account.id)
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" }
  const body = JSON.stringify({ content: "Benchmark post", accountIds, scheduledAt: new Date(Date.now() + 86_400_000).toISOString() })
  const creates = await load({ url: `${base}/api/v1/posts`, method: "POST", headers, body, connections: 50, duration: seconds })
  seed(started.firstRun.workspace.id, accountIds)
  // A page's latency with one client at a time, and the throughput of ten clients at once.
  const single = await load({ url: `${base}/api/v1/posts?limit=20&status=scheduled`, headers, connections: 1, duration: seconds })
  const lists = await load({ url: `${base}/api/v1/posts?limit=20&status=scheduled`, headers, connections: 10, duration: seconds })
  console.log(`${name.padEnd(10)} creates ${creates.requests.average.toFixed(0).padStart(6)}/s  p99 ${String(creates.latency.p99).padStart(4)} ms  ` +
    `(${creates["2xx"]} created, ${creates.non2xx + creates.errors} failed)\n${"".padEnd(10)} list page p99 ${single.latency.p99} ms ` +
    `(one client), ${lists.latency.p99} ms with ten clients at ${lists.requests.average.toFixed(0)} pages/s`)
  await stop(child)
}

const embeddedDir = mkdtempSync(join(tmpdir(), "herald-bench-posts-"))
console.log(`posts: 3 targets each, 50 concurrent creators, ${seconds} s per phase, node ${process.version}`)
await bench("embedded", { HERALD_DATA_DIR: embeddedDir, DATABASE_URL: "" }, () => {})

if (await postgresAnswers()) {
  const database = `herald_bench_${Date.now()}`
  const admin = "postgres://postgres@127.0.0.1:5432/test"
  execFileSync("psql", [admin, "-qc", `CREATE DATABASE ${database}`])
  const url = `postgres://postgres@127.0.0.1:5432/${database}`
  await bench("postgres", { DATABASE_URL: url, HERALD_SECRET_KEY: "22".repeat(32), HERALD_DATA_DIR: mkdtempSync(join(tmpdir(), "herald-bench-pg-")) }, (workspaceId, accountIds) => {
    // Bring the workspace to `listPosts` posts with one statement, so the list is measured at that size.
    execFileSync("psql", [url, "-qc", `
      INSERT INTO posts (id, workspace_id, status, content, scheduled_at, sort_at)
      SELECT 'pst_seed' || lpad(n::text, 18, '0'), '${workspaceId}', 'scheduled', 'seeded',
        now() + (n || ' seconds')::interval, now() + (n || ' seconds')::interval
      FROM generate_series(1, ${listPosts}) n;
      INSERT INTO post_targets (post_id, position, account_id, platform, username)
      SELECT 'pst_seed' || lpad(n::text, 18, '0'), 0, '${accountIds[0]}', 'x', 'demo_x' FROM generate_series(1, ${listPosts}) n;`])
    console.log(`postgres   seeded ${listPosts} more posts before listing`)
  })
  execFileSync("psql", [admin, "-qc", `DROP DATABASE ${database} WITH (FORCE)`])
} else {
  console.log("postgres   (no server at 127.0.0.1:5432: skipped)")
}

// One 500 MB video through the upload, streamed from disk, while the server's resident memory is sampled.
const uploadDir = mkdtempSync(join(tmpdir(), "herald-bench-upload-"))
const file = join(uploadDir, "big.mp4")
const handle = openSync(file, "w")
writeSync(handle, Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from("ftypisom"), Buffer.from([0, 0, 2, 0]), Buffer.from("isomiso2")]))
const chunk = Buffer.alloc(1024 * 1024)
for (let written = 0; written < 500; written++) writeSync(handle, chunk)
closeSync(handle)
const { base, child, key } = await start({ HERALD_DATA_DIR: join(uploadDir, "data"), DATABASE_URL: "", HERALD_SANDBOX: "false" })
const before = rss(child.pid!)
let peak = before
const sampler = setInterval(() => { peak = Math.max(peak, rss(child.pid!)) }, 25)
const began = Date.now()
const answer = await fetch(`${base}/api/v1/media?durationMs=60000&width=1920&height=1080`, {
  method: "POST",
  headers: { authorization: `Bearer ${key}`, "content-type": "video/mp4" },
  body: createReadStream(file) as any,
  duplex: "half"
} as RequestInit)
clearInterval(sampler)
console.log(`upload     500 MB video: HTTP ${answer.status} in ${((Date.now() - began) / 1000).toFixed(1)} s; server memory ` +
  `${before.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB (+${(peak - before).toFixed(0)} MB; target < 64 MB)`)
await stop(child)
rmSync(uploadDir, { recursive: true, force: true })
rmSync(embeddedDir, { recursive: true, force: true })
process.exit(0)
