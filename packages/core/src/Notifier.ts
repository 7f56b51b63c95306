import { Context, Effect, Layer, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"

export interface SwitchedOff {
  readonly workspaceId: string
  readonly endpointId: string
  readonly url: string
  readonly failures: number
}

/** One e-mail, as sent (or, without SMTP, as logged). */
export interface Mail {
  readonly to: ReadonlyArray<string>
  readonly subject: string
  readonly text: string
}

/**
 * Tells a workspace's owners what they must act on: an e-mail through `HERALD_SMTP_URL` when it is set,
 * otherwise a warning in the log with the whole message. A notice that cannot be sent is logged, never
 * lost silently and never failing the work that caused it.
 */
export class Notifier extends Context.Service<Notifier, {
  endpointSwitchedOff(notice: SwitchedOff): Effect.Effect<void>
  /** Any e-mail (an invitation): sent, or logged in full without SMTP; a failure is logged, never raised. */
  send(mail: Mail): Effect.Effect<void>
  /** Whether e-mail goes out (`HERALD_SMTP_URL` is set), for what only makes sense by e-mail (a password reset). */
  readonly sends: boolean
}>()("@herald/core/Notifier") {
  static readonly layer = (options: { readonly smtpUrl: Option.Option<Redacted.Redacted<string>>; readonly from?: string | undefined }) =>
    Layer.effect(
      Notifier,
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        // nodemailer is imported only when e-mail goes out: a server without SMTP need not hold it in memory.
        const transport = yield* Option.match(options.smtpUrl, {
          onNone: () => Effect.succeedNone,
          onSome: (url) =>
            Effect.map(Effect.promise(() => import("nodemailer")), ({ createTransport }) =>
              Option.some(createTransport(Redacted.value(url))))
        })
        const send = (mail: Mail) =>
          Option.match(transport, {
            onNone: () =>
              Effect.logWarning("e-mail not sent (set HERALD_SMTP_URL to send it)").pipe(
                Effect.annotateLogs({ to: mail.to.join(", "), subject: mail.subject, text: mail.text })
              ),
            onSome: (smtp) =>
              Effect.tryPromise(() =>
                smtp.sendMail({ from: options.from ?? "Herald <herald@localhost>", to: [...mail.to], subject: mail.subject, text: mail.text })
              ).pipe(
                Effect.asVoid,
                Effect.catchCause((cause) =>
                  Effect.logError("an e-mail could not be sent", cause).pipe(
                    Effect.annotateLogs({ to: mail.to.join(", "), subject: mail.subject, text: mail.text })
                  )
                )
              )
          })

        const endpointSwitchedOff = (notice: SwitchedOff) =>
          Effect.gen(function*() {
            const owners = yield* sql<{ readonly email: string }>`
              SELECT email FROM members WHERE workspace_id = ${notice.workspaceId} AND role = 'owner' ORDER BY created_at`
            yield* send({
              to: owners.map((owner) => owner.email),
              subject: `Herald switched off your webhook endpoint ${notice.url}`,
              text: [
                `The webhook endpoint ${notice.endpointId} (${notice.url}) failed ${notice.failures} events in a row (each one's`,
                `first attempt and its retry failed), so Herald switched it off.`,
                ``,
                `Nothing is lost: while it is off, Herald keeps its events, those not yet delivered and those that happen`,
                `meanwhile, for 30 days, and delivers them, oldest first, when you switch it on again. Events older than`,
                `30 days by then are dropped.`,
                ``,
                `When the receiver works again, switch it on with PATCH /api/v1/webhooks/${notice.endpointId} {"enabled": true}.`,
                `Its recent attempts are in GET /api/v1/webhooks/${notice.endpointId}/deliveries.`
              ].join("\n")
            })
          }).pipe(Effect.catchCause((cause) => Effect.logError("notifying the workspace owners failed", cause)))

        return Notifier.of({ endpointSwitchedOff, send, sends: Option.isSome(transport) })
      })
    )
}
