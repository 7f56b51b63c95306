import { assert, layer } from "@effect/vitest"
import { Clock, Duration, Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { SqlClient } from "effect/sql"
import type { Simulator } from "@herald/adapter-kit"
import { type Backend, backends } from "@herald/db/testing"
import type { NetworkPackage } from "../src/NetworkPackages.ts"
import * as Packages from "../src/Packages.ts"
import { eventually } from "../../../testing/eventually.ts"
import { serverLayer } from "./harness.ts"
import { handOver, setup, simulated } from "./publishing.ts"

// Rate-limited targets wait their turn instead of failing. TikTok allows 6 post inits per minute per user
// and its simulator enforces that; a burst of posts to one account must all go out, spread over the minutes
// the quota needs, with the attempt counts and the next try kept in the target rows.
//
// Time runs `speed` times faster than the wall clock for the whole server (the engine's waits, the
// simulator's rate-limit window, the posts' times), so the minutes the quota needs pass in seconds. A loaded
// machine's stalls are magnified as much: the spacing checked is that of the turns Herald gives the waiting
// targets (which no stall changes), not the moments its calls happened to go out.

const speed = 60
const quota = 6
const windowMs = 60_000
// Targets that all retried at once each window, 5 attempts each, would get at most 5 × 6 = 30 posts out:
// 50 is well past that (about 20 would fail) and needs about 8 minutes of quota, half of what 100 posts
// needed (docs/decisions/0036-test-files-in-parallel.md).
const burst = 50

/**
 * A `Clock` on which `speed` seconds pass each real second. Its sleeps end a real millisecond early (a
 * sixtieth of a second here), as a real timer may: a target woken before its turn must sleep on rather than
 * lose the turn.
 */
const fastClock = (): Clock.Clock => {
  const real = Clock.Clock.defaultValue()
  const origin = real.currentTimeMillisUnsafe()
  const monotonicOrigin = real.monotonicTimeNanosUnsafe()
  const now = () => origin + (real.currentTimeMillisUnsafe() - origin) * speed
  const monotonic = () => monotonicOrigin + (real.monotonicTimeNanosUnsafe() - monotonicOrigin) * BigInt(speed)
  const early = (end: number): Effect.Effect<void> =>
    Effect.suspend(() => real.sleep(Duration.millis(Math.max(0, Math.ceil((end - now()) / speed) - 1))))
  return {
    currentTimeMillisUnsafe: now,
    currentTimeMillis: Effect.sync(now),
    currentTimeNanosUnsafe: () => BigInt(Math.round(now())) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(Math.round(now())) * 1_000_000n),
    monotonicTimeNanosUnsafe: monotonic,
    monotonicTimeNanos: Effect.sync(monotonic),
    sleep: (duration) => Effect.suspend(() => early(now() + Duration.toMillis(duration)))
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

// The database client keeps the real clock: its connect timeout (5 s) on the fast one is 83 ms of real time,
// which a loaded machine's connection attempts outlast (seen in a loaded run of the suite). Its pool connects
// with the services it was built with, so the clock given to its layer is the one its timers read.
const realClockFor = (backend: Backend): Backend => ({
  ...backend,
  layer: backend.layer.pipe(Layer.provide(Layer.succeed(Clock.Clock, Clock.Clock.defaultValue())))
})

// Herald's wait for a network's answer is on the fast clock too: 60 s of it would be one real second, which
// the in-process simulator outlasts on a loaded machine (seen in CI beside other work: 11 of 50 targets ended
// "TikTok's answer was lost (…); the post may have been made"). The wait is kept at 60 real seconds.
const server = (backend: Backend, calls: Array<Call>) =>
  serverLayer({ networkTimeoutMs: 60_000 * speed }, [recording(calls)], realClockFor(backend), {
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

/** An hour out on the server's clock: beyond the handover horizon, so nothing starts before a test moves it. */
const later = Effect.map(Clock.currentTimeMillis, (now) => new Date(now + 60 * 60_000).toISOString())

/**
 * Every turn Herald gives a target waiting on the rate limit (`next_attempt_at` set while `rate_limited_since`
 * is), as the database sees it written; dropped when the scope ends.
 */
const turnsLog = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE TABLE pacing_test_turns (post_id text NOT NULL, at timestamptz NOT NULL)`)
  yield* sql.unsafe(`
    CREATE FUNCTION pacing_test_turn() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.rate_limited_since IS NOT NULL AND NEW.next_attempt_at IS NOT NULL
        AND NEW.next_attempt_at IS DISTINCT FROM OLD.next_attempt_at THEN
        INSERT INTO pacing_test_turns (post_id, at) VALUES (NEW.post_id, NEW.next_attempt_at);
      END IF;
      RETURN NEW;
    END $$`)
  yield* sql.unsafe(`CREATE TRIGGER pacing_test_turn AFTER UPDATE ON post_targets FOR EACH ROW EXECUTE FUNCTION pacing_test_turn()`)
  yield* Effect.addFinalizer(() =>
    Effect.orDie(Effect.all([
      sql.unsafe(`DROP TRIGGER pacing_test_turn ON post_targets`),
      sql.unsafe(`DROP FUNCTION pacing_test_turn`),
      sql.unsafe(`DROP TABLE pacing_test_turns`)
    ], { discard: true }))
  )
  return Effect.map(
    Effect.orDie(sql<{ readonly at: Date }>`SELECT at FROM pacing_test_turns ORDER BY at`),
    (rows) => rows.map((row) => row.at.getTime())
  )
}).pipe(Effect.orDie)

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
      Effect.scoped(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const turns = yield* turnsLog
        const { accounts, create, uploadVideo } = yield* setup(["tiktok"])
        const video = yield* uploadVideo
        const ids = yield* Effect.forEach(
          Array.from({ length: burst }, (_, index) => index),
          (index) =>
            Effect.map(
              create({ content: `Burst ${index}`, mediaIds: [video], accountIds: [accounts.tiktok], publishNow: true }),
              (created) => created.id as string
            ),
          { concurrency: 5 }
        )

        // Every post ended (about 12 simulated minutes are needed, more on a loaded machine).
        yield* eventually(
          `${burst} posts to end`,
          Effect.map(
            Effect.orDie(sql<{ readonly open: number }>`
              SELECT count(*)::int AS open FROM posts WHERE id IN ${sql.in(ids)} AND status NOT IN ('published', 'partial', 'failed')`),
            ([row]) => row!.open === 0
          ),
          { everyMs: 100 }
        )
        const targets = yield* Effect.orDie(sql<{ readonly status: string; readonly error: string | null; readonly attempts: number; readonly failedAttempts: number }>`
          SELECT status, error, attempts, failed_attempts FROM post_targets WHERE post_id IN ${sql.in(ids)}`)
        const failed = targets.filter((target) => target.status !== "published")
        assert.strictEqual(failed.length, 0, `not published: ${failed.length}, e.g. ${JSON.stringify(failed.slice(0, 3))}`)
        assert.strictEqual((yield* simulated("tiktok", accounts.tiktok!)).length, burst)

        const inits = calls.filter((call) => isInit(call.path))
        assert.isAbove(inits.filter((call) => call.status === 429).length, 0, "the burst met TikTok's limit")
        // The waiting targets' turns: at most the quota's in any minute, one turn (10 s) apart and each taken
        // at a random moment within it, so at most one more than the quota (6) starts in any 60 s.
        const taken = yield* turns
        assert.isAtLeast(taken.length, burst - quota, "the targets the limit held back took turns")
        const perWindow = densest(taken, windowMs)
        assert.isAtMost(perWindow, quota + 1, `turns in one minute: ${perWindow}`)
        // Spread, not in lockstep: at most two turns' random moments fall within one second.
        const perSecond = densest(taken, 1_000)
        assert.isAtMost(perSecond, 2, `turns within one second: ${perSecond}`)
        const gaps = taken.slice(1).map((at, index) => at - taken[index]!).sort((a, b) => a - b)
        assert.isAtLeast(gaps[Math.floor(gaps.length / 2)]!, 2_000, `the median gap between turns: ${gaps[Math.floor(gaps.length / 2)]} ms`)
        // Nothing was given up for waiting, and the rows count every call the network answered.
        assert.isTrue(targets.every((target) => target.failedAttempts === 0))
        const answered = calls.filter((call) => isInit(call.path) || call.path.endsWith("/status/fetch/")).length
        assert.strictEqual(targets.reduce((sum, target) => sum + target.attempts, 0), answered)
      })))

    it.effect("a target resumes from its row: the next try's time is kept and its retry time goes on from its first passing fault", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { accounts, create, get, uploadVideo } = yield* setup(["tiktok"])
        const video = yield* uploadVideo
        // As a process that stopped mid-wait left them: one post due again two minutes after its time, one
        // whose first passing fault was 15 minutes ago (its whole retry time).
        const waiting = yield* create({ content: "Waits", mediaIds: [video], accountIds: [accounts.tiktok], scheduledAt: yield* later })
        const tired = yield* create({
          content: "Tired #sandbox-flaky",
          mediaIds: [video],
          accountIds: [accounts.tiktok],
          scheduledAt: yield* later
        })
        const faultedAt = new Date((yield* Clock.currentTimeMillis) - 15 * 60_000)
        yield* Effect.orDie(sql`UPDATE post_targets SET failed_attempts = 4, faulting_since = ${faultedAt} WHERE post_id = ${tired.id}`)
        const nextTry = (yield* Clock.currentTimeMillis) + 3 * 60_000
        yield* Effect.orDie(sql`UPDATE post_targets SET next_attempt_at = ${new Date(nextTry)} WHERE post_id = ${waiting.id}`)
        yield* handOver([waiting.id, tired.id], 60_000)

        /** The post once it has one of `statuses`. */
        const reached = (id: string, statuses: ReadonlyArray<string>) =>
          eventually(`post ${id} to be ${statuses.join(" or ")}`, Effect.map(get(id), (post) => statuses.includes(post.status) && post), { everyMs: 100 })
        const tiredPost = yield* reached(tired.id, ["failed", "published"])
        assert.strictEqual(tiredPost.status, "failed", JSON.stringify(tiredPost.targets))
        assert.match(tiredPost.targets[0].error, /kept trying for 15 min and gave up/)
        // Before its next try, the waiting one has not been sent yet (checked while that is still ahead).
        const [row] = yield* Effect.orDie(sql<{ readonly attempts: number; readonly status: string }>`
          SELECT attempts, status FROM post_targets WHERE post_id = ${waiting.id}`)
        if ((yield* Clock.currentTimeMillis) < nextTry) {
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
        const created = yield* create({ content: "Too long", mediaIds: [video], accountIds: [accounts.tiktok], scheduledAt: yield* later })
        const now = yield* Clock.currentTimeMillis
        yield* Effect.orDie(sql`UPDATE post_targets SET rate_limited_since = ${new Date(now - 25 * 60 * 60_000)} WHERE post_id = ${created.id}`)
        yield* Effect.orDie(sql`
          INSERT INTO publish_pacing (account_id, blocked_until, next_turn)
          VALUES (${accounts.tiktok!}, ${new Date(now + 10 * 60_000)}, ${new Date(now + 10 * 60_000)})
          ON CONFLICT (account_id) DO UPDATE SET blocked_until = excluded.blocked_until, next_turn = excluded.next_turn`)
        yield* handOver([created.id], 60_000)
        const post = yield* eventually(
          "the post to end",
          Effect.map(get(created.id), (post) => (post.status === "failed" || post.status === "published") && post),
          { everyMs: 100 }
        )
        assert.strictEqual(post.status, "failed", JSON.stringify(post.targets))
        assert.match(post.targets[0].error, /^tiktok: @\S+ on TikTok is over TikTok's rate limit; Herald waited \d+ h for the limit to lift and stopped trying/)
        assert.strictEqual((yield* simulated("tiktok", accounts.tiktok!)).length, 0)
      }))
  })
}
