import { Clock, Duration, Effect, Option, Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import type { Mail } from "../Notifier.ts"
import type { People } from "../People.ts"
import { dieOnBadRow } from "./rows.ts"
import * as Tokens from "./tokens.ts"

// One-time sign-in links (decision 0021): issued for a purpose with its lifetime, mailed for a password reset,
// and used up once. Apart from the sessions they lead to, which `Sessions` keeps; it re-exports what is here.

const LinkPurpose = Schema.Literals(["first_run", "sign_in", "reset"])
export type LinkPurpose = typeof LinkPurpose.Type
export const linkLifetimes: Record<LinkPurpose, Duration.Duration> = {
  first_run: Duration.days(7),
  sign_in: Duration.hours(24),
  reset: Duration.hours(1)
}

export class LinkRefused extends Schema.TaggedError<LinkRefused>()("LinkRefused", {}) {
  override get message() {
    return "This link has been used or has expired; ask for a new one"
  }
}

export const makeLinks = (sql: SqlClient.SqlClient, people: People["Service"], publicUrl: string) => {
  const used = SqlSchema.findOneOption({
    Request: Schema.Struct({ tokenHash: Schema.String, now: Schema.Date }),
    Result: Schema.Struct({ personId: Schema.String, workspaceId: Schema.String, purpose: LinkPurpose }),
    execute: ({ now, tokenHash }) =>
      sql`
        UPDATE login_links SET used_at = ${now}
        WHERE token_hash = ${tokenHash} AND used_at IS NULL AND expires_at > ${now}
        RETURNING person_id, workspace_id, purpose`
  })
  const verified = SqlSchema.findOneOption({
    Request: Schema.Struct({ personId: Schema.String, now: Schema.Date }),
    Result: Schema.Struct({ hadPassword: Schema.Boolean }),
    execute: ({ now, personId }) =>
      sql`
        UPDATE people p SET email_verified_at = ${now}, password_hash = NULL, password_changed_at = ${now}
        FROM (SELECT id, password_hash IS NOT NULL AS had_password FROM people
              WHERE id = ${personId} AND email_verified_at IS NULL FOR UPDATE) before
        WHERE p.id = before.id
        RETURNING before.had_password`
  })

  const issueLink = Effect.fn("Sessions.issueLink")(function*(personId: string, workspaceId: string, purpose: LinkPurpose) {
    const now = yield* Clock.currentTimeMillis
    const token = Tokens.make()
    const expiresAt = new Date(now + Duration.toMillis(linkLifetimes[purpose]))
    yield* sql`
      INSERT INTO login_links (token_hash, person_id, workspace_id, purpose, expires_at)
      VALUES (${Tokens.digest(token)}, ${personId}, ${workspaceId}, ${purpose}, ${expiresAt})`
    return { url: `${publicUrl}/app/link#${token}`, expiresAt: expiresAt.toISOString() }
  })

  const resetMail = Effect.fn("Sessions.resetMail")(function*(email: string) {
    const person = yield* people.byEmail(email)
    if (Option.isNone(person)) return Option.none<Mail>()
    const [workspace] = yield* people.membershipsOfAddress(person.value.id)
    if (workspace === undefined) return Option.none<Mail>()
    const link = yield* issueLink(person.value.id, workspace.id, "reset")
    return Option.some<Mail>({
      to: [person.value.email],
      subject: "Reset your Herald password",
      text: [
        "Someone (hopefully you) asked to reset the password of your Herald sign-in.",
        "",
        `Open this link to set a new one (it works once, until ${link.expiresAt}):`,
        link.url,
        "",
        "If you did not ask for it, ignore this e-mail: your password stays as it is."
      ].join("\n"),
      logged: "the reset link is not logged: ask for another reset, or the operator prints a sign-in link (herald member login-link)"
    })
  })

  const consumeLink = Effect.fn("Sessions.consumeLink")(function*(token: string) {
    const now = new Date(yield* Clock.currentTimeMillis)
    return yield* sql.withTransaction(Effect.gen(function*() {
      // One statement marks the link used, so two requests with one link cannot both succeed.
      const found = yield* dieOnBadRow(used({ tokenHash: Tokens.digest(token), now }))
      if (Option.isNone(found)) return yield* new LinkRefused()
      const row = found.value
      const before = yield* dieOnBadRow(verified({ personId: row.personId, now }))
      const passwordDropped = Option.isSome(before) && before.value.hadPassword
      if (passwordDropped) {
        yield* sql`UPDATE sessions SET revoked_at = ${now} WHERE person_id = ${row.personId} AND revoked_at IS NULL`
      }
      return { ...row, passwordDropped }
    }))
  })

  return { issueLink, resetMail, consumeLink }
}
