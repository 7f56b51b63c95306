// bench/posts/compare: two Herald trees measured in one run, phase by phase in turn, each on its own fresh
// PostgreSQL database: creates (3 targets, 50 connections) at 0 and at 100,000 scheduled posts, then the list
// page (10 connections). On a shared machine the load moves from one phase to the next; alternating the two
// trees, several rounds, lets a change be read against the code before it in the same conditions. Prints
// the CPU per unit of each tree's Herald process and of its database's client backends.
//
//   node bench/posts/compare.ts <before-tree> [after-tree, default this one]   (BENCH_SECONDS 5, BENCH_ROUNDS 2)
//
// BENCH_PHASES=list measures the list page alone (its page is the warm-up's creates either way), for a change
// to the list that need not wait for the creates' phases and the seeding.
//
// A tree is a checkout with its dependencies installed, e.g. `git worktree add` of an earlier commit with
// this tree's node_modules folders copied beside its packages.
import autocannon from "autocannon"
import { spawn } from "node:child_process"
import { closeSync, openSync } from "node:fs"
import { join, resolve } from "node:path"
import { createInterface } from "node:readline"
import { children, createDatabase, databaseName, databaseUrl, processCpu, psql, runFolder, stop } from "../harness.ts"
import { seedScheduled } from "./seed.ts"

const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const rounds = Number(process.env.BENCH_ROUNDS ?? 2)
const creating = process.env.BENCH_PHASES !== "list"
const trees = { before: resolve(process.argv[2]!), after: resolve(process.argv[3] ?? join(import.meta.dirname, "../..")) }
const folder = runFolder("posts-compare")

const load = (options: autocannon.Options) =>
  new Promise<autocannon.Result>((done, reject) => autocannon(options, (error, result) => error ? reject(error) : done(result)))

/** CPU seconds of the database's client connections, by pid; a connection gone in between reads NaN and is left out. */
const backendCpu = (url: string) => {
  const used = new Map<number, number>()
  const pids = psql(url, `
    SELECT pid FROM pg_stat_activity
    WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()`)
  for (const pid of pids.split("\n").filter((line) => line !== "").map(Number)) {
    const cpu = processCpu(pid)
    if (!Number.isNaN(cpu)) used.set(pid, cpu)
  }
  return used
}
const backendsSince = (url: string, before: Map<number, number>) => {
  let total = 0
  for (const [pid, used] of backendCpu(url)) total += used - (before.get(pid) ?? 0)
  return total
}

const startTree = async (name: keyof typeof trees) => {
  const database = databaseName()
  createDatabase(database)
  const url = databaseUrl(database)
  const log = openSync(join(folder, `${name}.log`), "w")
  const child = spawn(process.execPath, [join(trees[name], "apps/cli/src/bin.ts"), "start", "--json"], {
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      HERALD_SANDBOX: "true",
      HERALD_RATE_LIMIT_PER_MINUTE: "1000000000",
      HERALD_SECRET_KEY: "22".repeat(32),
      HERALD_DATA_DIR: join(folder, `${name}-data`),
      DATABASE_URL: url,
      BASE_URL: "",
      HERALD_ROLE: "all"
    },
    stdio: ["ignore", "pipe", log]
  })
  closeSync(log)
  children.add(child)
  const started = JSON.parse(await new Promise<string>((done) => createInterface({ input: child.stdout! }).once("line", done)))
  const accountIds = started.firstRun.accounts
    .filter((account: any) => ["x", "threads", "linkedin"].includes(account.platform))
    .map((account: any) => account.id)
  const headers = { authorization: `Bearer ${started.firstRun.key.key}`, "content-type": "application/json" }
  return { name, child, url, base: started.listening as string, headers, accountIds, workspaceId: started.firstRun.workspace.id as string }
}
type Tree = Awaited<ReturnType<typeof startTree>>

const creates = (tree: Tree, duration: number): autocannon.Options => ({
  url: `${tree.base}/api/v1/posts`,
  method: "POST",
  headers: tree.headers,
  body: JSON.stringify({ content: "Benchmark post", accountIds: tree.accountIds, scheduledAt: new Date(Date.now() + 2 * 86_400_000).toISOString() }),
  connections: 50,
  duration
})
const pages = (tree: Tree, duration: number, limit = 20): autocannon.Options => ({
  url: `${tree.base}/api/v1/posts?limit=${limit}&status=scheduled`,
  headers: tree.headers,
  connections: 10,
  duration
})

const phase = async (tree: Tree, options: autocannon.Options) => {
  const herald = processCpu(tree.child.pid)
  const postgres = backendCpu(tree.url)
  const result = await load(options)
  const count = result["2xx"]
  return {
    rate: count / seconds,
    herald: ((processCpu(tree.child.pid) - herald) * 1e6) / count,
    postgres: (backendsSince(tree.url, postgres) * 1e6) / count
  }
}

/** 100,000 scheduled posts with 3 targets, and a cluster message each if the tree's creates left any to copy. */
const seed = (tree: Tree, count: number) => seedScheduled(tree.url, tree.workspaceId, count, true)

const row = (label: string, run: Awaited<ReturnType<typeof phase>>) =>
  `${label.padEnd(30)} ${run.rate.toFixed(0).padStart(5)}/s   herald ${run.herald.toFixed(0).padStart(5)} µs + postgres ${
    run.postgres.toFixed(0).padStart(5)
  } µs per unit`

console.log(`posts compare: before ${trees.before}, after ${trees.after}; ${rounds} rounds of ${seconds} s phases, in turn`)
const both = [await startTree("before"), await startTree("after")]
for (const tree of both) {
  await load(creates(tree, 3))
  await load(pages(tree, 2))
}
if (creating) {
  for (let round = 0; round < rounds; round++) {
    for (const tree of both) console.log(row(`create, 0 scheduled, ${tree.name}`, await phase(tree, creates(tree, seconds))))
  }
  for (const tree of both) seed(tree, 100_000)
  for (let round = 0; round < rounds; round++) {
    for (const tree of both) console.log(row(`create, 100k scheduled, ${tree.name}`, await phase(tree, creates(tree, seconds))))
  }
}
// A page of one post beside each page of 20, in the same turn: what a request costs whatever its posts, so
// that the 19 posts more read as their own cost (and as a ratio that the machine's load moves less).
for (let round = 0; round < rounds; round++) {
  for (const tree of both) {
    const twenty = await phase(tree, pages(tree, seconds))
    const one = await phase(tree, pages(tree, seconds, 1))
    console.log(`${row(`list page, ${tree.name}`, twenty)}   (${(twenty.herald / one.herald).toFixed(2)} of a page of 1)`)
    console.log(row(`list page of 1, ${tree.name}`, one))
  }
}
for (const tree of both) await stop(tree.child)
process.exit(0)
