// bench/metrics: what one scrape of GET /metrics costs (decision 0049). Herald on PostgreSQL with
// HERALD_METRICS_TOKEN, first with no scheduled posts, then with `--posts` (100,000) scheduled over the next
// week; at each size, `--scrapes` (300) sequential scrapes beside the same number of GET /health (the anchor:
// a route that does nothing) on the same server. Prints CPU per scrape of Herald's process and of the
// database's backends, the ratio to /health, the exposition's size, and the count's plan and time. Scrapes
// are sequential because Prometheus sends one per interval (15 s by default): the cost per scrape is the
// figure, not how many a second fit.
//
//   pnpm exec node bench/metrics/run.ts [--posts 100000] [--scrapes 300]
//   (HERALD_BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test, is where the database is made)
import { parseArgs } from "node:util"
import {
  createDatabase,
  databaseName,
  databaseUrl,
  postgresAnswers,
  processCpu,
  psql,
  runFolder,
  sleep,
  start,
  stop,
  tail
} from "../harness.ts"

const { values: flags } = parseArgs({
  options: { posts: { type: "string", default: "100000" }, scrapes: { type: "string", default: "300" } }
})
const posts = Number(flags.posts)
const scrapes = Number(flags.scrapes)
if (!postgresAnswers()) throw new Error("bench/metrics runs on PostgreSQL: set HERALD_BENCH_DATABASE_URL to a server's admin URL")

const token = "bench-metrics-token-0123456789"
const database = databaseName()
createDatabase(database)
const url = databaseUrl(database)
const herald = await start(runFolder("metrics"), "herald", { DATABASE_URL: url, HERALD_METRICS_TOKEN: token })
const base = herald.started.listening as string
const key = herald.started.firstRun.key.key as string
const pid = herald.child.pid

/**
 * CPU seconds of this database's backends (Herald's connections to it), by pid: other work on the same
 * PostgreSQL server (the machine is shared) is not counted.
 */
const backendsCpu = () => {
  const pids = psql(url, `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)
    .trim().split("\n").filter((line) => line !== "")
  return new Map(pids.map((backend) => [backend, processCpu(Number(backend))]))
}
const backendsSince = (before: Map<string, number>) => {
  let total = 0
  for (const [backend, used] of backendsCpu()) total += used - (before.get(backend) ?? 0)
  return total
}

/** CPU of Herald's process and of its database backends per request, over `scrapes` sequential requests. */
const measure = async (path: string, headers: Record<string, string>) => {
  let bytes = 0
  // A few first, so that lazy set-up (prepared statements, series registered) is not counted.
  for (let i = 0; i < 10; i++) await (await fetch(`${base}${path}`, { headers })).text()
  const cpu = processCpu(pid)
  const postgres = backendsCpu()
  const started = performance.now()
  for (let i = 0; i < scrapes; i++) {
    const answer = await fetch(`${base}${path}`, { headers })
    if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}`)
    bytes = (await answer.text()).length
  }
  return {
    herald: (processCpu(pid) - cpu) / scrapes,
    postgres: backendsSince(postgres) / scrapes,
    wall: (performance.now() - started) / scrapes / 1000,
    bytes
  }
}

/** `count` copies of one scheduled post, spread evenly over the next week (none due during the run). */
const schedule = async (count: number) => {
  const created = await fetch(`${base}/api/v1/posts`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ content: "Model", accountIds: [herald.started.firstRun.accounts[0].id], scheduledAt: new Date(Date.now() + 86_400_000).toISOString() })
  })
  if (created.status !== 200) throw new Error(`create answered ${created.status}: ${await created.text()}`)
  const model = ((await created.json()) as { readonly data: { readonly id: string } }).data.id
  psql(url, `
    INSERT INTO posts SELECT (jsonb_populate_record(p, jsonb_build_object(
      'id', 'pst_bench' || g, 'scheduled_at', now() + interval '2 minutes' + g * (interval '7 days' / ${count}),
      'sort_at', now() + interval '2 minutes' + g * (interval '7 days' / ${count})))).*
    FROM posts p, generate_series(1, ${count - 1}) g WHERE p.id = '${model}';
    ANALYZE posts`)
}

const explain = () =>
  psql(url, `EXPLAIN (ANALYZE, COSTS OFF, TIMING ON) SELECT count(*)::int FROM posts
    WHERE status = 'scheduled' AND scheduled_at < now() + interval '1 hour'`).trim().split("\n")

const micro = (seconds: number) => `${(seconds * 1e6).toFixed(0)} µs`

const report = async (label: string) => {
  const health = await measure("/health", {})
  const metrics = await measure("/metrics", { authorization: `Bearer ${token}` })
  const due = /herald_posts_due_next_hour (\d+)/.exec(await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text())?.[1]
  console.log(`\n${label}: ${scrapes} sequential requests each; posts due within the hour ${due}`)
  console.log(`  GET /health   Herald ${micro(health.herald)}  PostgreSQL ${micro(health.postgres)}  wall ${micro(health.wall)}`)
  console.log(`  GET /metrics  Herald ${micro(metrics.herald)}  PostgreSQL ${micro(metrics.postgres)}  wall ${micro(metrics.wall)}  ${metrics.bytes} bytes`)
  console.log(`  ratio /metrics : /health (Herald CPU) ${(metrics.herald / health.herald).toFixed(1)}`)
  console.log(`  the count: ${explain().filter((line) => /Scan|Execution Time/.test(line)).map((line) => line.trim()).join("; ")}`)
}

try {
  await report("no scheduled posts")
  if (posts > 0) {
    await schedule(posts)
    // psql blocked this process for a while: let the client see the keep-alive sockets the server closed meanwhile.
    await sleep(200)
    await report(`${posts.toLocaleString("en")} scheduled posts over the next week`)
  }
} catch (error) {
  console.error(`${String(error)}\nHerald's log ends:\n${tail(herald.log, 30)}`)
  process.exitCode = 1
}
await stop(herald.child)
