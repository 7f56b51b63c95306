import { assert, layer } from "@effect/vitest"
import { Effect, Fiber, Layer, Option, Random, Redacted } from "effect"
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

/**
 * A network whose post is made by a later step (its `poll` publishes the container `publish` made): `lose`
 * drops that step's answer after the network acted (`made`) or before it could (`unsent`); `canLook` says
 * whether `reconcile` can tell. Its `poll` never looks on a resumed try, so only the engine keeps it from
 * posting twice.
 */
const staged = {
  lose: "none" as "none" | "made" | "unsent",
  canLook: true,
  made: 0,
  polls: 0,
  looks: [] as Array<string | undefined>
}

const stagedNetwork = Adapter.make({
  ...scripted,
  network: "staged",
  name: "Staged",
  capabilities: { ...scripted.capabilities, reconcile: true, asyncProcessing: true },
  publish: () => Effect.succeed<Adapter.PublishStep>({ _tag: "Processing", handle: "container:7", checkAfterMs: 0 }),
  poll: () =>
    Effect.suspend(() => {
      staged.polls++
      const lost = staged.lose
      staged.lose = "none"
      if (lost !== "unsent") staged.made++
      return lost === "none"
        ? Effect.succeed<Adapter.PublishStep>({ _tag: "Published", published: { id: `${staged.made}`, url: `https://staged.invalid/${staged.made}` } })
        : Effect.fail(PublishError.outcomeUnknown("staged", "the publish answer was lost"))
    }),
  makesPost: (handle) => handle.startsWith("container:"),
  reconcile: (input) =>
    Effect.suspend(() => {
      staged.looks.push(input.handle)
      if (!staged.canLook) return Effect.fail(PublishError.nothingToLookFor("staged", "Staged"))
      return Effect.succeed(
        staged.made === 0 ? Option.none() : Option.some({ id: `${staged.made}`, url: `https://staged.invalid/${staged.made}` })
      )
    })
})

const tokenRefresh = Layer.succeed(TokenRefresh.TokenRefresh, TokenRefresh.TokenRefresh.of({
  refresh: () => Effect.die("not used"),
  needsReconnect: () => Effect.void,
  refreshDue: Effect.succeed([])
}))

const engine = Publisher.Publisher.layer({ baseDelayMs: 1_000, maxDelayMs: 60_000 }).pipe(
  Layer.provideMerge(Layer.mergeAll(
    Networks.Networks.layer(Effect.succeed([scripted, stagedNetwork])),
    tokenRefresh,
    Layer.succeed(PublicUrl, "http://herald.invalid")
  )),
  Layer.provideMerge(Cipher.Cipher.layer),
  Layer.provide(Layer.succeed(SecretKey.SecretKey, Redacted.make(new Uint8Array(32).fill(3))))
)

let posts = 0

const targetOn = (platform: string) => Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const cipher = yield* Cipher.Cipher
  const id = `${++posts}`
  yield* sql`INSERT INTO workspaces (id, name) VALUES (${`ws_${id}`}, 'Faults')`
  yield* sql`INSERT INTO accounts (id, workspace_id, platform, username, network_account_id, access_token)
    VALUES (${`acc_${id}`}, ${`ws_${id}`}, ${platform}, 'someone', 'n1', ${cipher.seal(Redacted.make("token"))})`
  yield* sql`INSERT INTO posts (id, workspace_id, status, content, sort_at, scheduled_at)
    VALUES (${`post_${id}`}, ${`ws_${id}`}, 'publishing', ${`hello ${id}`}, now(), now())`
  yield* sql`INSERT INTO post_targets (post_id, position, account_id, platform, username)
    VALUES (${`post_${id}`}, 0, ${`acc_${id}`}, ${platform}, 'someone')`
  return { postId: `post_${id}`, accountId: `acc_${id}` }
})
const target = targetOn("scripted")

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

    /** Sends a staged target whose creating step loses its answer as `lose` says; answers how it ended and its row. */
    const sendStaged = (lose: "made" | "unsent", canLook: boolean) =>
      Effect.gen(function*() {
        const publisher = yield* Publisher.Publisher
        const sql = yield* SqlClient.SqlClient
        const { accountId, postId } = yield* targetOn("staged")
        Object.assign(staged, { lose, canLook, made: 0, polls: 0, looks: [] })
        const fiber = yield* Effect.forkChild(publisher.send(postId, accountId))
        // The lost answer is waited on (its look comes on the next turn), then the clock moves past the wait.
        yield* eventually("the lost answer's wait", Effect.map(
          Effect.orDie(sql<{ readonly failedAttempts: number }>`SELECT failed_attempts FROM post_targets WHERE post_id = ${postId}`),
          ([row]) => row!.failedAttempts > 0 || fiber.pollUnsafe() !== undefined
        ))
        yield* TestClock.adjust("1 minute")
        const outcome = yield* Fiber.join(fiber)
        const [row] = yield* sql<{ readonly error: string | null; readonly url: string | null }>`
          SELECT error, url FROM post_targets WHERE post_id = ${postId}`
        return { outcome, row: row! }
      }).pipe(Effect.provide(TestClock.layer()), Random.withSeed(7))

    /** The post is on the network once, after `polls` sends of its step and one look, given the step's handle. */
    const madeOnce = (polls: number) => {
      assert.strictEqual(staged.made, 1, "posted twice")
      assert.strictEqual(staged.polls, polls, "sends of the step")
      assert.deepStrictEqual(staged.looks, ["container:7"])
    }

    it.effect("a lost answer of a later step that makes the post is looked up with its handle: found, published once", () =>
      Effect.gen(function*() {
        const { outcome, row } = yield* sendStaged("made", true)
        assert.strictEqual(outcome, "published")
        madeOnce(1)
        assert.strictEqual(row.url, "https://staged.invalid/1")
      }))

    it.effect("a lost answer of a later step that makes the post, where the network cannot tell, fails as unknown and is not sent again", () =>
      Effect.gen(function*() {
        const { outcome, row } = yield* sendStaged("made", false)
        assert.strictEqual(outcome, "failed")
        madeOnce(1)
        assert.match(row.error!, /^staged: the publish answer was lost\. Staged cannot be asked whether the post arrived, so Herald did not send it again; it may have been posted/)
      }))

    it.effect("a target Herald stopped during a later step that makes the post is looked up first, not sent again", () =>
      Effect.gen(function*() {
        const publisher = yield* Publisher.Publisher
        const sql = yield* SqlClient.SqlClient
        const { accountId, postId } = yield* targetOn("staged")
        // As a crash leaves it: the step under way (`call`) with its handle, the post made on the network.
        yield* sql`UPDATE post_targets SET call = 'poll', handle = 'container:7' WHERE post_id = ${postId}`
        Object.assign(staged, { lose: "none", canLook: true, made: 1, polls: 0, looks: [] })
        assert.strictEqual(yield* publisher.send(postId, accountId), "published")
        madeOnce(0)
      }))

    it.effect("a lost answer of a later step the network did not act on: looked up, absent, the step is sent again once", () =>
      Effect.gen(function*() {
        const { outcome } = yield* sendStaged("unsent", true)
        assert.strictEqual(outcome, "published")
        madeOnce(2)
      }))
  })
}
