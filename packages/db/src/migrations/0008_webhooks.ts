import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// Webhook endpoints (their signing secrets sealed by the core), one message per event and endpoint (the
// body, fixed across attempts, and where its retries stand), and one delivery per attempt (the
// `Service-Delivery` id, the answer's status and start, the error, the next retry). `events.dispatched`
// marks the events already fanned out, so the fan-out never depends on the order transactions commit in.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE webhook_endpoints (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      url text NOT NULL,
      events jsonb NOT NULL DEFAULT '[]',
      description text,
      enabled boolean NOT NULL DEFAULT true,
      secret bytea NOT NULL,
      consecutive_failures integer NOT NULL DEFAULT 0,
      disabled_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )
  `
  yield* sql`CREATE INDEX webhook_endpoints_workspace ON webhook_endpoints (workspace_id, created_at, id)`
  yield* sql`
    CREATE TABLE webhook_messages (
      id text PRIMARY KEY,
      endpoint_id text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
      event_id uuid NOT NULL,
      event text NOT NULL,
      body text NOT NULL,
      state text NOT NULL DEFAULT 'pending',
      attempts integer NOT NULL DEFAULT 0,
      -- A test event gets one attempt and no retries.
      once boolean NOT NULL DEFAULT false,
      next_attempt_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (endpoint_id, event_id)
    )
  `
  yield* sql`CREATE INDEX webhook_messages_due ON webhook_messages (endpoint_id, next_attempt_at) WHERE state = 'pending'`
  yield* sql`
    CREATE TABLE webhook_deliveries (
      id text PRIMARY KEY,
      message_id text NOT NULL REFERENCES webhook_messages (id) ON DELETE CASCADE,
      endpoint_id text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
      attempt integer NOT NULL,
      status_code integer,
      response text,
      duration_ms integer,
      error text,
      next_retry_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )
  `
  yield* sql`CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX webhook_deliveries_age ON webhook_deliveries (created_at)`
  yield* sql`ALTER TABLE events ADD COLUMN dispatched boolean NOT NULL DEFAULT false`
  yield* sql`CREATE INDEX events_undispatched ON events (sequence) WHERE NOT dispatched`
})
