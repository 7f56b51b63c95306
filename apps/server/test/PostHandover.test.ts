import { assert, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { backends } from "@herald/db/testing"
import * as Packages from "../src/Packages.ts"
import { eventually } from "../../../testing/eventually.ts"
import { fastTuning, serverLayer } from "./harness.ts"
import { settled, setup } from "./publishing.ts"

// Posts are handed to the cluster only once due within the horizon (decision 0051): a post further out has
// no message in the cluster's table until the handover round finds it coming near, and then goes out on
// time. Shortened here: a 2 s horizon, a round every 200 ms.

const handover = { horizon: Duration.seconds(2), every: Duration.millis(200), slack: Duration.millis(100) }

const messagesOf = (postId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly deliverAt: string }>`SELECT deliver_at FROM cluster_messages WHERE entity_id = ${postId}`).pipe(
      Effect.map((rows) => rows.length),
      Effect.orDie
    )

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString()

for (const backend of backends()) {
  const server = serverLayer({}, Packages.all.filter((entry) => entry.network === "x"), backend, { ...fastTuning, handover })
  layer(server, { excludeTestServices: true })(`handing posts over on ${backend.name}`, (it) => {
    it.effect("a post due beyond the horizon has no cluster message until the round hands it over, then goes out on time", () =>
      Effect.gen(function*() {
        const { accounts, create, get } = yield* setup(["x"])
        const far = yield* create({ content: "Later on", accountIds: [accounts.x], scheduledAt: inSeconds(3.5) })
        const near = yield* create({ content: "Very soon", accountIds: [accounts.x], scheduledAt: inSeconds(1.5) })
        const farAt = new Date(far.scheduledAt).getTime()
        const beyond = farAt - Duration.toMillis(handover.horizon) - Duration.toMillis(handover.slack)
        // Read while it is still beyond the horizon (a machine too slow to get here by then has no such moment).
        const unsent = yield* messagesOf(far.id)
        if (Date.now() < beyond) assert.strictEqual(unsent, 0, "a post beyond the horizon is not handed over at its create")
        assert.strictEqual(yield* messagesOf(near.id), 1, "a post within the horizon is handed over at once")
        // Within the horizon from about 1.5 s on: the round hands it over before its time.
        yield* eventually("the far post handed over", Effect.map(messagesOf(far.id), (count) => count === 1))
        const status = (yield* get(far.id)).status
        if (Date.now() < farAt) assert.strictEqual(status, "scheduled", "handed over before its time")
        const published = yield* settled(get, far.id)
        assert.strictEqual(published.status, "published")
        assert.strictEqual((yield* settled(get, near.id)).status, "published")
        const publishedAt = new Date(published.publishedAt).getTime()
        assert.isAtLeast(publishedAt, farAt, "not before its time")
        // From the message handed over before its time, not from the sweep (which looks for posts 30 s late).
        assert.isBelow(publishedAt - farAt, 30_000, "at its time, not left to the sweep")
      }))

    it.effect("a post moved from beyond the horizon to within it is handed over at the move, and goes out", () =>
      Effect.gen(function*() {
        const { accounts, create, get, send } = yield* setup(["x"])
        const post = yield* create({ content: "Moving", accountIds: [accounts.x], scheduledAt: inSeconds(600) })
        assert.strictEqual(yield* messagesOf(post.id), 0)
        const moved = yield* send("PATCH", `/posts/${post.id}`, { scheduledAt: inSeconds(1) })
        assert.strictEqual(moved.status, 200, moved.text)
        assert.strictEqual(yield* messagesOf(post.id), 1)
        assert.strictEqual((yield* settled(get, post.id)).status, "published")
      }))
  })
}
