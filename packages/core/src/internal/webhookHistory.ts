import { Clock, Duration, Effect, Option, Schema, SchemaTransformation } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { randomUUID } from "node:crypto"
import { Ids as DomainIds } from "@herald/domain"
import * as Ids from "../Ids.ts"
import { WebhookNotFound } from "../Webhooks.ts"
import * as DieOnSql from "./dieOnSql.ts"
import type { Attempts } from "./webhookAttempt.ts"
import * as Holding from "./webhookHolding.ts"
import { dieOnBadRow } from "./rows.ts"
import { deliveryColumns, messageColumns, toDelivery } from "./webhookRows.ts"

// The rows the history reads, decoded rather than asserted (decision 0087), as the sender's types
// (`webhookRows.ts`) have them: its timestamps are Dates, which it reads `getTime()` and `toISOString()` of.

/** A timestamp column as a driver gives it (a Date, or its text), as a Date. */
const Instant = Schema.Union([Schema.Date, Schema.String]).pipe(
  Schema.decodeTo(
    Schema.Date,
    SchemaTransformation.transform<Date, Date | string>({ decode: (value) => value instanceof Date ? value : new Date(value), encode: (value) => value })
  )
)

/** An endpoint's row (`EndpointRow`), with its sealed secret. */
const EndpointRowSchema = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  url: Schema.String,
  secret: Schema.Uint8Array,
  enabled: Schema.Boolean
})

/** A message's row as `messageColumns` reads it (`MessageRow`). */
const MessageRowSchema = Schema.Struct({
  id: Schema.String,
  endpointId: Schema.String,
  eventId: Schema.String,
  event: Schema.String,
  body: Schema.String,
  attempts: Schema.Number,
  attemptsBefore: Schema.Number,
  once: Schema.Boolean,
  eventCreatedAt: Instant
})

/** An attempt's row as `deliveryColumns` reads it (`DeliveryRow`). */
const DeliveryRowSchema = Schema.Struct({
  id: Schema.String,
  eventId: Schema.String,
  event: Schema.String,
  attempt: Schema.Number,
  statusCode: Schema.NullOr(Schema.Number),
  response: Schema.NullOr(Schema.String),
  durationMs: Schema.Number,
  error: Schema.NullOr(Schema.String),
  nextRetryAt: Schema.NullOr(Instant),
  createdAt: Instant
})

export class WebhookConflict extends Schema.TaggedError<WebhookConflict>()("WebhookDeliveryConflict", { message: Schema.String }) {}

/**
 * An endpoint's history and what its owner asks for by hand: the attempts, newest first; a test event sent
 * now; an attempt's body sent again; and the expiry of what is older than the history keeps. None of it
 * touches the sender's state: an attempt asked for by hand takes no slot and is answered to the caller.
 * What a caller asks for (test, redeliver, the history) dies on the database failing, as every service a
 * handler calls does (dieOnSql.ts); the expiry runs in the rounds, which log it and try again, so it keeps it typed.
 */
export const make = (attempts: Attempts) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const { attempt, deliveryOf, openEndpoint } = attempts
    const endpointOf = SqlSchema.findOneOption({
      Request: Schema.String,
      Result: EndpointRowSchema,
      execute: (endpointId) => sql`SELECT id, workspace_id, url, secret, enabled FROM webhook_endpoints WHERE id = ${endpointId}`
    })
    const testMessage = SqlSchema.findOne({
      Request: Schema.Struct({ id: Schema.String, endpointId: Schema.String, eventId: Schema.String, body: Schema.String }),
      Result: MessageRowSchema,
      execute: ({ body, endpointId, eventId, id }) => sql`
        INSERT INTO webhook_messages AS m (id, endpoint_id, event_id, event, body, state, attempts, once)
        VALUES (${id}, ${endpointId}, ${eventId}, 'webhook.test', ${body}, 'pending', 1, true)
        RETURNING ${sql.literal(messageColumns)}`
    })
    const redelivered = SqlSchema.findOneOption({
      Request: Schema.Struct({ endpointId: Schema.String, deliveryId: Schema.String }),
      Result: MessageRowSchema,
      execute: ({ deliveryId, endpointId }) => sql`
        UPDATE webhook_messages m SET attempts = m.attempts + 1
        FROM webhook_deliveries d
        WHERE d.id = ${deliveryId} AND d.endpoint_id = ${endpointId} AND m.id = d.message_id
        RETURNING ${sql.literal(messageColumns)}`
    })
    const deliveriesOf = SqlSchema.findAll({
      Request: Schema.Struct({
        endpointId: Schema.String,
        limit: Schema.Number,
        cursor: Schema.UndefinedOr(Schema.Struct({ createdAt: Schema.Date, id: Schema.String }))
      }),
      Result: DeliveryRowSchema,
      execute: ({ cursor, endpointId, limit }) => sql`
        SELECT ${sql.literal(deliveryColumns)} FROM webhook_deliveries d JOIN webhook_messages m ON m.id = d.message_id
        WHERE d.endpoint_id = ${endpointId}
        ${cursor === undefined ? sql`` : sql`AND (d.created_at, d.id) < (${cursor.createdAt}, ${cursor.id})`}
        ORDER BY d.created_at DESC, d.id DESC LIMIT ${limit + 1}`
    })

    const ownEndpoint = (workspaceId: string, endpointId: string) =>
      Effect.flatMap(dieOnBadRow(endpointOf(endpointId)), (found) =>
        Option.isSome(found) && found.value.workspaceId === workspaceId
          ? Effect.succeed(found.value)
          : Effect.fail(new WebhookNotFound({ endpointId })))

    const switchedOff = (endpointId: string) =>
      new WebhookConflict({ message: `Webhook endpoint ${endpointId} is switched off; switch it on (PATCH enabled: true) first` })

    const test = Effect.fn("WebhookDelivery.test")(function*(workspaceId: string, endpointId: string) {
      endpointId = DomainIds.currentWebhookEndpointId(endpointId)
      const endpoint = yield* ownEndpoint(workspaceId, endpointId)
      if (!endpoint.enabled) return yield* switchedOff(endpointId)
      const eventId = randomUUID()
      const createdAt = new Date(yield* Clock.currentTimeMillis)
      const body = JSON.stringify({
        id: eventId,
        event: "webhook.test",
        createdAt: createdAt.toISOString(),
        data: { endpointId, message: "A test event from Herald: this endpoint receives and verifies webhooks." }
      })
      const message = yield* Effect.orDie(testMessage({ id: yield* Ids.make("msg"), endpointId, eventId, body }))
      return deliveryOf(message, yield* attempt(message, yield* openEndpoint(endpoint), 1, false))
    })

    const redeliver = Effect.fn("WebhookDelivery.redeliver")(function*(workspaceId: string, endpointId: string, deliveryId: string) {
      endpointId = DomainIds.currentWebhookEndpointId(endpointId)
      const endpoint = yield* ownEndpoint(workspaceId, endpointId)
      const found = yield* dieOnBadRow(redelivered({ endpointId, deliveryId }))
      if (Option.isNone(found)) return yield* new WebhookNotFound({ endpointId: `${endpointId}/deliveries/${deliveryId}` })
      if (!endpoint.enabled) return yield* switchedOff(endpointId)
      const message = found.value
      return deliveryOf(message, yield* attempt(message, yield* openEndpoint(endpoint), message.attempts, true))
    })

    const deliveries = Effect.fn("WebhookDelivery.deliveries")(function*(workspaceId: string, endpointId: string, page: {
      readonly limit: number
      readonly cursor?: { readonly createdAt: Date; readonly id: string } | undefined
    }) {
      endpointId = DomainIds.currentWebhookEndpointId(endpointId)
      yield* ownEndpoint(workspaceId, endpointId)
      const rows = yield* dieOnBadRow(deliveriesOf({ endpointId, limit: page.limit, cursor: page.cursor }))
      const shown = rows.slice(0, page.limit)
      const last = shown.at(-1)
      return {
        deliveries: shown.map(toDelivery),
        next: rows.length > page.limit && last !== undefined ? Option.some({ createdAt: last.createdAt, id: last.id }) : Option.none()
      }
    })

    const expire = Effect.fn("WebhookDelivery.expire")(function*() {
      const before = new Date((yield* Clock.currentTimeMillis) - Duration.toMillis(Holding.keepFor))
      // Events kept for a switched-off endpoint go when the history would have.
      yield* sql`DELETE FROM webhook_messages WHERE state = 'held' AND created_at < ${before}`
      const removed = yield* sql`DELETE FROM webhook_deliveries WHERE created_at < ${before} RETURNING id`
      // A message goes with its history once it has ended and its last attempt has gone.
      yield* sql`
        DELETE FROM webhook_messages m WHERE m.state <> 'pending' AND m.created_at < ${before}
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.message_id = m.id)`
      return removed.length
    })

    return {
      ...DieOnSql.service({ test, redeliver, deliveries }),
      expire: expire()
    }
  })
