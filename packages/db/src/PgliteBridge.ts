/**
 * PGlite behind the PostgreSQL wire protocol, in process: every call to
 * `connect` returns a `Duplex` that `@effect/sql-pg` can use as a
 * connection (its `stream` option), so the same PgClient code runs against
 * PGlite and a PostgreSQL server.
 *
 * PGlite is one backend session. The bridge shares it between connections:
 *
 * - A connection holds the session from its first message until PGlite
 *   answers a ReadyForQuery with status `I`. A transaction therefore
 *   excludes every other connection until it commits or rolls back; their
 *   statements wait (first come, first served). Code that waits, inside a
 *   transaction, for a query on another connection deadlocks here.
 * - LISTEN / UNLISTEN are tracked per connection and each notification goes
 *   to the connections listening on its channel.
 * - Each batch runs in a turn of the event loop of its own, as a socket's
 *   reads arrive, so other fibers get to run between one client's statements
 *   (a listener forked at startup LISTENs while the caller goes on querying).
 * - A connection that goes away has its open transaction rolled back, its
 *   prepared statements closed and the channels nobody else wants unlistened.
 * - Startup is answered by the bridge (no authentication, no TLS: an
 *   SSLRequest gets `N`); CancelRequest is ignored, since a statement always
 *   runs to completion before anything else happens; Terminate ends the
 *   connection, never PGlite's session.
 * - What lives in a PostgreSQL session is shared by all connections:
 *   settings (`SET`; the bridge ignores those sent at startup), temporary
 *   tables, session-level advisory locks (every connection holds them all,
 *   hence the cluster's `shardLockDisableAdvisory` on PGlite), and the
 *   unnamed statement and portal, which therefore do not outlast a Sync.
 *   `@effect/sql-pg` itself relies on none of these.
 * - A LISTEN counts from when it is sent, even if it then fails.
 *
 * @since 0.0.0
 */
import type { PGlite } from "@electric-sql/pglite"
import { Effect, Schema } from "effect"
import type { Scope } from "effect/Scope"
import type { Duplex } from "node:stream"
import { BridgeSession } from "./internal/BridgeSession.ts"

export interface PgliteBridge {
  readonly pglite: PGlite
  /** Opens a bridged connection. Pass it as PgClient's `stream` option. */
  readonly connect: () => Duplex
}

/** PGlite could not report the settings the bridge announces to clients. */
export class PgliteBridgeError extends Schema.TaggedError<PgliteBridgeError>()("PgliteBridgeError", {
  cause: Schema.Defect()
}) {
  override get message(): string {
    return `The embedded database did not answer: ${String(this.cause)}`
  }
}

/** The settings a PostgreSQL server reports at startup and clients may read. */
const reported = [
  "server_version",
  "server_encoding",
  "client_encoding",
  "DateStyle",
  "IntervalStyle",
  "TimeZone",
  "integer_datetimes",
  "standard_conforming_strings",
  "is_superuser",
  "default_transaction_read_only",
  "in_hot_standby"
]

/**
 * Bridges an open PGlite. Closing the scope ends the open connections, waits
 * for their cleanup and refuses new ones; it does not close PGlite, which
 * stays with its owner.
 *
 * While bridged connections are open, use PGlite only through them: its own
 * `query` would run inside whichever connection's transaction is open.
 */
export const make = Effect.fn("PgliteBridge.make")(function*(
  pglite: PGlite
): Effect.fn.Return<PgliteBridge, PgliteBridgeError, Scope> {
  const settings = yield* Effect.tryPromise({
    try: () =>
      pglite.query<{ readonly name: string; readonly value: string }>(
        `SELECT name, current_setting(name) AS value FROM unnest($1::text[]) AS name`,
        [reported]
      ),
    catch: (cause) => new PgliteBridgeError({ cause })
  })
  const session = new BridgeSession(pglite, settings.rows.map((row) => [row.name, row.value] as const))
  yield* Effect.addFinalizer(() => Effect.callback<void>((resume) => session.shutdown(() => resume(Effect.void))))
  return { pglite, connect: () => session.connect() }
})
