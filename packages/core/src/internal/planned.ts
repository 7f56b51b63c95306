import type { Effect } from "effect"
import type { SqlError, Statement } from "effect/sql"

/**
 * Runs a queue statement planned for the table as it is now. A prepared statement settles on a generic plan
 * after five runs, made when the queue was small, and keeps it until the table's statistics change: a
 * sequential scan planned over 100 messages was still run at 30,000, 23 ms a claim, where autovacuum is
 * off or has not yet analyzed the table.
 */
export const planned = <A>(statement: Statement.Statement<unknown>): Effect.Effect<ReadonlyArray<A>, SqlError.SqlError> =>
  statement.unprepared as Effect.Effect<ReadonlyArray<A>, SqlError.SqlError>
