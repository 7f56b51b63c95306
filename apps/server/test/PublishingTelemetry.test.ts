import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Metric, Option, Tracer } from "effect"
import { SqlClient, Statement } from "effect/sql"
import { Metrics } from "@herald/core"
import * as Packages from "../src/Packages.ts"
import { serverLayer } from "./harness.ts"
import { handOver, settled, setup } from "./publishing.ts"

// What publishing shows an operator: `herald_targets_ended_total{network,outcome}` and
// `herald_publishing_lag_seconds{network}` after posts go out in the sandbox, and, with a tracer installed,
// the post's `herald.publish` span around a `herald.network.publish` span per network call.

const ended = (network: string, outcome: "published" | "failed") =>
  Effect.map(Metric.value(Metric.withAttributes(Metrics.targetsEnded, { network, outcome })), (state) => state.count)

const lag = (network: string) => Metric.value(Metric.withAttributes(Metrics.publishingLag, { network }))

const onlyX = Packages.all.filter((entry) => entry.network === "x" || entry.network === "linkedin")

layer(serverLayer({}, onlyX), { excludeTestServices: true })("publishing metrics", (it) => {
  it.effect("a published target counts once as published on its network, with its lag from the post's time", () =>
    Effect.gen(function*() {
      const { accounts, create, get } = yield* setup(["x", "linkedin"])
      const before = { x: yield* ended("x", "published"), linkedin: yield* ended("linkedin", "published"), lag: yield* lag("x") }
      const started = Date.now()
      const created = yield* create({ content: "Counted on the way out", accountIds: [accounts.x, accounts.linkedin], publishNow: true })
      assert.strictEqual((yield* settled(get, created.id)).status, "published")
      assert.strictEqual((yield* ended("x", "published")) - before.x, 1)
      assert.strictEqual((yield* ended("linkedin", "published")) - before.linkedin, 1)
      const after = yield* lag("x")
      assert.strictEqual(after.count - before.lag.count, 1)
      // Sent now: measured from the post's creation, so at most the time this test took (however long).
      const seconds = after.sum - before.lag.sum
      assert.isAtLeast(seconds, 0)
      assert.isAtMost(seconds, (Date.now() - started) / 1000)
    }))

  it.effect("a target that fails counts as failed, and adds no lag: the network never accepted it", () =>
    Effect.gen(function*() {
      const { accounts, create, get } = yield* setup(["x"])
      const sql = yield* SqlClient.SqlClient
      const before = { failed: yield* ended("x", "failed"), published: yield* ended("x", "published"), lag: (yield* lag("x")).count }
      const created = yield* create({
        content: "Its account goes before its time",
        accountIds: [accounts.x],
        scheduledAt: new Date(Date.now() + 3_600_000).toISOString()
      })
      yield* Effect.orDie(sql`UPDATE accounts SET status = 'disconnected' WHERE id = ${accounts.x}`)
      yield* handOver([created.id])
      assert.strictEqual((yield* settled(get, created.id)).status, "failed")
      assert.strictEqual((yield* ended("x", "failed")) - before.failed, 1)
      assert.strictEqual((yield* ended("x", "published")) - before.published, 0)
      assert.strictEqual((yield* lag("x")).count - before.lag, 0)
    }))
})

// Every span the server starts, as Effect hands them to a tracer.
const recorded: Array<Tracer.Span> = []
const recorder = Tracer.make({
  span: (options) => {
    const span = new Tracer.NativeSpan(options)
    recorded.push(span)
    return span
  }
})

// Every statement run inside a post's publishing (under its herald.publish span), by post id.
const statements = new Map<string, Array<string>>()
const counting: Statement.Transformer = (statement, _sql, _fiber, span) => {
  const post = ancestors(span).find((parent) => parent._tag === "Span" && parent.name === "herald.publish")
  const postId = post?._tag === "Span" ? String(post.attributes.get("herald.post_id")) : undefined
  if (postId !== undefined) statements.set(postId, [...(statements.get(postId) ?? []), statement.compile()[0]])
  return Effect.succeed(statement)
}

layer(
  serverLayer({}, onlyX).pipe(
    Layer.provide(Layer.mergeAll(Layer.succeed(Tracer.Tracer, recorder), Layer.succeed(Statement.CurrentTransformer, counting)))
  ),
  { excludeTestServices: true })("publishing spans", (it) => {
  it.effect("a post's publishing is one herald.publish span, each network call a herald.network.publish span inside it", () =>
    Effect.gen(function*() {
      const { accounts, create, get } = yield* setup(["x", "linkedin"])
      const created = yield* create({ content: "Traced on the way out", accountIds: [accounts.x, accounts.linkedin], publishNow: true })
      assert.strictEqual((yield* settled(get, created.id)).status, "published")
      const posts = recorded.filter((span) => span.name === "herald.publish" && span.attributes.get("herald.post_id") === created.id)
      assert.strictEqual(posts.length, 1)
      const post = posts[0]!
      assert.strictEqual(post.status._tag, "Ended")
      const calls = recorded.filter((span) => span.name === "herald.network.publish" && span.attributes.get("herald.post_id") === created.id)
      assert.deepStrictEqual(
        calls.map((span) => ({
          network: span.attributes.get("herald.network"),
          target: span.attributes.get("herald.target_id"),
          inside: span.traceId === post.traceId && ancestors(span).includes(post)
        })).sort((a, b) => String(a.network).localeCompare(String(b.network))),
        [
          { network: "linkedin", target: accounts.linkedin, inside: true },
          { network: "x", target: accounts.x, inside: true }
        ]
      )
    }))

  // The database round trips are most of what publishing costs Herald (decision 0052): the post's begin
  // reads its targets with it, each target records its call before and its answer after (two statements,
  // which targets going at once share), and the ending is a read and one statement that moves the post and
  // inserts its event together. It took eleven.
  it.effect("a post with two targets is published in at most seven statements: begin, two a target, two to end it", () =>
    Effect.gen(function*() {
      const { accounts, create, get } = yield* setup(["x", "linkedin"])
      const created = yield* create({ content: "Counted statements", accountIds: [accounts.x, accounts.linkedin], publishNow: true })
      assert.strictEqual((yield* settled(get, created.id)).status, "published")
      const ran = statements.get(created.id) ?? []
      assert.isAtMost(ran.length, 1 + 2 * 2 + 2, ran.map((text) => text.replace(/\s+/g, " ").slice(0, 60)).join("\n"))
    }))
})

const ancestors = (span: Tracer.AnySpan): Array<Tracer.AnySpan> =>
  Option.match(span._tag === "Span" ? span.parent : Option.none(), {
    onNone: () => [],
    onSome: (parent) => [parent, ...ancestors(parent)]
  })
