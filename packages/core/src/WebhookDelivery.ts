import { Cause, Clock, Context, Duration, Effect, identity, Latch, Layer, Metric, Option, Queue, Redacted, Schedule, Schema, Semaphore } from "effect"
import { PgClient } from "@effect/sql-pg"
import { SqlClient, type SqlError } from "effect/sql"
import { createHmac, randomUUID } from "node:crypto"
import { Ids as DomainIds, Webhook } from "@herald/domain"
import { Cipher } from "./Cipher.ts"
import * as Ids from "./Ids.ts"
import * as Metrics from "./Metrics.ts"
import { planned } from "./internal/planned.ts"
import * as Failures from "./internal/webhookFailures.ts"
import { fanOut } from "./internal/webhookFanOut.ts"
import * as Holding from "./internal/webhookHolding.ts"
import * as Recorder from "./internal/webhookRecorder.ts"
import { type Answer, WebhookHttp } from "./WebhookHttp.ts"
import { WebhookNotFound } from "./Webhooks.ts"

/**
 * Delivering events to webhook endpoints. Committed events (the outbox) are fanned out to the matching
 * endpoints of their workspace as messages (one per event and endpoint, the body fixed once; held while the
 * endpoint is switched off, and sent when it is switched on again, decision 0011); due
 * messages are claimed with `FOR UPDATE SKIP LOCKED` under a lease, signed and sent, and each attempt is
 * recorded with the message's next retry in one transaction. Everything lives in the database, so retries
 * survive restarts and any process runs them; a process that dies mid-attempt leaves the message to be
 * claimed again when its lease ends (at least once: the event `id` lets receivers drop the repeat).
 */

export interface Options {
  /** Waits before each retry of a failed attempt: 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h by default. */
  readonly retrySchedule: ReadonlyArray<number>
  /** How long a receiver has to answer. */
  readonly timeoutMs: number
  /** Failed events in a row that switch an endpoint off (an event fails when its first retry fails too). */
  readonly disableAfter: number
  readonly allowPrivate: boolean
  /** Attempts under way at once to one endpoint, per process: a slow receiver holds only these. */
  readonly perEndpoint?: number | undefined
}

/** One attempt, as `GET /api/v1/webhooks/:id/deliveries` lists it. */
export const Delivery = Webhook.Delivery
export type Delivery = Webhook.Delivery

export class WebhookConflict extends Schema.TaggedError<WebhookConflict>()("WebhookDeliveryConflict", { message: Schema.String }) {}

interface DeliveryRow {
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

const deliveryColumns = `d.id, m.event_id, m.event, d.attempt, d.status_code, d.response, d.duration_ms, d.error,
  d.next_retry_at, d.created_at`

const toDelivery = (row: DeliveryRow) =>
  new Delivery({
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

interface MessageRow {
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
interface ClaimedRow extends MessageRow {
  readonly url: string
  readonly workspaceId: string
  readonly secret: Uint8Array
}

const messageColumns = `m.id, m.endpoint_id, m.event_id, m.event, m.body, m.attempts, m.attempts_before, m.once,
  coalesce((SELECT created_at FROM events WHERE id = m.event_id), m.created_at) AS event_created_at`

// The series of `herald_webhook_attempts_total`, one per outcome.
const attempts = {
  delivered: Metric.withAttributes(Metrics.webhookAttempts, { outcome: "delivered" }),
  failed: Metric.withAttributes(Metrics.webhookAttempts, { outcome: "failed" }),
  unreachable: Metric.withAttributes(Metrics.webhookAttempts, { outcome: "unreachable" })
}

/** Counts an attempt by how it ended and, when delivered, how long after its event. */
const measure = (answer: Answer, eventCreatedAt: Date, ended: number) => {
  if (answer._tag === "Failed") return Metric.update(attempts.unreachable, 1)
  if (answer.status < 200 || answer.status >= 300) return Metric.update(attempts.failed, 1)
  return Effect.andThen(
    Metric.update(attempts.delivered, 1),
    Metric.update(Metrics.webhookDeliveryLatency, Math.max(0, ended - eventCreatedAt.getTime()) / 1000)
  )
}

interface EndpointRow {
  readonly id: string
  readonly workspaceId: string
  readonly url: string
  readonly secret: Uint8Array
  readonly enabled: boolean
}

/** An endpoint with its secret opened, once per round rather than once per attempt. */
interface OpenEndpoint extends EndpointRow {
  readonly key: Redacted.Redacted<string>
}

/** `Service-Signature`: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret. */
export const signature = (secret: string, body: string, unixSeconds: number) =>
  `t=${unixSeconds},v1=${createHmac("sha256", secret).update(`${unixSeconds}.${body}`).digest("hex")}`

/** What a batch of ended attempts does to each endpoint's count of failed events in a row (decision 0011). */
export const failureCounts = Failures.failureCounts

export class WebhookDelivery extends Context.Service<WebhookDelivery, {
  /** Fans committed events out to endpoints; answers how many events it took. */
  readonly dispatch: Effect.Effect<number, SqlError.SqlError>
  /** Claims the due messages and sends them; answers how many it sent. */
  readonly deliverDue: Effect.Effect<number, SqlError.SqlError>
  /** Sends `webhook.test` to one endpoint now (one attempt) and answers it. */
  test(workspaceId: string, endpointId: string): Effect.Effect<Delivery, WebhookNotFound | WebhookConflict | SqlError.SqlError>
  /** Sends the same body again now, with a new delivery id and a fresh signature, and answers the attempt. */
  redeliver(workspaceId: string, endpointId: string, deliveryId: string): Effect.Effect<
    Delivery,
    WebhookNotFound | WebhookConflict | SqlError.SqlError
  >
  /** An endpoint's attempts, newest first. */
  deliveries(workspaceId: string, endpointId: string, page: {
    readonly limit: number
    readonly cursor?: { readonly createdAt: Date; readonly id: string } | undefined
  }): Effect.Effect<{
    readonly deliveries: ReadonlyArray<Delivery>
    readonly next: Option.Option<{ readonly createdAt: Date; readonly id: string }>
  }, WebhookNotFound | SqlError.SqlError>
  /** Removes history older than 30 days; answers how many attempts it removed. */
  readonly expire: Effect.Effect<number, SqlError.SqlError>
  /** Waits until there may be work to claim (an event fanned out, an attempt ended) or `ms` passed. */
  waitForWork(ms: number): Effect.Effect<void>
}>()("@herald/core/WebhookDelivery") {
  static readonly layerNoDeps = (options: Options) =>
    Layer.effect(
      WebhookDelivery,
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const cipher = yield* Cipher
        const http = yield* WebhookHttp
        const perEndpoint = options.perEndpoint ?? 32
        // Opened when there may be more to send: an event fanned out, or an attempt ended and freed a slot.
        const work = yield* Latch.make(false)
        // Requests under way to one endpoint are at most `perEndpoint` (its slots); up to three times as many
        // more of its messages are claimed ahead and wait for a slot, so that a freed slot is taken at once
        // rather than after a claim's round trip to the database: on a busy machine a claim takes as long as
        // several requests, and each claim takes what the requests freed meanwhile.
        const rounds = 4
        const claimAhead = rounds * perEndpoint
        // An attempt holds its message this long; a process that dies mid-attempt frees it when it ends. A
        // message claimed ahead waits at most a timeout for each round of requests before it, then takes at
        // most one itself.
        const leaseMs = options.timeoutMs * rounds + 5_000
        // Claimed messages of each endpoint not yet answered (under way or waiting for a slot).
        const held = new Map<string, number>()
        const gates = new Map<string, Semaphore.Semaphore>()
        const gate = (endpointId: string) => {
          let semaphore = gates.get(endpointId)
          if (semaphore === undefined) {
            semaphore = Semaphore.makeUnsafe(perEndpoint)
            gates.set(endpointId, semaphore)
          }
          return semaphore
        }
        // Attempts answered and not yet recorded, all endpoints together. A slot is freed as its answer comes,
        // not once its attempt is written: the receiver's connection is what a slot stands for, and waiting
        // for the write (a batch behind another) held each slot twice as long. This bound keeps the sends
        // from running ahead of the database: past it the sender claims nothing until batches are written.
        let unrecorded = 0
        const maxUnrecorded = 2_000
        // Messages claimed ahead still waiting for a slot. When the process stops they are given back (due at
        // once, their claim's count undone) rather than left to their lease, four timeouts away; none of them
        // starts a request after that.
        const waiting = new Set<string>()
        let stopping = false
        yield* Effect.addFinalizer(() =>
          Effect.suspend(() => {
            stopping = true
            const ids = [...waiting]
            if (ids.length === 0) return Effect.void
            return Effect.flatMap(Clock.currentTimeMillis, (now) =>
              sql`UPDATE webhook_messages SET next_attempt_at = ${new Date(now)}, attempts = attempts - 1
                WHERE ${sql.in("id", ids)} AND state = 'pending'`).pipe(
                Effect.catchCause((cause) => Effect.logWarning("Webhook messages claimed ahead were not given back; their lease will", cause))
              )
          })
        )

        // The rounds poll many times a second, so their polls run with the tracer off: a round that found
        // nothing is no trace. The fan-out is one statement that both looks and acts, so it is never traced;
        // a send round that claimed messages is one trace (`WebhookDelivery.deliverDue`).
        const dispatch = Effect.fnUntraced(function*() {
          const taken = yield* Effect.withTracerEnabled(fanOut(sql), false)
          // Once committed, so the sender's claim sees the new messages.
          if (taken > 0) work.openUnsafe()
          return taken
        })

        const endpointOf = (endpointId: string) =>
          Effect.map(
            sql<EndpointRow>`SELECT id, workspace_id, url, secret, enabled FROM webhook_endpoints WHERE id = ${endpointId}`,
            (rows) => Option.fromUndefinedOr(rows[0])
          )

        const recorder = yield* Recorder.make({ disableAfter: options.disableAfter })

        /** One attempt: sign, send (in `slot`: one of its endpoint's), and record it with the message's next step. */
        const attempt = Effect.fnUntraced(function*(
          message: MessageRow,
          endpoint: OpenEndpoint,
          number: number,
          manual: boolean,
          slot: (send: Effect.Effect<Answer>) => Effect.Effect<Answer> = identity
        ) {
          const deliveryId = yield* Ids.make("dlv")
          const now = yield* Clock.currentTimeMillis
          const answer = yield* slot(http.send({
            url: endpoint.url,
            headers: {
              "content-type": "application/json",
              "user-agent": "Herald-Webhooks/1",
              "service-event": message.event,
              "service-delivery": deliveryId,
              "service-signature": signature(Redacted.value(endpoint.key), message.body, Math.floor(now / 1000))
            },
            body: message.body,
            timeoutMs: options.timeoutMs,
            allowPrivate: options.allowPrivate
          }))
          const succeeded = answer._tag === "Answered" && answer.status >= 200 && answer.status < 300
          // Where the attempt is in its schedule, counted from the endpoint's last switch-on.
          const step = number - message.attemptsBefore
          const wait = message.once || manual ? undefined : options.retrySchedule[step - 1]
          const ended = yield* Clock.currentTimeMillis
          yield* measure(answer, message.eventCreatedAt, ended)
          const recorded: Recorder.EndedAttempt = {
            id: deliveryId,
            messageId: message.id,
            endpointId: endpoint.id,
            number,
            statusCode: answer._tag === "Answered" ? answer.status : null,
            response: answer._tag === "Answered" ? answer.bodyStart : null,
            durationMs: Math.round(answer.durationMs),
            error: answer._tag === "Failed" ? answer.error : null,
            nextRetryAt: succeeded || wait === undefined ? null : new Date(ended + wait).toISOString(),
            createdAt: new Date(now).toISOString(),
            outcome: Failures.outcome({ succeeded, step, steps: message.once ? 1 : options.retrySchedule.length + 1, manual }),
            keep: !message.once,
            // A manual attempt that fails leaves the message where its schedule had it.
            touchMessage: succeeded || !manual
          }
          yield* recorder.record(endpoint, recorded)
          return recorded
        })

        /** An attempt as the API shows it: built only for the attempts someone asked for (a test, a redelivery). */
        const deliveryOf = (message: MessageRow, recorded: Recorder.EndedAttempt) =>
          new Delivery({
            id: recorded.id,
            eventId: message.eventId,
            event: message.event,
            attempt: recorded.number,
            statusCode: recorded.statusCode,
            response: recorded.response,
            durationMs: recorded.durationMs,
            error: recorded.error,
            nextRetryAt: recorded.nextRetryAt,
            createdAt: recorded.createdAt
          })

        // Claims due messages fairly: at most the free slots of each endpoint, so a slow or failing
        // receiver's backlog never fills a claim and holds the healthy ones back. Each message comes with
        // its endpoint, so a round is one statement.
        const claim = Effect.fnUntraced(function*() {
          if (unrecorded >= maxUnrecorded) return []
          const busy = JSON.stringify([...held].filter(([, count]) => count > 0).map(([id, count]) => ({ id, count })))
          const now = new Date(yield* Clock.currentTimeMillis)
          const leaseUntil = new Date(now.getTime() + leaseMs)
          return yield* planned<ClaimedRow>(sql`
            WITH busy AS (
              SELECT * FROM jsonb_to_recordset(${busy}::jsonb) AS b(id text, count integer)
            ), endpoints AS (
              -- The endpoints, not the messages: a backlog of due messages (a slow receiver's) is never
              -- scanned whole; each endpoint is one probe of (endpoint_id, next_attempt_at).
              SELECT e.id AS endpoint_id, ${claimAhead} - coalesce(b.count, 0) AS free
              FROM webhook_endpoints e LEFT JOIN busy b ON b.id = e.id
              WHERE e.enabled AND coalesce(b.count, 0) < ${claimAhead}
            )
            -- The claimed ids as an array, which the planner takes as a few ids and probes by key; joined as a
            -- subquery with a per-endpoint LIMIT they were guessed at thousands of rows and joined by
            -- scanning the whole table (8 ms a claim at 30,000 messages).
            UPDATE webhook_messages m SET next_attempt_at = ${leaseUntil}, attempts = m.attempts + 1
            FROM webhook_endpoints e
            WHERE e.id = m.endpoint_id AND m.id = ANY(ARRAY(
              SELECT c.id FROM endpoints e CROSS JOIN LATERAL (
                SELECT m.id FROM webhook_messages m
                WHERE m.endpoint_id = e.endpoint_id AND m.state = 'pending' AND m.next_attempt_at <= ${now}
                ORDER BY m.next_attempt_at, m.sequence LIMIT e.free
                FOR UPDATE SKIP LOCKED
              ) c
            ))
            RETURNING ${sql.literal(messageColumns)}, e.url, e.workspace_id, e.secret`)
        })

        const deliverDue = Effect.fnUntraced(function*() {
          const claimed = yield* Effect.withTracerEnabled(claim(), false)
          return claimed.length === 0 ? 0 : yield* sendClaimed(claimed)
        })

        const sendClaimed = Effect.fn("WebhookDelivery.deliverDue")(function*(claimed: ReadonlyArray<ClaimedRow>) {
          for (const message of claimed) held.set(message.endpointId, (held.get(message.endpointId) ?? 0) + 1)
          // Each endpoint's secret opened once per round, however many of its messages were claimed.
          const endpoints = new Map<string, OpenEndpoint>()
          for (const message of claimed) {
            if (endpoints.has(message.endpointId)) continue
            endpoints.set(message.endpointId, yield* openEndpoint({
              id: message.endpointId,
              workspaceId: message.workspaceId,
              url: message.url,
              secret: message.secret,
              enabled: true
            }))
          }
          yield* Effect.forEach(claimed, (message) => Effect.forkDetach(inSlot(message, endpoints.get(message.endpointId)!)), { discard: true })
          return claimed.length
        })

        /** A claimed message's attempt: it waits for one of its endpoint's slots, and frees it when answered. */
        const inSlot = (message: MessageRow, endpoint: OpenEndpoint) =>
          Effect.suspend(() => {
            let answered = false
            waiting.add(message.id)
            const slot = (send: Effect.Effect<Answer>) =>
              gate(message.endpointId).withPermit(Effect.suspend(() => {
                waiting.delete(message.id)
                return stopping ? Effect.interrupt : send
              })).pipe(Effect.ensuring(Effect.sync(() => {
                answered = true
                held.set(message.endpointId, (held.get(message.endpointId) ?? 1) - 1)
                unrecorded++
                work.openUnsafe()
              })))
            // Its count is given back once whatever ends it: the slot when there was no answer, else the record.
            const ended = Effect.sync(() => {
              waiting.delete(message.id)
              if (answered) unrecorded--
              else held.set(message.endpointId, (held.get(message.endpointId) ?? 1) - 1)
              work.openUnsafe()
            })
            return attempt(message, endpoint, message.attempts, false, slot).pipe(
              Effect.ensuring(ended),
              Effect.catchCause((cause) =>
                // Interrupted only when the process stops before its slot came: it was given back.
                Cause.hasInterruptsOnly(cause)
                  ? Effect.void
                  : Effect.logWarning("Webhook attempt failed to record; its lease will bring it back", cause)
              )
            )
          })

        const openEndpoint = (row: EndpointRow) =>
          Effect.map(Effect.orDie(cipher.open(row.secret)), (key): OpenEndpoint => ({ ...row, key }))

        const ownEndpoint = (workspaceId: string, endpointId: string) =>
          Effect.flatMap(endpointOf(endpointId), (found) =>
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
          const [message] = yield* sql<MessageRow>`
            INSERT INTO webhook_messages AS m (id, endpoint_id, event_id, event, body, state, attempts, once)
            VALUES (${yield* Ids.make("msg")}, ${endpointId}, ${eventId}, 'webhook.test', ${body}, 'pending', 1, true)
            RETURNING ${sql.literal(messageColumns)}`
          return deliveryOf(message!, yield* attempt(message!, yield* openEndpoint(endpoint), 1, false))
        })

        const redeliver = Effect.fn("WebhookDelivery.redeliver")(function*(workspaceId: string, endpointId: string, deliveryId: string) {
          endpointId = DomainIds.currentWebhookEndpointId(endpointId)
          const endpoint = yield* ownEndpoint(workspaceId, endpointId)
          const [message] = yield* sql<MessageRow>`
            UPDATE webhook_messages m SET attempts = m.attempts + 1
            FROM webhook_deliveries d
            WHERE d.id = ${deliveryId} AND d.endpoint_id = ${endpointId} AND m.id = d.message_id
            RETURNING ${sql.literal(messageColumns)}`
          if (message === undefined) return yield* new WebhookNotFound({ endpointId: `${endpointId}/deliveries/${deliveryId}` })
          if (!endpoint.enabled) return yield* switchedOff(endpointId)
          return deliveryOf(message, yield* attempt(message, yield* openEndpoint(endpoint), message.attempts, true))
        })

        const deliveries = Effect.fn("WebhookDelivery.deliveries")(function*(workspaceId: string, endpointId: string, page: {
          readonly limit: number
          readonly cursor?: { readonly createdAt: Date; readonly id: string } | undefined
        }) {
          endpointId = DomainIds.currentWebhookEndpointId(endpointId)
          yield* ownEndpoint(workspaceId, endpointId)
          const rows = yield* sql<DeliveryRow>`
            SELECT ${sql.literal(deliveryColumns)} FROM webhook_deliveries d JOIN webhook_messages m ON m.id = d.message_id
            WHERE d.endpoint_id = ${endpointId}
            ${page.cursor === undefined ? sql`` : sql`AND (d.created_at, d.id) < (${page.cursor.createdAt}, ${page.cursor.id})`}
            ORDER BY d.created_at DESC, d.id DESC LIMIT ${page.limit + 1}`
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

        const waitForWork = (ms: number) =>
          Effect.andThen(Effect.raceFirst(Effect.sleep(Duration.millis(ms)), work.await), work.close)

        return WebhookDelivery.of({ dispatch: dispatch(), deliverDue: deliverDue(), test, redeliver, deliveries, expire: expire(), waitForWork })
      })
    )

  /** How long the sender gathers freed slots after a claim that took something, before claiming again. */
  static readonly gather = Duration.millis(2)

  /** The rounds (in processes that do background work): fan-out and sending every `pollEveryMs`, history expiry hourly. */
  static readonly rounds = (options: { readonly pollEveryMs?: number | undefined } = {}) =>
    Layer.effectDiscard(Effect.gen(function*() {
      const delivery = yield* WebhookDelivery
      const pg = yield* PgClient.PgClient
      const every = options.pollEveryMs ?? 100
      const gather = WebhookDelivery.gather
      const quietly = (name: string) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        Effect.catchCause(effect, (cause) => Effect.as(Effect.logWarning(`Webhook ${name} round failed`, cause), 0))
      // Events committed anywhere are announced on herald_events (migration 0009): the fan-out starts at
      // once. Polling stays as the fallback, for a notice lost while the listening connection was down
      // (it listens again a second later, and looks at the outbox then).
      const written = yield* Latch.make(true)
      yield* Effect.scoped(Effect.gen(function*() {
        const notices = yield* pg.listen("herald_events")
        yield* written.open
        while (true) {
          yield* Queue.take(notices)
          yield* written.open
        }
      })).pipe(
        Effect.retry(Schedule.spaced(Duration.seconds(1))),
        quietly("event listener"),
        Effect.forkScoped
      )
      // Fan-out: a full batch goes again at once. Two rounds run side by side, each on its own connection
      // and its own events (the outbox is taken under SKIP LOCKED): a batch's round trips and the building
      // of its messages overlap with the other's, where one round alone fell behind the sender.
      const fanOutRound = written.close.pipe(
        Effect.andThen(delivery.dispatch),
        quietly("fan-out"),
        Effect.flatMap((count) =>
          count >= 500 ? Effect.void : Effect.raceFirst(written.await, Effect.sleep(Duration.millis(every * 10)))
        ),
        Effect.forever
      )
      yield* Effect.forkScoped(fanOutRound)
      yield* Effect.forkScoped(fanOutRound)
      // Sending: claims again soon after something was claimed (a moment later, so that the slots freed
      // meanwhile are claimed together: one statement for several messages rather than one each), and
      // otherwise as soon as an event comes in or a slot comes free.
      yield* delivery.deliverDue.pipe(
        quietly("delivery"),
        Effect.flatMap((count) => count > 0 ? Effect.sleep(gather) : delivery.waitForWork(every)),
        Effect.forever,
        Effect.forkScoped
      )
      yield* delivery.expire.pipe(quietly("history expiry"), Effect.repeat(Schedule.spaced(Duration.hours(1))), Effect.forkScoped)
    }))
}
