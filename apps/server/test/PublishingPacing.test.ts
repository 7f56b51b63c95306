import { assert, layer } from "@effect/vitest"
import { Clock, Duration, Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { SqlClient } from "effect/sql"
import type { Simulator } from "@herald/adapter-kit"
import { type Backend, backends } from "@herald/db/testing"
import type { NetworkPackage } from "../src/NetworkPackages.ts"
import * as Packages from "../src/Packages.ts"
import { serverLayer } from "./harness.ts"
import { setup, simulated } from "./publishing.ts"

// Rate-limited targets wait their turn instead of failing. TikTok allows 6 post inits per minute per user
// and its simulator enforces that; a burst of posts to one account must all go out, spread over the minutes
// the quota needs, with the attempt counts and the next try kept in the target rows.
//
// Time runs `speed` times faster than the wall clock for the whole server (the engine's waits, the
// simulator's rate-limit window, the posts' times), so the minutes the quota needs pass in seconds.

const speed = 60
const quota = 6
const windowMs = 60_000
// Targets that all retried at once each window, 5 attempts each, would get at most 5 × 6 = 30 posts out:
// 50 is well past that (about 20 would fail) and needs about 8 minutes of quota, half of what 100 posts
// needed (docs/decisions/0036-test-files-in-parallel.md).
const burst = 50

/** A `Clock` on which `speed` seconds pass each real second. */
const fastClock = (): Clock.Clock => {
  const real = Clock.Clock.defaultValue()
  const origin = real.currentTimeMillisUnsafe()
  const monotonicOrigin = real.monotonicTimeNanosUnsafe()
  const now = () => origin + (real.currentTimeMillisUnsafe() - origin) * speed
  const monotonic = () => monotonicOrigin + (real.monotonicTimeNanosUnsafe() - monotonicOrigin) * BigInt(speed)
  return {
    currentTimeMillisUnsafe: now,
    currentTimeMillis: Effect.sync(now),
    currentTimeNanosUnsafe: () => BigInt(Math.round(now())) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(Math.round(now())) * 1_000_000n),
    monotonicTimeNanosUnsafe: monotonic,
    monotonicTimeNanos: Effect.sync(monotonic),
    sleep: (duration) => real.sleep(Duration.millis(Duration.toMillis(duration) / speed))
  }
}

type Call = { readonly at: number; readonly path: string; readonly status: number }

/** TikTok's package, its simulator noting every call it answers: when (on the fast clock), which path, and its status. */
const recording = (calls: Array<Call>): NetworkPackage => {
  const tiktok = Packages.all.find((entry) => entry.network === "tiktok")!
  const simulator: Simulator.Make = (options) => {
    const made = tiktok.simulator(options)
    return {
      ...made,
      routes: made.routes.map((route) =>
        HttpRouter.route(
          route.method,
          route.path,
          Effect.tap(route.handler, (response) =>
            Effect.map(Clock.currentTimeMillis, (at) => {
              calls.push({ at, path: String(route.path), status: response.status })
            })),
          { uninterruptible: route.uninterruptible }
        )
      )
    }
  }
  return { ...tiktok, simulator }
}

const server = (backend: Backend, calls: Array<Call>) =>
  serverLayer({}, [recording(calls)], backend, {
  // Turns as far apart against the calls' latency (magnified `speed` times here) as 2 s are in production.
  publishing: { turnGapMs: 10_000 },
  // The cluster's own rhythm kept at its real pace (its waits are on the same clock): due messages looked
  // for every half second, shard locks refreshed every ten seconds and their storage given a minute.
  cluster: {
    entityTerminationTimeout: Duration.seconds(30),
    entityMessagePollInterval: Duration.seconds(30),
    shardLockRefreshInterval: Duration.minutes(10),
    shardLockExpiration: Duration.minutes(60),
    runnerHealthCheckInterval: Duration.minutes(5),
    refreshAssignmentsInterval: Duration.minutes(1)
  }
}).pipe(Layer.provideMerge(Layer.succeed(Clock.Clock, fastClock())))

const isInit = (path: string) => path.endsWith("/init/")

/** The most calls in any `spanMs` of `times` (sorted). */
const densest = (times: ReadonlyArray<number>, spanMs: number) => {
  let most = 0
  let first = 0
  for (let last = 0; last < times.length; last++) {
    while (times[last]! - times[first]! >= spanMs) first++
    most = Math.max(most, last - first + 1)
  }
  return most
}

// The burst takes half a minute of real time, so it runs on one database: PostgreSQL when the run has it (the
// multi-process kind), else the embedded one; the pacing rows are the same SQL on both, and the two shorter
// tests below run on each.
const all = backends()
const burstOn = all.at(-1)

for (const backend of all) {
  const calls: Array<Call> = []
  layer(server(backend, calls), { excludeTestServices: true })(`publishing under a rate limit (${backend.name})`, (it) => {
    if (backend === burstOn) it.effect(`${burst} posts to one TikTok account all publish within its quota over time, none failed for waiting`, () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { accounts, create, uploadVideo } = yield* setup(["tiktok"])
        const video = yield* uploadVideo
        const ids: Array<string> = []
        for (let index = 0; index < burst; index++) {
          const created = yield* create({ content: `Burst ${index}`, mediaIds: [video], accountIds: [accounts.tiktok], publishNow: true })
          ids.push(created.id)
        }

        // Ended, or still going after 150 real seconds (two and a half hours on this clock; about 12
        // simulated minutes are needed, more on a loaded machine).
        const until = Date.now() + 150_000
        let open = ids.length
        while (open > 0 && Date.now() < until) {
          yield* Effect.sleep("30 seconds") // half a real second
          const [row] = yield* Effect.orDie(sql<{ readonly open: number }>`
            SELECT count(*)::int AS open FROM posts WHERE id IN ${sql.in(ids)} AND status NOT IN ('published', 'partial', 'failed')`)
          open = row!.open
        }
        const targets = yield* Effect.orDie(sql<{ readonly status: string; readonly error: string | null; readonly attempts: number; readonly failedAttempts: number }>`
          SELECT status, error, attempts, failed_attempts FROM post_targets WHERE post_id IN ${sql.in(ids)}`)
        const failed = targets.filter((target) => target.status !== "published")
        assert.strictEqual(failed.length, 0, `not published: ${failed.length}, e.g. ${JSON.stringify(failed.slice(0, 3))}`)
        assert.strictEqual((yield* simulated("tiktok", accounts.tiktok!)).length, burst)

        const inits = calls.filter((call) => isInit(call.path)).sort((a, b) => a.at - b.at)
        const refusals = inits.filter((call) => call.status === 429)
        assert.isAbove(refusals.length, 0, "the burst met TikTok's limit")
        // The first refusal answers calls already under way; from a second after it, the account's turns apply.
        const after = inits.filter((call) => call.at > refusals[0]!.at + 1_000).map((call) => call.at)
        // At most the quota per minute, plus the call that finds the limit again (and two for the timing slack
        // of a clock running this fast on a loaded machine).
        const perWindow = densest(after, windowMs)
        assert.isAtMost(perWindow, quota + 3, `init calls in one minute after the first refusal: ${perWindow}`)
        // Spread, not in lockstep: waiting targets go one turn after another, at a random moment in each.
        const perSecond = densest(after, 1_000)
        assert.isAtMost(perSecond, 5, `init calls within one second after the first refusal: ${perSecond}`)
        const gaps = after.slice(1).map((at, index) => at - after[index]!).sort((a, b) => a - b)
        assert.isAtLeast(gaps[Math.floor(gaps.length / 2)]!, 2_000, `the median gap between calls: ${gaps[Math.floor(gaps.length / 2)]} ms`)
        // Nothing was given up for waiting, and the rows count every call the network answered.
        assert.isTrue(targets.every((target) => target.failedAttempts === 0))
        const answered = calls.filter((call) => isInit(call.path) || call.path.endsWith("/status/fetch/")).length
        assert.strictEqual(targets.reduce((sum, target) => sum + target.attempts, 0), answered)
      }), 200_000)

    it.effect("a target resumes from its row: the next try's time is kept and failed attempts count toward giving up", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { accounts, create, get, uploadVideo } = yield* setup(["tiktok"])
        const video = yield* uploadVideo
        const now = yield* Clock.currentTimeMillis
        const at = new Date(now + 60_000)
        // As a process that stopped mid-wait left them: one post due again in five minutes, one with four
        // passing faults behind it (of five allowed).
        const waiting = yield* create({ content: "Waits", mediaIds: [video], accountIds: [accounts.tiktok], scheduledAt: at.toISOString() })
        const tired = yield* create({
          content: "Tired #sandbox-flaky",
          mediaIds: [video],
          accountIds: [accounts.tiktok],
          scheduledAt: at.toISOString()
        })
        yield* Effect.orDie(sql`UPDATE post_targets SET next_attempt_at = ${new Date(now + 6 * 60_000)} WHERE post_id = ${waiting.id}`)
        yield* Effect.orDie(sql`UPDATE post_targets SET failed_attempts = 4 WHERE post_id = ${tired.id}`)

        const deadline = Date.now() + 30_000
        /** The post once it has one of `statuses`, or as it is at the deadline (polled every 10 s of the fast clock). */
        const reached = Effect.fnUntraced(function*(id: string, statuses: ReadonlyArray<string>) {
          let post = yield* get(id)
          while (!statuses.includes(post.status) && Date.now() < deadline) {
            yield* Effect.sleep("10 seconds")
            post = yield* get(id)
          }
          return post
        })
        const tiredPost = yield* reached(tired.id, ["failed", "published"])
        assert.strictEqual(tiredPost.status, "failed", JSON.stringify(tiredPost.targets))
        assert.match(tiredPost.targets[0].error, /gave up after 5 attempts/)
        // Five minutes after its time, the waiting one has not been sent yet.
        const [row] = yield* Effect.orDie(sql<{ readonly attempts: number; readonly status: string }>`
          SELECT attempts, status FROM post_targets WHERE post_id = ${waiting.id}`)
        if ((yield* Clock.currentTimeMillis) < now + 6 * 60_000) {
          assert.strictEqual(row!.attempts, 0)
          assert.strictEqual(row!.status, "pending")
        }
        const waitingPost = yield* reached(waiting.id, ["published"])
        assert.strictEqual(waitingPost.status, "published", JSON.stringify(waitingPost.targets))
        const [sent] = yield* Effect.orDie(sql<{ readonly endedAt: Date }>`SELECT ended_at FROM post_targets WHERE post_id = ${waiting.id}`)
        assert.isDefined(sent)
      }))

    it.effect("a target that has waited on rate limits for 24 hours fails saying so, and nothing is sent", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { accounts, create, get, uploadVideo } = yield* setup(["tiktok"])
        const video = yield* uploadVideo
        const now = yield* Clock.currentTimeMillis
        const at = new Date(now + 60_000)
        const created = yield* create({ content: "Too long", mediaIds: [video], accountIds: [accounts.tiktok], scheduledAt: at.toISOString() })
        yield* Effect.orDie(sql`UPDATE post_targets SET rate_limited_since = ${new Date(now - 25 * 60 * 60_000)} WHERE post_id = ${created.id}`)
        yield* Effect.orDie(sql`
          INSERT INTO publish_pacing (account_id, blocked_until, next_turn)
          VALUES (${accounts.tiktok!}, ${new Date(now + 10 * 60_000)}, ${new Date(now + 10 * 60_000)})
          ON CONFLICT (account_id) DO UPDATE SET blocked_until = excluded.blocked_until, next_turn = excluded.next_turn`)
        const deadline = Date.now() + 20_000
        let post = yield* get(created.id)
        while (post.status !== "failed" && post.status !== "published" && Date.now() < deadline) {
          yield* Effect.sleep("10 seconds")
          post = yield* get(created.id)
        }
        assert.strictEqual(post.status, "failed", JSON.stringify(post.targets))
        assert.match(post.targets[0].error, /^tiktok: @\S+ on TikTok is over TikTok's rate limit; Herald waited \d+ h for the limit to lift and stopped trying/)
        assert.strictEqual((yield* simulated("tiktok", accounts.tiktok!)).length, 0)
      }))
  })
}
