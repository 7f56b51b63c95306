import { Context, Effect, FiberSet, Layer, Option, Redacted, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { dieOnBadRow } from "./internal/rows.ts"

export interface SwitchedOff {
  readonly workspaceId: string
  readonly endpointId: string
  readonly url: string
  readonly failures: number
}

/** One e-mail. */
export interface Mail {
  readonly to: ReadonlyArray<string>
  readonly subject: string
  readonly text: string
  /**
   * What the log says of the mail when it is not sent (no SMTP, or the server refused it), in place of its
   * text, which is never logged: a mail may carry a link that signs someone in (decision 0059). A notice
   * without a secret repeats its text; a mail with a link says how its reader gets one instead.
   */
  readonly logged: string
}

/** How long a refusal's reason may be in the log line: a mail server's answer is one line. */
const maxReasonLength = 300

/**
 * Tells people what they must act on: an e-mail through `HERALD_SMTP_URL` when it is set, otherwise a
 * warning in the log with the mail's `logged` account of it. A mail that cannot be sent is logged, never
 * lost silently and never failing the work that caused it.
 */
export class Notifier extends Context.Service<Notifier, {
  endpointSwitchedOff(notice: SwitchedOff): Effect.Effect<void>
  /** Any e-mail (an invitation): sent, or logged without SMTP; a failure is logged, never raised. */
  send(mail: Mail): Effect.Effect<void>
  /**
   * Works a mail out and sends it in a fiber of the Notifier's own, which outlives the caller: the caller
   * answers without waiting for either, so its answer takes as long whether there is a mail or not (a
   * password reset must not tell which addresses have an account). None: nothing is sent. A failure is logged.
   */
  sendInBackground(mail: Effect.Effect<Option.Option<Mail>, unknown>): Effect.Effect<void>
  /** Whether e-mail goes out (`HERALD_SMTP_URL` is set), for what only makes sense by e-mail (a password reset). */
  readonly sends: boolean
}>()("@herald/core/Notifier") {
  static readonly layer = (options: { readonly smtpUrl: Option.Option<Redacted.Redacted<string>>; readonly from?: string | undefined }) =>
    Layer.effect(
      Notifier,
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const ownersOf = SqlSchema.findAll({
          Request: Schema.String,
          Result: Schema.Struct({ email: Schema.String }),
          execute: (workspaceId) => sql`
              SELECT email FROM members WHERE workspace_id = ${workspaceId} AND role = 'owner' ORDER BY created_at`
        })
        // nodemailer is imported only when e-mail goes out: a server without SMTP need not hold it in memory.
        const transport = yield* Option.match(options.smtpUrl, {
          onNone: () => Effect.succeedNone,
          onSome: (url) =>
            Effect.map(Effect.promise(() => import("nodemailer")), ({ createTransport }) =>
              Option.some(createTransport(Redacted.value(url))))
        })
        // Never the mail's text: `logged` stands in for it.
        const described = (mail: Mail) => ({ to: mail.to.join(", "), subject: mail.subject, text: mail.logged })
        const send = (mail: Mail) =>
          Option.match(transport, {
            onNone: () =>
              Effect.logWarning("e-mail not sent (set HERALD_SMTP_URL to send it)").pipe(Effect.annotateLogs(described(mail))),
            onSome: (smtp) =>
              Effect.tryPromise({
                try: () =>
                  smtp.sendMail({ from: options.from ?? "Herald <herald@localhost>", to: [...mail.to], subject: mail.subject, text: mail.text }),
                // Only the reason: the error nodemailer fails with may hold the message it was sending.
                catch: (error) => (error instanceof Error ? error.message : String(error)).slice(0, maxReasonLength)
              }).pipe(
                Effect.asVoid,
                Effect.catch((reason) =>
                  Effect.logError("an e-mail could not be sent").pipe(Effect.annotateLogs({ ...described(mail), reason }))
                )
              )
          })

        const background = yield* FiberSet.make()
        const sendInBackground = (mail: Effect.Effect<Option.Option<Mail>, unknown>) =>
          FiberSet.run(
            background,
            mail.pipe(
              Effect.flatMap(Option.match({ onNone: () => Effect.void, onSome: send })),
              Effect.catchCause((cause) => Effect.logError("an e-mail could not be prepared", cause))
            )
          ).pipe(Effect.asVoid)

        const endpointSwitchedOff = (notice: SwitchedOff) =>
          Effect.gen(function*() {
            const owners = yield* dieOnBadRow(ownersOf(notice.workspaceId))
            // It holds no secret: its text is logged whole when it cannot be sent.
            const mail = {
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
            }
            yield* send({ ...mail, logged: mail.text })
          }).pipe(Effect.catchCause((cause) => Effect.logError("notifying the workspace owners failed", cause)))

        return Notifier.of({ endpointSwitchedOff, send, sendInBackground, sends: Option.isSome(transport) })
      })
    )
}
