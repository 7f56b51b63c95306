import { assert, layer } from "@effect/vitest"
import { Deferred, Duration, Effect, Exit, Layer, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { PublishError, type Simulator } from "@herald/adapter-kit"
import { Publisher } from "@herald/core"
import type { Database } from "@herald/db"
import { backends } from "@herald/db/testing"
import * as Main from "../src/Main.ts"
import type { NetworkPackage } from "../src/NetworkPackages.ts"
import * as Packages from "../src/Packages.ts"
import { eventually } from "../../../testing/eventually.ts"
import { fastTuning, freePort, quiet, settings } from "./harness.ts"
import { settled, setup, simulated } from "./publishing.ts"

// A process that dies at any step of a network call loses nothing and posts nothing twice. The first
// server stops dead at the step (its fiber never continues, then everything it runs is torn down, as when
// the process is killed); a second server on the same database and the same networks (the simulators
// outlive both, as real networks do) takes the work over. The tests of a backend share one database (each
// has its own workspace, and each post has ended before the next test starts).

// One simulator per network for the whole file, whichever server serves it.
const simulators = new Map<string, Simulator.Simulator>()
const lasting: ReadonlyArray<NetworkPackage> = Packages.all.map((entry) => ({
  ...entry,
  simulator: (options) => {
    let made = simulators.get(entry.network)
    if (made === undefined) {
      made = entry.simulator(options)
      simulators.set(entry.network, made)
    }
    return made
  }
}))

// One port for the file, so links made by the first server are the second's too.
const port = await freePort()

const steps: ReadonlyArray<Publisher.FaultStep> = ["before-call", "during-call", "after-call"]

/** The database the describe block shares, as a layer for the servers a test starts on it. */
const sharedDatabase = Effect.map(Effect.context<Database.Services>(), Layer.succeedContext)

/**
 * A first server that stops dead: its stuck fiber never continues, so its entity is given a moment (not the
 * harness's half second) before it is torn down.
 */
const deadTuning = { ...fastTuning, cluster: { ...fastTuning.cluster, entityTerminationTimeout: Duration.millis(50) } }

/** Where the first server stops dead: the step of a network call, and which call of which network. */
type Fault = (at: Publisher.FaultStep, where: { readonly network: string; readonly call: "publish" | "poll" }) => boolean

/**
 * A first server that stops dead where `stopAt` says (its fiber never continues, then everything it runs is
 * torn down), after `create` made the post; then a second server on the same database and port that takes
 * the work over. Answers the post once it has ended, and what the network holds with its text.
 */
const crashAndTakeOver = (input: {
  readonly network: string
  readonly stopAt: Fault
  readonly create: (tools: Effect.Success<ReturnType<typeof setup>>) => Effect.Effect<{ readonly id: string }, unknown>
  readonly text: string
  /** The second server's packages, the first's by default. */
  readonly takeOver?: ReadonlyArray<NetworkPackage>
}) =>
  Effect.gen(function*() {
    const database = yield* sharedDatabase
    const server = (faults: Layer.Layer<never>, packages = lasting, tuning = fastTuning) =>
      Main.layerWith(settings({ port }), database, false, packages, tuning).pipe(Layer.provide([faults, quiet]))
    const reached = yield* Deferred.make<void>()
    const stopDead = Layer.succeed(Publisher.PublishFaults, (at, where) =>
      input.stopAt(at, where) ? Effect.andThen(Deferred.succeed(reached, undefined), Effect.never) : Effect.void)
    const first = yield* Scope.make()
    const firstContext = yield* Layer.buildWithScope(server(stopDead, lasting, deadTuning), first)
    const tools = yield* setup([input.network]).pipe(Effect.provideContext(firstContext))
    const created = yield* input.create(tools)
    yield* eventually("the first server to reach its fault", Deferred.isDone(reached))
    yield* Scope.close(first, Exit.void)

    // The second process, on the same port and database, finishes the work.
    const secondContext = yield* Layer.build(server(Layer.empty, input.takeOver))
    const post = yield* settled(tools.get, created.id)
    const onNetwork = yield* simulated(input.network, tools.accounts[input.network]!).pipe(Effect.provideContext(secondContext))
    return { post, target: post.targets[0], onNetwork, made: onNetwork.filter((item) => item.text === input.text) }
  })

for (const backend of backends()) {
  layer(backend.layer, { excludeTestServices: true })(`a crash while publishing, on ${backend.name}`, (it) => {
    for (const network of ["x", "tiktok"] as const) {
      for (const step of steps) {
        it.effect(`${network}, ${step}: the post ends once the work is taken over, and never twice on the network`, () =>
          Effect.scoped(Effect.gen(function*() {
            const content = `Crash at ${step} on ${network}`
            const { made, post, target } = yield* crashAndTakeOver({
              network,
              text: content,
              stopAt: (at, where) => at === step && where.network === network,
              create: ({ accounts, create, uploadVideo }) =>
                Effect.gen(function*() {
                  return yield* create({
                    content,
                    ...(network === "tiktok" ? { mediaIds: [yield* uploadVideo] } : {}),
                    accountIds: [accounts[network]],
                    publishNow: true
                  })
                })
            })
            assert.isAtMost(made.length, 1, `posted ${made.length} times`)
            if (network === "x") {
              // X can be asked: the post is found (or was never sent) and published exactly once.
              assert.strictEqual(post.status, "published", target.error)
              assert.strictEqual(made.length, 1)
              assert.strictEqual(target.url, made[0]!.url)
            } else {
              // TikTok cannot be asked: the target fails saying the post may exist, and is not sent again.
              assert.strictEqual(post.status, "failed")
              assert.match(target.error, /may have been posted/)
              // (TikTok makes the post only when its processing ends, after the call the crash cut short.)
            }
          })))
      }
    }

    it.effect("x thread, during a reply: the chain is finished without sending that reply twice", () =>
      Effect.scoped(Effect.gen(function*() {
        const { onNetwork, post } = yield* crashAndTakeOver({
          network: "x",
          text: `1/ thread on ${backend.name}`,
          // Stops dead once the first reply has reached X, before Herald has recorded it.
          stopAt: (at, where) => at === "during-call" && where.call === "poll",
          create: ({ accounts, create }) =>
            create({
              content: `1/ thread on ${backend.name}`,
              xThread: [`2/ thread on ${backend.name}`, `3/ thread on ${backend.name}`],
              accountIds: [accounts.x],
              publishNow: true
            })
        })
        assert.strictEqual(post.status, "published", post.targets[0].error)
        const made = [...onNetwork].reverse()
        assert.deepStrictEqual(made.map((item) => item.text.slice(0, 2)), ["1/", "2/", "3/"])
        assert.strictEqual(made[1]!.replyTo, made[0]!.id)
        assert.strictEqual(made[2]!.replyTo, made[1]!.id)
      })))

    // The step after a network's first call: the post went out in a poll whose answer was never recorded.
    for (const network of ["instagram", "linkedin"] as const) {
      it.effect(`${network} video, after the poll that made the post: it is found and confirmed with its link, not made again`, () =>
        Effect.scoped(Effect.gen(function*() {
          const content = `Made in a poll, ${network} on ${backend.name} ${Date.now()}`
          const { made, post, target } = yield* crashAndTakeOver({
            network,
            text: content,
            // Stops dead once the poll has made the post on the network, before Herald has recorded it.
            stopAt: (at, where) =>
              at === "during-call" && where.network === network && where.call === "poll" &&
              [...simulators.get(network)!.state.posts.values()].some((item) => item.text === content),
            create: ({ accounts, create, uploadVideo }) =>
              Effect.gen(function*() {
                return yield* create({ content, mediaIds: [yield* uploadVideo], accountIds: [accounts[network]], publishNow: true })
              })
          })
          assert.strictEqual(made.length, 1, `posted ${made.length} times`)
          assert.strictEqual(post.status, "published", target.error)
          assert.strictEqual(target.url, made[0]!.url)
        })))
    }

    it.effect("instagram video, after the poll that made the post, a look that fails in passing: it looks again, and never polls", () =>
      Effect.scoped(Effect.gen(function*() {
        const content = `Look fails, instagram on ${backend.name} ${Date.now()}`
        // The second server's Instagram counts its polls and looks, and fails the first look in passing.
        const calls = { polls: 0, looks: [] as Array<string | undefined> }
        const takeOver = lasting.map((entry): NetworkPackage =>
          entry.network !== "instagram" ? entry : {
            ...entry,
            make: (config) =>
              Effect.map(entry.make(config), (adapter) => ({
                ...adapter,
                poll: (input, handle) => {
                  calls.polls++
                  return adapter.poll!(input, handle)
                },
                reconcile: (input) => {
                  calls.looks.push(input.handle)
                  return calls.looks.length === 1
                    ? Effect.fail(PublishError.transient("instagram", "a passing fault"))
                    : adapter.reconcile!(input)
                }
              }))
          })
        const { made, post, target } = yield* crashAndTakeOver({
          network: "instagram",
          text: content,
          takeOver,
          // Stops dead once the poll has made the post on the network, before Herald has recorded it.
          stopAt: (at, where) =>
            at === "during-call" && where.network === "instagram" && where.call === "poll" &&
            [...simulators.get("instagram")!.state.posts.values()].some((item) => item.text === content),
          create: ({ accounts, create, uploadVideo }) =>
            Effect.gen(function*() {
              return yield* create({ content, mediaIds: [yield* uploadVideo], accountIds: [accounts.instagram], publishNow: true })
            })
        })
        // The step that made the post is settled by asking its container (decision 0074), twice, and never sent again.
        assert.strictEqual(calls.looks.length, 2, JSON.stringify(calls))
        assert.match(calls.looks[1] ?? "", /^container:/)
        assert.strictEqual(calls.polls, 0, "the step was sent again")
        assert.strictEqual(post.status, "published", target.error)
        assert.strictEqual(made.length, 1, `posted ${made.length} times`)
      })))
  })
}

layer(backends()[0]!.layer, { excludeTestServices: true })("posts whose time passes while no process runs", (it) => {
  const lateTuning = { ...fastTuning, publishing: { ...fastTuning.publishing, lateNoteAfterMs: 500 } }
  const events = (workspaceId: string) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql<{ readonly event: string; readonly data: any }>`
        SELECT event, data FROM events WHERE workspace_id = ${workspaceId} AND event LIKE 'post.%' ORDER BY sequence`).pipe(Effect.orDie)

  it.effect("go out as soon as a process starts, and their final event says they were late", () =>
    Effect.scoped(Effect.gen(function*() {
      const database = yield* sharedDatabase
      const server = () => Main.layerWith(settings({ port }), database, false, lasting, lateTuning).pipe(Layer.provide(quiet))
      const first = yield* Scope.make()
      const firstContext = yield* Layer.buildWithScope(server(), first)
      const { accounts, create, get, workspace } = yield* setup(["linkedin"]).pipe(Effect.provideContext(firstContext))
      // Its time comes while no process runs: it was saved for later, and the time is moved to a few seconds
      // ago once the process has stopped (so no wait, and no race with a process still running).
      const created = yield* create({
        content: "Due while down",
        accountIds: [accounts.linkedin],
        scheduledAt: new Date(Date.now() + 600_000).toISOString()
      })
      yield* Scope.close(first, Exit.void)
      yield* Effect.orDie(Effect.provideContext(
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE posts SET scheduled_at = now() - interval '5 seconds' WHERE id = ${created.id}`),
        firstContext
      ))
      assert.strictEqual((yield* Effect.provideContext(rowStatus(created.id), firstContext)), "scheduled")

      const secondContext = yield* Layer.build(server())
      const post = yield* settled(get, created.id)
      assert.strictEqual(post.status, "published")
      const last = (yield* Effect.provideContext(events(workspace.id), secondContext)).at(-1)!
      assert.strictEqual(last.event, "post.published")
      assert.match(last.data.note, /^Went out \d+ s after its time \(.+\): no Herald worker was running then$/)
    })))

  it.effect("a post whose message was lost (a process stopped between saving it and sending it) is found by the sweep", () =>
    Effect.scoped(Effect.gen(function*() {
      const database = yield* sharedDatabase
      const server = () => Main.layerWith(settings({ port }), database, false, lasting, lateTuning).pipe(Layer.provide(quiet))
      const first = yield* Scope.make()
      const firstContext = yield* Layer.buildWithScope(server(), first)
      const { accounts, create, get } = yield* setup(["facebook"]).pipe(Effect.provideContext(firstContext))
      const created = yield* create({
        content: "Message lost",
        accountIds: [accounts.facebook],
        scheduledAt: new Date(Date.now() + 600_000).toISOString()
      })
      yield* Scope.close(first, Exit.void)
      // As if the message had never been sent, and the post's time were a minute ago.
      yield* Effect.orDie(Effect.provideContext(
        Effect.flatMap(SqlClient.SqlClient, (sql) =>
          Effect.andThen(
            sql`DELETE FROM cluster_messages`,
            sql`UPDATE posts SET scheduled_at = now() - interval '1 minute' WHERE id = ${created.id}`
          )),
        firstContext
      ))
      yield* Layer.build(server())
      const post = yield* settled(get, created.id)
      assert.strictEqual(post.status, "published")
      assert.strictEqual(post.targets[0].status, "published")
    })))
})

const rowStatus = (postId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(Effect.orDie(sql<{ readonly status: string }>`SELECT status FROM posts WHERE id = ${postId}`), (rows) => rows[0]?.status))

layer(backends()[0]!.layer, { excludeTestServices: true })("a fault inside Herald while sending", (it) => {
  it.effect("ends the target saying the post may exist, instead of leaving the post publishing", () =>
    Effect.scoped(Effect.gen(function*() {
      const database = yield* sharedDatabase
      const boom = Layer.succeed(Publisher.PublishFaults, (at) => at === "after-call" ? Effect.die(new Error("boom")) : Effect.void)
      const context = yield* Layer.build(Main.layerWith(settings({ port }), database, false, lasting, fastTuning).pipe(Layer.provide([boom, quiet])))
      const { accounts, create, get } = yield* setup(["x"]).pipe(Effect.provideContext(context))
      const created = yield* create({ content: "Faulty", accountIds: [accounts.x], publishNow: true })
      const post = yield* settled(get, created.id)
      assert.strictEqual(post.status, "failed")
      assert.match(post.targets[0].error, /^x: Herald could not finish sending this post \(an internal error, logged\); it may have been posted/)
    })))
})
