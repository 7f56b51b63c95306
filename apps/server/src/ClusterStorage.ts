import { Effect, Exit, Layer, Request, RequestResolver, Schema } from "effect"
import { ClusterError, MessageStorage, type Reply, Snowflake, SqlMessageStorage } from "effect/cluster"
import type { Digest } from "effect/crypto"
import { SqlClient, SqlSchema } from "effect/sql"
import * as NodeCrypto from "@effect/platform-node/NodeCrypto"

/**
 * The cluster's message storage (`effect/cluster` SqlMessageStorage, its tables and migrations), with one
 * change: a request's final reply (every post's publishing ends with one) is written in one statement, shared
 * by the replies saved in the same turn of the scheduler. The library writes each as `BEGIN`, an `UPDATE`
 * of the message, an `INSERT` of the reply and `COMMIT`: four round trips a post, 1.3 statements of the
 * 4.1 a published target cost (decision 0052), and a statement costs Herald about as much CPU as the rest of
 * a target's work. One statement is as atomic as the transaction was: the reply row and the message marked
 * processed go together or not at all. A reply the table already holds (the library's unique key on the
 * request) fails that reply alone, as its own transaction did, and leaves its message as it was.
 */

interface SaveExit extends Request.Request<void, ClusterError.PersistenceError> {
  readonly reply: Reply.WithExitEncoded
}
const SaveExit = Request.of<SaveExit>()

const exitReplies = (sql: SqlClient.SqlClient) => {
  // The replies written, each its id as text, built once with the resolver. A row unlike that fails the
  // batch's replies as a database failure does, so none is left waiting.
  const saveReplies = SqlSchema.findAll({
    Request: Schema.String,
    Result: Schema.Struct({ id: Schema.String }),
    execute: (rows) =>
      sql`
      WITH reply AS (
        INSERT INTO cluster_replies (id, kind, request_id, payload, sequence)
        SELECT r.id, 0, r.request_id, r.payload, NULL
        FROM json_to_recordset(${rows}::json) AS r (id bigint, request_id bigint, payload text)
        ON CONFLICT DO NOTHING
        RETURNING id, request_id
      ), message AS (
        UPDATE cluster_messages m SET processed = TRUE, last_reply_id = reply.id
        FROM reply WHERE m.request_id = reply.request_id
      )
      SELECT id::text AS id FROM reply`
  })
  return RequestResolver.make<SaveExit>((entries) => {
    const rows = JSON.stringify(entries.map(({ request }) => ({
      id: request.reply.id,
      request_id: request.reply.requestId,
      payload: JSON.stringify(request.reply.exit)
    })))
    return saveReplies(rows).pipe(
      Effect.map((saved) => {
        const written = new Set(saved.map((row) => row.id))
        for (const { completeUnsafe, request } of entries) {
          completeUnsafe(
            written.has(request.reply.id)
              ? Exit.void
              : Exit.fail(new ClusterError.PersistenceError({ cause: new Error(`cluster reply for request ${request.reply.requestId} already saved`) }))
          )
        }
      }),
      Effect.catch((error) =>
        Effect.sync(() => {
          for (const { completeUnsafe } of entries) completeUnsafe(Exit.fail(new ClusterError.PersistenceError({ cause: error })))
        })
      )
    )
  })
}

/** The library's encoded SQL storage (migrations run) with final replies batched into one statement. */
export const makeEncoded: Effect.Effect<MessageStorage.Encoded, never, SqlClient.SqlClient | Digest.Digest> = Effect.gen(
  function*() {
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    const encoded = yield* SqlMessageStorage.makeEncoded()
    const replies = exitReplies(sql)
    return {
      ...encoded,
      // Chunks (streamed replies, which publishing never sends) keep the library's own write.
      saveReply: (reply) =>
        reply._tag === "WithExit" ? Effect.request(SaveExit({ reply }), replies) : encoded.saveReply(reply)
    }
  }
)

/** `SqlMessageStorage.layer` with final replies batched into one statement (see above). */
export const layer = Layer.effect(MessageStorage.MessageStorage, Effect.flatMap(makeEncoded, MessageStorage.makeEncoded)).pipe(
  Layer.provide(Layer.mergeAll(Snowflake.layerGenerator, NodeCrypto.layerDigest))
)
