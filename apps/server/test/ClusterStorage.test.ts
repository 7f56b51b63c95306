import { assert, describe, layer } from "@effect/vitest"
import { Effect, Exit, Schedule } from "effect"
import { SqlClient, Statement } from "effect/sql"
import * as NodeCrypto from "@effect/platform-node/NodeCrypto"
import { backends } from "@herald/db/testing"
import * as ClusterStorage from "../src/ClusterStorage.ts"
import * as Packages from "../src/Packages.ts"
import { fastTuning, serverLayer } from "./harness.ts"
import { settled, setup } from "./publishing.ts"

// A request's final reply is the reply row and its message marked processed, written together; the replies
// saved at once share one statement (decision 0052: the library spent four round trips on each), and a
// reply already saved fails alone, leaving the others saved.

// Every statement compiled while it is installed.
const ran: Array<string> = []
const counting: Statement.Transformer = (statement) => {
  ran.push(statement.compile()[0])
  return Effect.succeed(statement)
}

// A request message as the library stores it, without the envelope machinery around it.
const request = (id: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`
      INSERT INTO cluster_messages (id, message_id, shard_id, entity_type, entity_id, kind, tag, payload, headers, processed, request_id)
      VALUES (${id}, ${`m${id}`}, 'default:1', 'Post', ${`p${id}`}, 0, 'Publish', '{}', '{}', FALSE, ${id})`)

const reply = (requestId: number, id: number) => ({
  _tag: "WithExit" as const,
  requestId: String(requestId),
  id: String(id),
  exit: { _tag: "Success" as const, value: null }
})

for (const backend of backends()) {
  describe(`ClusterStorage on ${backend.name}`, () => {
    layer(backend.layer, { excludeTestServices: true })((it) => {
      it.effect("final replies saved at once are one statement, each with its message processed; a repeat fails alone", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const storage = yield* ClusterStorage.makeEncoded.pipe(Effect.provide(NodeCrypto.layerDigest))
          yield* Effect.forEach([101, 102, 103], request, { discard: true })

          ran.length = 0
          yield* Effect.forEach([101, 102, 103], (id) => storage.saveReply(reply(id, id + 1000)), { concurrency: "unbounded", discard: true }).pipe(
            Effect.provideService(Statement.CurrentTransformer, counting)
          )
          assert.strictEqual(ran.length, 1, ran.join("\n"))

          const messages = yield* sql<{ id: string; processed: boolean; lastReplyId: string | null }>`
            SELECT id::text AS id, processed, last_reply_id::text AS last_reply_id FROM cluster_messages WHERE id IN (101, 102, 103) ORDER BY id`
          assert.deepStrictEqual(messages.map((row) => [row.id, row.processed, row.lastReplyId]), [
            ["101", true, "1101"],
            ["102", true, "1102"],
            ["103", true, "1103"]
          ])
          const replies = yield* sql<{ requestId: string; kind: number; payload: string }>`
            SELECT request_id::text AS request_id, kind, payload FROM cluster_replies WHERE request_id IN (101, 102, 103) ORDER BY request_id`
          assert.deepStrictEqual(replies.map((row) => [row.requestId, row.kind, JSON.parse(row.payload)]), [
            ["101", 0, { _tag: "Success", value: null }],
            ["102", 0, { _tag: "Success", value: null }],
            ["103", 0, { _tag: "Success", value: null }]
          ])

          // A second final reply to 101 fails (as the library's own transaction did on its unique key) and
          // moves nothing; 104's, saved with it, is written.
          yield* request(104)
          const [again, fresh] = yield* Effect.all([
            Effect.exit(storage.saveReply(reply(101, 2101))),
            Effect.exit(storage.saveReply(reply(104, 1104)))
          ], { concurrency: "unbounded" })
          assert.isTrue(Exit.isFailure(again))
          assert.isTrue(Exit.isSuccess(fresh))
          const after = yield* sql<{ id: string; lastReplyId: string | null }>`
            SELECT id::text AS id, last_reply_id::text AS last_reply_id FROM cluster_messages WHERE id IN (101, 104) ORDER BY id`
          assert.deepStrictEqual(after.map((row) => [row.id, row.lastReplyId]), [["101", "1101"], ["104", "1104"]])
        }))
    })
  })
}

// Through the whole server: a published post's message ends processed, with its reply, so it is not
// delivered again.
const messageOf = (postId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly processed: boolean; readonly replies: number }>`
      SELECT m.processed, (SELECT count(*)::int FROM cluster_replies r WHERE r.request_id = m.request_id AND r.id = m.last_reply_id) AS replies
      FROM cluster_messages m WHERE m.entity_id = ${postId}`).pipe(Effect.orDie)

for (const backend of backends()) {
  const server = serverLayer({}, Packages.all.filter((entry) => entry.network === "x"), backend, fastTuning)
  layer(server, { excludeTestServices: true })(`the cluster's replies on ${backend.name}`, (it) => {
    it.effect("a published post's message is processed, with its reply", () =>
      Effect.gen(function*() {
        const { accounts, create, get } = yield* setup(["x"])
        const post = yield* create({ content: "Replied to", accountIds: [accounts.x], publishNow: true })
        assert.strictEqual((yield* settled(get, post.id)).status, "published")
        // The reply is written as the entity's handler returns, just after the post's ending.
        const rows = yield* messageOf(post.id).pipe(
          Effect.repeat({ until: (rows) => rows.length > 0 && rows.every((row) => row.processed), schedule: Schedule.spaced("100 millis"), times: 50 })
        )
        assert.deepStrictEqual(rows.map((row) => [row.processed, row.replies]), [[true, 1]])
      }))
  })
}
