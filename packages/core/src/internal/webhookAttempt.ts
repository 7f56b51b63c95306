import { Clock, Effect, identity, Metric, Redacted } from "effect"
import { Webhook } from "@herald/domain"
import { createHmac } from "node:crypto"
import { Cipher } from "../Cipher.ts"
import * as Ids from "../Ids.ts"
import * as Metrics from "../Metrics.ts"
import { type Answer, WebhookHttp } from "../WebhookHttp.ts"
import * as WebhookPolicy from "../WebhookPolicy.ts"
import * as Recorder from "./webhookRecorder.ts"
import type { EndpointRow, MessageRow, OpenEndpoint } from "./webhookRows.ts"

/** `Service-Signature`: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret. */
export const signature = (secret: string, body: string, unixSeconds: number) =>
  `t=${unixSeconds},v1=${createHmac("sha256", secret).update(`${unixSeconds}.${body}`).digest("hex")}`

// The series of `herald_webhook_attempts_total`, one per result.
const attempts = {
  delivered: Metric.withAttributes(Metrics.webhookAttempts, { outcome: "delivered" }),
  failed: Metric.withAttributes(Metrics.webhookAttempts, { outcome: "failed" }),
  unreachable: Metric.withAttributes(Metrics.webhookAttempts, { outcome: "unreachable" })
}

/** Counts an attempt by how it ended and, when delivered, how long after its event. */
const measure = (result: WebhookPolicy.Result, eventCreatedAt: Date, ended: number) =>
  result !== "delivered"
    ? Metric.update(attempts[result], 1)
    : Effect.andThen(
      Metric.update(attempts.delivered, 1),
      Metric.update(Metrics.webhookDeliveryLatency, Math.max(0, ended - eventCreatedAt.getTime()) / 1000)
    )

/**
 * One attempt, whoever makes it (the sender for a claimed message, the admin API for a test or a redelivery):
 * sign, send, ask `WebhookPolicy` what follows, and record the attempt with its message's next step.
 */
export const make = (options: {
  readonly retrySchedule: ReadonlyArray<number>
  readonly timeoutMs: number
  readonly allowPrivate: boolean
  readonly disableAfter: number
}) =>
  Effect.gen(function*() {
    const cipher = yield* Cipher
    const http = yield* WebhookHttp
    const recorder = yield* Recorder.make({ disableAfter: options.disableAfter })

    const openEndpoint = (row: EndpointRow) =>
      Effect.map(Effect.orDie(cipher.open(row.secret)), (key): OpenEndpoint => ({ ...row, key }))

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
      const ended = yield* Clock.currentTimeMillis
      const decision = WebhookPolicy.decide(
        options.retrySchedule,
        { number, attemptsBefore: message.attemptsBefore, once: message.once, manual },
        answer,
        ended
      )
      yield* measure(decision.result, message.eventCreatedAt, ended)
      const recorded: Recorder.EndedAttempt = {
        id: deliveryId,
        messageId: message.id,
        endpointId: endpoint.id,
        number,
        statusCode: answer._tag === "Answered" ? answer.status : null,
        response: answer._tag === "Answered" ? answer.bodyStart : null,
        durationMs: Math.round(answer.durationMs),
        error: answer._tag === "Failed" ? answer.error : null,
        nextRetryAt: decision.next._tag === "Retry" ? new Date(decision.next.at).toISOString() : null,
        createdAt: new Date(now).toISOString(),
        outcome: decision.outcome,
        keep: decision.keep,
        touchMessage: decision.next._tag !== "Stay"
      }
      yield* recorder.record(endpoint, recorded)
      return recorded
    })

    /** An attempt as the API shows it: built only for the attempts someone asked for (a test, a redelivery). */
    const deliveryOf = (message: MessageRow, recorded: Recorder.EndedAttempt) =>
      new Webhook.Delivery({
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

    return { attempt, deliveryOf, openEndpoint }
  })

export type Attempts = Effect.Success<ReturnType<typeof make>>
