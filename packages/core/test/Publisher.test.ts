import { assert, layer } from "@effect/vitest"
import { Effect, Fiber, Layer, Random, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { SqlClient } from "effect/sql"
import { Adapter, PublishError } from "@herald/adapter-kit"
import { ExampleNetwork } from "@herald/adapter-kit/testing"
import { backends } from "@herald/db/testing"
import { eventually } from "../../../testing/eventually.ts"
import { Cipher, Networks, Publisher, SecretKey, TokenRefresh } from "../src/index.ts"
import { PublicUrl } from "../src/PublicUrl.ts"

// The engine's retry time on the test clock: a network down for a while is waited out for 15 minutes from
// its first passing fault, with random waits from the Random service, and no longer.

/** Whether the scripted network is down, and the publishing calls it was sent. */
const network = { down: true, calls: 0, lost: false }

const scripted = Adapter.make({
  network: "scripted",
  name: "Scripted",
  limits: ExampleNetwork.limits,
  api: ExampleNetwork.api,
  capabilities: { text: true, photos: false, videos: false, thread: false, firstComment: false, refresh: false, reconcile: false, asyncProcessing: false },
  oauth: {
    scopes: [],
    pkce: false,
    authorizeUrl: () => "https://scripted.invalid",
    exchange: () => Effect.die("not used"),
    profile: () => Effect.die("not used")
  },
  publish: () =>
    Effect.suspend(() => {
      network.calls++
      if (network.lost) return Effect.fail(PublishError.outcomeUnknown("scripted", "the answer was cut off"))
      return network.down
        ? Effect.fail(PublishError.transient("scripted", "HTTP 503"))
        : Effect.succeed<Adapter.PublishStep>({ _tag: "Published", published: { id: "1", url: "https://scripted.invalid/1" } })
    })
})

const tokenRefresh = Layer.succeed(TokenRefresh.TokenRefresh, TokenRefresh.TokenRefresh.of({
  refresh: () => Effect.die("not used"),
  needsReconnect: () => Effect.void,
  refreshDue: Effect.succeed([])
}))

const engine = Publisher.Publisher.layer({ baseDelayMs: 1_000, maxDelayMs: 60_000 }).pipe(
  Layer.provideMerge(Layer.mergeAll(
    Networks.Networks.layer(Effect.succeed([scripted])),
    tokenRefresh,
    Layer.succeed(PublicUrl, "http://herald.invalid")
  )),
  Layer.provideMerge(Cipher.Cipher.layer),
  Layer.provide(Layer.succeed(SecretKey.SecretKey, Redacted.make(new Uint8Array(32).fill(3))))
)

let posts = 0

const target = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const cipher = yield* Cipher.Cipher
  const id = `${++posts}`
  yield* sql`INSERT INTO workspaces (id, name) VALUES (${`ws_${id}`}, 'Faults')`
  yield* sql`INSERT INTO accounts (id, workspace_id, platform, username, network_account_id, access_token)
    VALUES (${`acc_${id}`}, ${`ws_${id}`}, 'scripted', 'someone', 'n1', ${cipher.seal(Redacted.make("token"))})`
  yield* sql`INSERT INTO posts (id, workspace_id, status, content, sort_at, scheduled_at)
    VALUES (${`post_${id}`}, ${`ws_${id}`}, 'publishing', ${`hello ${id}`}, now(), now())`
  yield* sql`INSERT INTO post_targets (post_id, position, account_id, platform, username)
    VALUES (${`post_${id}`}, 0, ${`acc_${id}`}, 'scripted', 'someone')`
  return { postId: `post_${id}`, accountId: `acc_${id}` }
})

/** Moves the test clock a minute at a time until `fiber` is done or `minutes` have passed. */
const advance = (fiber: Fiber.Fiber<unknown, unknown>, minutes: number, until: () => boolean = () => false) =>
  Effect.gen(function*() {
    for (let minute = 0; minute < minutes && fiber.pollUnsafe() === undefined && !until(); minute++) {
      // The fiber's database work is real I/O: wait for it to sleep on the clock again before moving it.
      const before = network.calls
      yield* TestClock.adjust("1 minute")
      if (minute < 2) yield* eventually("a try", () => network.calls > before || fiber.pollUnsafe() !== undefined)
    }
  })

for (const backend of backends().slice(0, 1)) {
  layer(engine.pipe(Layer.provideMerge(backend.layer)), { excludeTestServices: true })(`Publisher's retry time (${backend.name})`, (it) => {
    it.effect("a network down for 14 minutes is waited out, and the post goes out once it is back", () =>
      Effect.gen(function*() {
        const publisher = yield* Publisher.Publisher
        const sql = yield* SqlClient.SqlClient
        const { accountId, postId } = yield* target
        network.down = true
        network.calls = 0
        const fiber = yield* Effect.forkChild(publisher.send(postId, accountId))
        /** The row once the last call's fault is written on it (the fiber then sleeps until its next try). */
        const written = eventually("the fault to be stored", Effect.map(
          Effect.orDie(sql<{ readonly failedAttempts: number; readonly faultingSince: Date | null; readonly lateReason: string | null }>`
            SELECT failed_attempts, faulting_since, late_reason FROM post_targets WHERE post_id = ${postId}`),
          ([row]) => network.calls > 0 && row!.failedAttempts === network.calls && row!
        ))
        const row = yield* written
        assert.strictEqual(row.faultingSince?.getTime(), 0, "the retry time starts at the first fault")
        assert.match(row.lateReason!, /^scripted failing since 1970-01-01T00:00:00.000Z \(scripted: HTTP 503\); retrying$/)
        for (let minute = 0; minute < 14; minute++) {
          yield* written
          yield* TestClock.adjust("1 minute")
        }
        yield* written
        assert.isUndefined(fiber.pollUnsafe(), "still trying after 14 minutes")
        assert.isAtLeast(network.calls, 5)
        network.down = false
        yield* TestClock.adjust("1 minute")
        assert.strictEqual(yield* Fiber.join(fiber), "published")
      }).pipe(Effect.provide(TestClock.layer()), Random.withSeed(7)))

    it.effect("a network down for longer fails the target after 15 minutes, saying so", () =>
      Effect.gen(function*() {
        const publisher = yield* Publisher.Publisher
        const { accountId, postId } = yield* target
        network.down = true
        network.calls = 0
        const fiber = yield* Effect.forkChild(publisher.send(postId, accountId))
        yield* eventually("the first try", () => network.calls > 0)
        yield* advance(fiber, 20)
        assert.strictEqual(yield* Fiber.join(fiber), "failed")
        const sql = yield* SqlClient.SqlClient
        const [row] = yield* sql<{ readonly error: string }>`SELECT error FROM post_targets WHERE post_id = ${postId}`
        assert.match(row!.error, /HTTP 503 \(Herald kept trying for 15 min and gave up\)/)
      }).pipe(Effect.provide(TestClock.layer()), Random.withSeed(7)))

    it.effect("a lost answer on a network that cannot be asked fails the target, naming the network once", () =>
      Effect.gen(function*() {
        const publisher = yield* Publisher.Publisher
        const { accountId, postId } = yield* target
        network.lost = true
        network.calls = 0
        const outcome = yield* publisher.send(postId, accountId).pipe(Effect.ensuring(Effect.sync(() => network.lost = false)))
        assert.strictEqual(outcome, "failed")
        const sql = yield* SqlClient.SqlClient
        const [row] = yield* sql<{ readonly error: string }>`SELECT error FROM post_targets WHERE post_id = ${postId}`
        assert.match(row!.error, /^scripted: the answer was cut off\. Scripted cannot be asked whether the post arrived/)
        assert.strictEqual(row!.error.split("scripted:").length, 2, row!.error)
        assert.strictEqual(network.calls, 1, "not sent again")
      }))
  })
}
