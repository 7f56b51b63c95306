// The seeding both posts benches share: `count` more scheduled posts (3 targets each, copied from the
// workspace's own), each with a cluster message copied from the latest one Herald wrote for a create when
// `withMessages` (and there is one), then vacuumed and checkpointed so the next phase pays for neither.
import { psql, psqlScript } from "../harness.ts"

export const seedScheduled = (url: string, workspaceId: string, count: number, withMessages: boolean) => {
  psql(url, `
    INSERT INTO posts (id, workspace_id, status, content, scheduled_at, sort_at)
    SELECT 'pst_seed' || lpad(n::text, 18, '0'), '${workspaceId}', 'scheduled', 'seeded',
      now() + interval '3 days' + (n || ' seconds')::interval, now() + interval '3 days' + (n || ' seconds')::interval
    FROM generate_series(1, ${count}) n;
    INSERT INTO post_targets (post_id, position, account_id, platform, username)
    SELECT 'pst_seed' || lpad(n::text, 18, '0'), t.position, t.account_id, t.platform, t.username
    FROM generate_series(1, ${count}) n,
      (SELECT DISTINCT ON (position) position, account_id, platform, username FROM post_targets ORDER BY position) t;
    ${withMessages ? "" : "/*"}
    -- Each seeded post's message: a copy of a real one, on the shards the real ones use, due when the post is.
    WITH template AS (SELECT * FROM cluster_messages WHERE processed = false AND deliver_at IS NOT NULL ORDER BY rowid DESC LIMIT 1),
    shards AS (SELECT shard_id, row_number() OVER (ORDER BY shard_id) - 1 AS position, count(*) OVER () AS total
      FROM (SELECT DISTINCT shard_id FROM cluster_messages) s)
    INSERT INTO cluster_messages (id, message_id, shard_id, entity_type, entity_id, kind, tag, payload, headers, processed,
      request_id, deliver_at)
    SELECT 4000000000000000000 + n, NULL, shards.shard_id, template.entity_type, 'pst_seed' || lpad(n::text, 18, '0'),
      template.kind, template.tag, replace(template.payload, template.entity_id, 'pst_seed' || lpad(n::text, 18, '0')),
      template.headers, false, 4000000000000000000 + n, (extract(epoch FROM now() + interval '3 days') * 1000)::bigint + n * 1000
    FROM generate_series(1, ${count}) n, template, shards WHERE shards.position = n % shards.total;
    ${withMessages ? "" : "*/"}
    `)
  // Vacuumed now rather than by autovacuum during the next phase; and a checkpoint, so that the next phase does
  // not pay for the seeding's writes (the first change to each page after a checkpoint logs the whole page).
  psqlScript(url, "VACUUM ANALYZE posts;\nVACUUM ANALYZE post_targets;\nVACUUM ANALYZE cluster_messages;\nVACUUM ANALYZE events;\nCHECKPOINT;")
}
