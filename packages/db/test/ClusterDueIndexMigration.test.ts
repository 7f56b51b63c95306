import { NodeCrypto } from "@effect/platform-node"
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { ShardingConfig, SqlMessageStorage } from "effect/cluster"
import { SqlClient } from "effect/sql"
import { backends } from "../src/testing.ts"

// Migration 0032: the cluster's due check answered from an index on the unprocessed messages' `deliver_at`
// rather than by reading every future message, on a new database of either backend, and still there once
// the cluster's storage has started and made (or found) its own tables.

const shards = Array.from({ length: 300 }, (_, index) => `default:${index + 1}`)

/** The cluster's due check as its storage sends it on PostgreSQL (the selection inside its UPDATE). */
const dueCheck = (sql: SqlClient.SqlClient, now: number) =>
  sql`
    SELECT m.id FROM cluster_messages m
    WHERE m.shard_id IN (${sql.literal(shards.map((shard) => `'${shard}'`).join(","))})
      AND NOT EXISTS (
        SELECT 1 FROM cluster_replies WHERE request_id = m.request_id AND (kind = 0 OR acked = FALSE))
      AND m.processed = FALSE
      AND (m.last_read IS NULL OR m.last_read < NOW() - INTERVAL '10 minutes')
      AND (m.deliver_at IS NULL OR m.deliver_at <= ${sql.literal(String(now))})
    ORDER BY m.rowid ASC
    LIMIT 1024
    FOR UPDATE`

const storage = SqlMessageStorage.layer.pipe(Layer.provide([ShardingConfig.layer(), NodeCrypto.layerDigest]))

for (const backend of backends()) layer(backend.layer)(`migration 0032 on ${backend.name}`, (it) => {
  it.effect("indexes the cluster's due check, and the cluster's own start keeps the index and its tables", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // The storage's own migrations find their work done, and the index stays.
      yield* Layer.build(storage).pipe(Effect.scoped)
      const indexes = yield* sql<{ readonly indexdef: string }>`
        SELECT indexdef FROM pg_indexes WHERE tablename = 'cluster_messages' AND indexname = 'cluster_messages_due'`
      assert.strictEqual(indexes.length, 1)
      assert.match(indexes[0]!.indexdef, /\(deliver_at\) WHERE \(processed = false\)/)

      // 20,000 scheduled posts' messages in the future, three due now.
      const now = Date.now()
      yield* sql`
        INSERT INTO cluster_messages (id, shard_id, entity_type, entity_id, kind, tag, payload, headers, request_id, deliver_at)
        SELECT n, 'default:' || (1 + n % 300), 'Post', 'pst_' || n, 0, 'Publish', '{}', '{}', n,
          CASE WHEN n <= 3 THEN ${now - 1000} ELSE ${now + 86_400_000} + n * 1000 END
        FROM generate_series(1, 20000) n`
      yield* sql`ANALYZE cluster_messages`
      const due = yield* dueCheck(sql, now)
      assert.deepStrictEqual(due.map((row) => Number(row.id)).sort(), [1, 2, 3])
      const plan = yield* sql<{ readonly "QUERY PLAN": string }>`EXPLAIN ${dueCheck(sql, now)}`.pipe(
        Effect.map((rows) => rows.map((row) => Object.values(row)[0]).join("\n"))
      )
      assert.include(plan, "cluster_messages_due", plan)
    }))
})
