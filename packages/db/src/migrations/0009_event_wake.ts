import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// Every transaction that writes events announces it on `herald_events` when it commits, so the webhook
// fan-out of every process starts at once rather than at its next poll. The payload is empty: the
// listeners read the outbox itself, and PostgreSQL folds a transaction's identical notices into one.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE FUNCTION herald_events_written() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('herald_events', '');
      RETURN NULL;
    END
    $$
  `
  yield* sql`
    CREATE TRIGGER events_written AFTER INSERT ON events
    FOR EACH STATEMENT EXECUTE FUNCTION herald_events_written()
  `
})
