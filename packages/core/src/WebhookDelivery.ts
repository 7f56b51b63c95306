import { Context, Duration, Effect, Latch, Layer, Option, Queue, Schedule } from "effect"
import { PgClient } from "@effect/sql-pg"
import { SqlClient, type SqlError } from "effect/sql"
import { Webhook } from "@herald/domain"
import * as Attempts from "./internal/webhookAttempt.ts"
import { fanOut } from "./internal/webhookFanOut.ts"
import * as History from "./internal/webhookHistory.ts"
import type { WebhookConflict } from "./internal/webhookHistory.ts"
import * as Sender from "./internal/webhookSender.ts"
import type { WebhookNotFound } from "./Webhooks.ts"
import * as WebhookPolicy from "./WebhookPolicy.ts"

/**
 * Delivering events to webhook endpoints. Committed events (the outbox) are fanned out to the matching
 * endpoints of their workspace as messages (one per event and endpoint, the body fixed once; held while the
 * endpoint is switched off, and sent when it is switched on again, decision 0011); due
 * messages are claimed with `FOR UPDATE SKIP LOCKED` under a lease, signed and sent, and each attempt is
 * recorded with the message's next retry in one transaction. Everything lives in the database, so retries
 * survive restarts and any process runs them; a process that dies mid-attempt leaves the message to be
 * claimed again when its lease ends (at least once: the event `id` lets receivers drop the repeat).
 *
 * Split by concern (decision 0078): what follows an attempt is `WebhookPolicy`, a pure function; one attempt
 * (sign, send, record) is `internal/webhookAttempt.ts`; the sender with all the state it keeps between rounds
 * is `internal/webhookSender.ts`; the history and what is asked for by hand (test, redeliver) is
 * `internal/webhookHistory.ts`. This file puts them together behind one service, with the rounds that run it.
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

export { WebhookConflict } from "./internal/webhookHistory.ts"

/** `Service-Signature`: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret. */
export const signature = Attempts.signature

/** What a batch of ended attempts does to each endpoint's count of failed events in a row (decision 0011). */
export const failureCounts = WebhookPolicy.failureCounts

export class WebhookDelivery extends Context.Service<WebhookDelivery, {
  /** Fans committed events out to endpoints; answers how many events it took. */
  readonly dispatch: Effect.Effect<number, SqlError.SqlError>
  /** Claims the due messages and sends them; answers how many it sent. */
  readonly deliverDue: Effect.Effect<number, SqlError.SqlError>
  /** Sends `webhook.test` to one endpoint now (one attempt) and answers it. */
  test(workspaceId: string, endpointId: string): Effect.Effect<Delivery, WebhookNotFound | WebhookConflict>
  /** Sends the same body again now, with a new delivery id and a fresh signature, and answers the attempt. */
  redeliver(workspaceId: string, endpointId: string, deliveryId: string): Effect.Effect<
    Delivery,
    WebhookNotFound | WebhookConflict
  >
  /** An endpoint's attempts, newest first. */
  deliveries(workspaceId: string, endpointId: string, page: {
    readonly limit: number
    readonly cursor?: { readonly createdAt: Date; readonly id: string } | undefined
  }): Effect.Effect<{
    readonly deliveries: ReadonlyArray<Delivery>
    readonly next: Option.Option<{ readonly createdAt: Date; readonly id: string }>
  }, WebhookNotFound>
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
        const attempts = yield* Attempts.make(options)
        const sender = yield* Sender.make({ timeoutMs: options.timeoutMs, perEndpoint: options.perEndpoint ?? 32 }, attempts)
        const history = yield* History.make(attempts)

        // The rounds poll many times a second, so their polls run with the tracer off: a round that found
        // nothing is no trace. The fan-out is one statement that both looks and acts, so it is never traced;
        // a send round that claimed messages is one trace (`WebhookDelivery.deliverDue`).
        const dispatch = Effect.fnUntraced(function*() {
          const taken = yield* Effect.withTracerEnabled(fanOut(sql), false)
          // Once committed, so the sender's claim sees the new messages.
          if (taken > 0) yield* sender.wake
          return taken
        })

        return WebhookDelivery.of({
          dispatch: dispatch(),
          deliverDue: sender.deliverDue,
          test: history.test,
          redeliver: history.redeliver,
          deliveries: history.deliveries,
          expire: history.expire,
          waitForWork: sender.waitForWork
        })
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
