import type { Redacted } from "effect"
import { Webhook } from "@herald/domain"

/** An attempt as the history reads it. */
export interface DeliveryRow {
  readonly id: string
  readonly eventId: string
  readonly event: string
  readonly attempt: number
  readonly statusCode: number | null
  readonly response: string | null
  readonly durationMs: number
  readonly error: string | null
  readonly nextRetryAt: Date | null
  readonly createdAt: Date
}

export const deliveryColumns = `d.id, m.event_id, m.event, d.attempt, d.status_code, d.response, d.duration_ms, d.error,
  d.next_retry_at, d.created_at`

export const toDelivery = (row: DeliveryRow) =>
  new Webhook.Delivery({
    id: row.id,
    eventId: row.eventId,
    event: row.event,
    attempt: row.attempt,
    statusCode: row.statusCode,
    response: row.response,
    durationMs: row.durationMs,
    error: row.error,
    nextRetryAt: row.nextRetryAt === null ? null : row.nextRetryAt.toISOString(),
    createdAt: row.createdAt.toISOString()
  })

export interface MessageRow {
  readonly id: string
  readonly endpointId: string
  readonly eventId: string
  readonly event: string
  readonly body: string
  readonly attempts: number
  /** Attempts made before its endpoint was last switched on: its retry schedule starts after them. */
  readonly attemptsBefore: number
  /** Test messages get one attempt, no retries. */
  readonly once: boolean
  /** When its event happened (a test event has no outbox row: its message's creation), for the delivery latency. */
  readonly eventCreatedAt: Date
}

/** A message claimed for sending, with what its endpoint needs to sign and send it. */
export interface ClaimedRow extends MessageRow {
  readonly url: string
  readonly workspaceId: string
  readonly secret: Uint8Array
}

export const messageColumns = `m.id, m.endpoint_id, m.event_id, m.event, m.body, m.attempts, m.attempts_before, m.once,
  coalesce((SELECT created_at FROM events WHERE id = m.event_id), m.created_at) AS event_created_at`

export interface EndpointRow {
  readonly id: string
  readonly workspaceId: string
  readonly url: string
  readonly secret: Uint8Array
  readonly enabled: boolean
}

/** An endpoint with its secret opened, once per round rather than once per attempt. */
export interface OpenEndpoint extends EndpointRow {
  readonly key: Redacted.Redacted<string>
}
