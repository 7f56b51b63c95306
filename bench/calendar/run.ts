// bench/calendar: the console's calendar on a workspace of 100,000 posts. Seeds them on PostgreSQL in SQL (over
// two years around today, a busy next month holding 10,000 more than its share), opens the month view in
// headless Chromium and prints the time from asking for the page to the month's posts on screen, first
// visit and then fresh page loads; and the console's first-load size (index.html and the JS and CSS it loads,
// raw, and gzip and brotli as Herald sends them). Needs PostgreSQL at HERALD_BENCH_DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/test) and Chromium.
//
//   npx -y pnpm@12.21.0 bench:calendar [--posts 100000] [--busy 10000] [--visits 5]
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib"
import buildConsole from "../../apps/console/test/build.ts"
import { chromiumMissing, launchChromium } from "../../apps/console/test/chromium.ts"
import { createDatabase, databaseName, databaseUrl, dropDatabase, postgresAnswers, psql, psqlScript, runFolder, start, stop } from "../harness.ts"

const { values } = parseArgs({
  options: { posts: { type: "string", default: "100000" }, busy: { type: "string", default: "10000" }, visits: { type: "string", default: "5" } }
})
const total = Number(values.posts)
const busy = Number(values.busy)
if (chromiumMissing !== undefined || !postgresAnswers()) {
  console.error(chromiumMissing ?? "no PostgreSQL answers at HERALD_BENCH_DATABASE_URL")
  process.exit(1)
}
await buildConsole()

// What a first visit downloads: index.html and the scripts and stylesheets it names, compressed as
// apps/server/src/http/Console.ts does (gzip level 6, brotli quality 5).
const dist = join(import.meta.dirname, "../../apps/console/dist")
const index = readFileSync(join(dist, "index.html"))
const files = [
  index,
  ...[...index.toString("utf8").matchAll(/(?:src|href)="\/app\/(assets\/[^"]+\.(?:js|css))"/g)].map((match) => readFileSync(join(dist, match[1]!)))
]
const sum = (sizes: ReadonlyArray<number>) => sizes.reduce((all, size) => all + size, 0)
const firstLoad = {
  raw: sum(files.map((file) => file.length)),
  gzip: sum(files.map((file) => gzipSync(file, { level: 6 }).length)),
  brotli: sum(files.map((file) => brotliCompressSync(file, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }).length))
}

const name = databaseName()
createDatabase(name)
const url = databaseUrl(name)
const folder = runFolder("calendar")
const herald = await start(folder, "calendar", { DATABASE_URL: url })
try {
  const { workspace, accounts } = herald.started.firstRun
  const consoleLink: string = herald.started.consoleLink
  const origin = new URL(consoleLink).origin

  // The busy month is next month (UTC, the Demo workspace's zone): `busy` posts in it, then `total - busy`
  // spread over the two years around today. Before tomorrow a post has gone out (published, failed or
  // partly), so the publishing sweep finds nothing due; after, it waits (scheduled, queued, draft, for approval).
  const now = new Date()
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))
  const monthEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1))
  const window = { from: new Date(now.getTime() - 365 * 86_400_000), to: new Date(now.getTime() + 365 * 86_400_000) }
  const batch = 20_000
  const statements: Array<string> = []
  const accountValues = accounts.map((account: any, index: number) => `(${index}, '${account.id}', '${account.platform}', '${account.username}')`).join(", ")
  for (let first = 1; first <= total; first += batch) {
    const last = Math.min(total, first + batch - 1)
    const at = `CASE WHEN n <= ${busy}
      THEN '${month.toISOString()}'::timestamptz + (n - 1) * (('${monthEnd.toISOString()}'::timestamptz - '${month.toISOString()}'::timestamptz) / ${busy})
      ELSE '${window.from.toISOString()}'::timestamptz + (n - ${busy}) * (('${window.to.toISOString()}'::timestamptz - '${window.from.toISOString()}'::timestamptz) / ${Math.max(1, total - busy)}) END`
    statements.push(`
      INSERT INTO posts (id, workspace_id, status, content, queued, scheduled_at, published_at, created_at, sort_at)
      SELECT 'pst_bench' || lpad(n::text, 17, '0'), '${workspace.id}',
        CASE WHEN at < now() + interval '1 day'
          THEN (ARRAY['published', 'published', 'published', 'published', 'published', 'published', 'published', 'published', 'failed', 'partial'])[n % 10 + 1]
          ELSE (ARRAY['scheduled', 'scheduled', 'scheduled', 'scheduled', 'scheduled', 'scheduled', 'scheduled', 'draft', 'awaiting_approval', 'scheduled'])[n % 10 + 1] END,
        'Seeded post ' || n || ': a few words about what is coming, long enough to be cut short on the calendar',
        at >= now() + interval '1 day' AND n % 10 = 9,
        at, CASE WHEN at < now() + interval '1 day' THEN at END, now(), at
      FROM (SELECT n, ${at} AS at FROM generate_series(${first}, ${last}) n) seeded;
      INSERT INTO post_targets (post_id, position, account_id, platform, username, status)
      SELECT 'pst_bench' || lpad(n::text, 17, '0'), target.position, account.id, account.platform, account.username, 'pending'
      FROM generate_series(${first}, ${last}) n
      CROSS JOIN LATERAL (VALUES (0), (1)) AS target (position)
      JOIN (VALUES ${accountValues}) AS account (index, id, platform, username)
        ON account.index = (n + target.position * 3) % ${accounts.length}
      WHERE target.position = 0 OR n % 3 = 0;`)
  }
  const seeding = performance.now()
  psqlScript(url, statements.join("\n") + "\nANALYZE posts; ANALYZE post_targets;")
  const seeded = (performance.now() - seeding) / 1000
  const inMonth = Number(psql(url, `SELECT count(*) FROM posts WHERE workspace_id = '${workspace.id}'
    AND sort_at >= '${month.toISOString()}' AND sort_at < '${monthEnd.toISOString()}'`).trim())
  const seededPosts = Number(psql(url, `SELECT count(*) FROM posts WHERE workspace_id = '${workspace.id}'`).trim())
  console.log(`calendar: ${seededPosts} posts seeded in ${seeded.toFixed(1)} s (${(seededPosts / seeded).toFixed(0)} posts/s, ` +
    `batches of ${batch}); ${month.toISOString().slice(0, 7)} holds ${inMonth}`)

  const browser = await launchChromium()
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    await page.goto(consoleLink)
    await page.getByLabel("New password").fill("correct horse battery staple")
    await page.getByRole("button", { name: "Set password" }).click()
    await page.getByRole("heading", { name: "Accounts", level: 1 }).waitFor()
    let postsRequests = 0
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/v1/posts") postsRequests++
    })
    const calendar = `${origin}/app/calendar?view=month&date=${month.toISOString().slice(0, 10)}`
    // From asking for the page to every week of the month loaded and its posts drawn.
    const visit = async () => {
      postsRequests = 0
      const began = performance.now()
      await page.goto(calendar)
      // The first week drawn, then the whole month.
      await page.locator(".calendar-post").first().waitFor({ timeout: 120_000 })
      const firstPosts = performance.now() - began
      await page.waitForFunction(() => {
        const document = (globalThis as any).document
        return document.querySelector(".calendar-month") !== null && document.querySelector("[aria-busy]") === null &&
          document.querySelectorAll(".calendar-post").length > 0
      }, undefined, { timeout: 120_000, polling: "raf" }).catch(async (error) => {
        throw new Error(`${error}\nafter ${postsRequests} pages, the page said: ${(await page.locator("body").innerText()).slice(0, 600)}`)
      })
      return { ms: performance.now() - began, firstPosts, requests: postsRequests }
    }
    const first = await visit()
    const visits: Array<{ ms: number; firstPosts: number }> = []
    for (let i = 0; i < Number(values.visits); i++) visits.push(await visit())
    const median = (of: ReadonlyArray<number>) => [...of].sort((a, b) => a - b)[Math.floor(of.length / 2)]!
    const times = visits.map((one) => one.ms).sort((a, b) => a - b)
    const shown = await page.locator(".calendar-post").count()
    console.log(`month view of ${month.toISOString().slice(0, 7)} (${inMonth} posts, ${first.requests} pages of 100 from GET /api/v1/posts, ` +
      `${shown} drawn: 3 a day and "N more"): whole month shown ${first.ms.toFixed(0)} ms on the first visit; then median ` +
      `${median(times).toFixed(0)} ms, slowest ${times[times.length - 1]!.toFixed(0)} ms over ${times.length} fresh page loads; ` +
      `first posts on screen after ${first.firstPosts.toFixed(0)} ms, then median ${median(visits.map((one) => one.firstPosts)).toFixed(0)} ms`)
  } finally {
    await browser.close()
  }
  console.log(`console first load (index.html + ${files.length - 1} JS/CSS files): ${firstLoad.raw} B raw, ` +
    `${firstLoad.gzip} B gzip, ${firstLoad.brotli} B brotli`)
} finally {
  await stop(herald.child)
  dropDatabase(name)
}
process.exit(0)
