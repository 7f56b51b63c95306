import { Deferred, Effect, Metric, Queue } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import * as Metrics from "../Metrics.ts"
import { Notifier } from "../Notifier.ts"
import { planned } from "./planned.ts"
import { failureCounts, type Outcome } from "../WebhookPolicy.ts"
import { hold } from "./webhookHolding.ts"

/** An ended attempt, as it is written to the history with its message's next step. */
export interface EndedAttempt {
  readonly id: string
  readonly messageId: string
  readonly endpointId: string
  readonly number: number
  readonly statusCode: number | null
  readonly response: string | null
  readonly durationMs: number
  readonly error: string | null
  readonly nextRetryAt: string | null
  readonly createdAt: string
  readonly outcome: Outcome
  /** False for a test event: it is never kept for a switched-off endpoint. */
  readonly keep: boolean
  /** False for a manual attempt that failed: the message stays where its schedule had it. */
  readonly touchMessage: boolean
}

/** What the switch-off notice names. */
export interface RecordedEndpoint {
  readonly id: string
  readonly workspaceId: string
  readonly url: string
}

interface Recording {
  readonly endpoint: RecordedEndpoint
  readonly attempt: EndedAttempt
  readonly done: Deferred.Deferred<void, SqlError.SqlError>
}

/**
 * The recorder of ended attempts. Attempts that end while a batch is being written wait for the next one,
 * so under load one statement records many attempts (group commit) and at rest each is written at once.
 * A message appears at most once in a statement.
 */
export const make = (options: { readonly disableAfter: number }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const notifier = yield* Notifier
    const recordings = yield* Queue.unbounded<Recording>()

    const recordBatch = Effect.fnUntraced(function*(batch: ReadonlyArray<Recording>) {
      const counts = failureCounts(batch.map((recording) => recording.attempt))
      const attempts = JSON.stringify(batch.map(({ attempt }) => ({
        id: attempt.id,
        message_id: attempt.messageId,
        endpoint_id: attempt.endpointId,
        attempt: attempt.number,
        status_code: attempt.statusCode,
        response: attempt.response,
        duration_ms: attempt.durationMs,
        error: attempt.error,
        next_retry_at: attempt.nextRetryAt,
        created_at: attempt.createdAt,
        state: attempt.outcome === "succeeded" ? "succeeded" : attempt.nextRetryAt === null ? "failed" : "pending",
        keep: attempt.keep,
        touch: attempt.touchMessage
      })))
      const endpoints = JSON.stringify([...counts].map(([id, count]) => ({ id, reset: count.reset, added: count.added })))
      // One statement, so one atomic change: the attempts, their messages' next steps and the endpoints'
      // counts. A success touches its endpoint only when it had failures to reset (no lock on the busy
      // path); the endpoints are locked in id order, so two processes' batches never deadlock. The e-mail
      // goes only when this statement is what switched the endpoint off, not after a switch-off by hand.
      const rows = yield* planned<{ readonly id: string; readonly failures: number; readonly switchedOff: boolean }>(sql`
        WITH input AS (
          SELECT * FROM jsonb_to_recordset(${attempts}::jsonb) AS i(
            id text, message_id text, endpoint_id text, attempt integer, status_code integer, response text,
            duration_ms integer, error text, next_retry_at timestamptz, created_at timestamptz, state text,
            keep boolean, touch boolean)
        ), settled AS (
          -- An endpoint switched off keeps what did not get through, to send when it is switched on.
          SELECT i.*, CASE WHEN i.state <> 'succeeded' AND i.keep AND NOT e.enabled THEN 'held' ELSE i.state END AS final_state,
            CASE WHEN e.enabled THEN i.next_retry_at END AS retry_at
          FROM input i JOIN webhook_endpoints e ON e.id = i.endpoint_id
        ), inserted AS (
          INSERT INTO webhook_deliveries (id, message_id, endpoint_id, attempt, status_code, response, duration_ms, error, next_retry_at, created_at)
          SELECT id, message_id, endpoint_id, attempt, status_code, response, duration_ms, error, retry_at, created_at FROM settled
        ), moved AS (
          UPDATE webhook_messages m SET state = s.final_state, next_attempt_at = s.retry_at
          FROM settled s WHERE m.id = s.message_id AND s.touch
        ), counts AS (
          SELECT * FROM jsonb_to_recordset(${endpoints}::jsonb) AS c(id text, reset boolean, added integer)
        ), locked AS (
          SELECT e.id, e.enabled, CASE WHEN c.reset THEN 0 ELSE e.consecutive_failures END + c.added AS failures
          FROM webhook_endpoints e JOIN counts c ON c.id = e.id
          WHERE c.added > 0 OR e.consecutive_failures <> 0
          ORDER BY e.id FOR NO KEY UPDATE OF e
        )
        UPDATE webhook_endpoints e SET
          consecutive_failures = l.failures,
          enabled = e.enabled AND l.failures < ${options.disableAfter},
          disabled_at = CASE WHEN e.enabled AND l.failures >= ${options.disableAfter} THEN now() ELSE e.disabled_at END
        FROM locked l WHERE e.id = l.id
        RETURNING e.id, e.consecutive_failures AS failures, (l.enabled AND NOT e.enabled) AS switched_off`)
      for (const row of rows) {
        if (!row.switchedOff) continue
        // Counted as the statement that switched it off commits, whatever happens to the steps after it.
        yield* Metric.update(Metrics.webhookEndpointsDisabled, 1)
        yield* sql.withTransaction(hold(sql, row.id, { failedSinceLastSuccess: true }))
        const endpoint = batch.find((recording) => recording.attempt.endpointId === row.id)!.endpoint
        yield* notifier.endpointSwitchedOff({ workspaceId: endpoint.workspaceId, endpointId: row.id, url: endpoint.url, failures: row.failures })
      }
    })

    yield* Effect.gen(function*() {
      const ended = yield* Queue.takeBetween(recordings, 1, 500)
      const seen = new Set<string>()
      const batch: Array<Recording> = []
      const later: Array<Recording> = []
      for (const recording of ended) {
        if (seen.has(recording.attempt.messageId)) later.push(recording)
        else {
          seen.add(recording.attempt.messageId)
          batch.push(recording)
        }
      }
      if (later.length > 0) yield* Queue.offerAll(recordings, later)
      const exit = yield* Effect.exit(recordBatch(batch))
      if (exit._tag === "Success" || batch.length === 1) {
        for (const recording of batch) Deferred.doneUnsafe(recording.done, exit)
        return
      }
      // One attempt that cannot be written (its endpoint deleted under it) must not take the others
      // with it: each is written on its own.
      for (const recording of batch) Deferred.doneUnsafe(recording.done, yield* Effect.exit(recordBatch([recording])))
    }).pipe(Effect.forever, Effect.forkScoped)

    /** Writes an ended attempt (with others that end meanwhile) and waits until it is written. */
    const record = (endpoint: RecordedEndpoint, attempt: EndedAttempt) =>
      Effect.gen(function*() {
        const done = yield* Deferred.make<void, SqlError.SqlError>()
        yield* Queue.offer(recordings, { endpoint, attempt, done })
        yield* Deferred.await(done)
      })

    return { record }
  })
