import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { eventually } from "../../../testing/eventually.ts"

// What the webhook tests read of an endpoint in the database, to wait for a state rather than for a time.

/** Where an endpoint's messages are, and whether every attempt claimed has been recorded. */
export const endpointState = (endpointId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      Effect.orDie(sql<{
        readonly enabled: boolean
        readonly consecutiveFailures: number
        readonly pending: number | string
        readonly held: number | string
        readonly failed: number | string
        readonly succeeded: number | string
        readonly claimed: number | string
        readonly recorded: number | string
      }>`
        SELECT e.enabled, e.consecutive_failures,
          (SELECT count(*) FROM webhook_messages WHERE endpoint_id = e.id AND state = 'pending') AS pending,
          (SELECT count(*) FROM webhook_messages WHERE endpoint_id = e.id AND state = 'held') AS held,
          (SELECT count(*) FROM webhook_messages WHERE endpoint_id = e.id AND state = 'failed') AS failed,
          (SELECT count(*) FROM webhook_messages WHERE endpoint_id = e.id AND state = 'succeeded') AS succeeded,
          (SELECT coalesce(sum(attempts), 0) FROM webhook_messages WHERE endpoint_id = e.id) AS claimed,
          (SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = e.id) AS recorded
        FROM webhook_endpoints e WHERE e.id = ${endpointId}`),
      ([row]) => ({
        enabled: row!.enabled,
        consecutiveFailures: row!.consecutiveFailures,
        pending: Number(row!.pending),
        held: Number(row!.held),
        failed: Number(row!.failed),
        succeeded: Number(row!.succeeded),
        claimed: Number(row!.claimed),
        recorded: Number(row!.recorded)
      })
    ))

/**
 * The endpoint once nothing more can be sent to it: no message waits for an attempt (each has ended, or is
 * held while it is off, and held messages are never claimed) and every attempt claimed has been recorded, so
 * none is under way. `until` adds what the test waits for besides (the messages it expects to have ended).
 */
export const settled = (endpointId: string, until: (state: Effect.Success<ReturnType<typeof endpointState>>) => boolean = () => true) =>
  eventually(
    `endpoint ${endpointId} to settle`,
    Effect.map(endpointState(endpointId), (state) => state.pending === 0 && state.claimed === state.recorded && until(state) && state)
  )
