import { Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { Ids as DomainIds } from "@herald/domain"
import { Timestamp } from "./rows.ts"

/** How a session was signed in: a link's lets a password be set without the current one for a while. */
const Via = Schema.Literals(["password", "link"])

/** A `sessions` row as `sessionColumns` reads it, decoded rather than asserted (a row unlike it dies). */
export const SessionRow = Schema.Struct({
  id: DomainIds.SessionId,
  personId: DomainIds.PersonId,
  csrfToken: Schema.String,
  workspaceId: Schema.String,
  createdAt: Timestamp,
  lastUsedAt: Timestamp,
  expiresAt: Timestamp,
  absoluteExpiresAt: Timestamp,
  userAgent: Schema.NullOr(Schema.String),
  address: Schema.NullOr(Schema.String),
  via: Via,
  mustSetPassword: Schema.Boolean,
  revokedAt: Schema.NullOr(Timestamp)
})
export type SessionRow = typeof SessionRow.Type

const sessionColumns =
  "id, person_id, csrf_token, workspace_id, created_at, last_used_at, expires_at, absolute_expires_at, user_agent, address, via, must_set_password, revoked_at"

/** What a new session is stored with: `now` is when it starts, and when it was last used. */
const NewSession = Schema.Struct({
  id: Schema.String,
  personId: Schema.String,
  tokenHash: Schema.String,
  csrfToken: Schema.String,
  workspaceId: Schema.String,
  now: Schema.Date,
  expiresAt: Schema.Date,
  absoluteExpiresAt: Schema.Date,
  userAgent: Schema.NullOr(Schema.String),
  address: Schema.NullOr(Schema.String),
  via: Via,
  mustSetPassword: Schema.Boolean
})

/** The statements of `Sessions` that return rows, each with its request's and its row's schema. */
export const sessionStatements = (sql: SqlClient.SqlClient) => {
  const columns = sql.literal(sessionColumns)
  return {
    inserted: SqlSchema.findOne({
      Request: NewSession,
      Result: SessionRow,
      execute: (input) =>
        sql`
          INSERT INTO sessions (id, person_id, token_hash, csrf_token, workspace_id, created_at, last_used_at, expires_at,
            absolute_expires_at, user_agent, address, via, must_set_password)
          VALUES (${input.id}, ${input.personId}, ${input.tokenHash}, ${input.csrfToken}, ${input.workspaceId}, ${input.now},
            ${input.now}, ${input.expiresAt}, ${input.absoluteExpiresAt},
            ${input.userAgent}, ${input.address}, ${input.via}, ${input.mustSetPassword})
          RETURNING ${columns}`
    }),
    byTokenHash: SqlSchema.findOneOption({
      Request: Schema.String,
      Result: SessionRow,
      execute: (tokenHash) => sql`SELECT ${columns} FROM sessions WHERE token_hash = ${tokenHash}`
    }),
    byId: SqlSchema.findOneOption({
      Request: Schema.String,
      Result: SessionRow,
      execute: (sessionId) => sql`SELECT ${columns} FROM sessions WHERE id = ${sessionId}`
    }),
    personOf: SqlSchema.findOneOption({
      Request: Schema.String,
      Result: Schema.Struct({ personId: Schema.String }),
      execute: (sessionId) => sql`SELECT person_id FROM sessions WHERE id = ${sessionId}`
    }),
    // A person's live sessions, newest first; `now` decides which have expired.
    liveOf: SqlSchema.findAll({
      Request: Schema.Struct({ personId: Schema.String, now: Schema.Date }),
      Result: SessionRow,
      execute: ({ now, personId }) =>
        sql`
          SELECT ${columns} FROM sessions
          WHERE person_id = ${personId} AND revoked_at IS NULL AND expires_at > ${now}
          ORDER BY created_at DESC, id DESC`
    }),
    revokedOwn: SqlSchema.findOneOption({
      Request: Schema.Struct({ sessionId: Schema.String, personId: Schema.String }),
      Result: Schema.Struct({ id: Schema.String }),
      execute: ({ personId, sessionId }) =>
        sql`
          UPDATE sessions SET revoked_at = now() WHERE id = ${sessionId} AND person_id = ${personId} AND revoked_at IS NULL
          RETURNING id`
    }),
    memberEmail: SqlSchema.findOneOption({
      Request: Schema.Struct({ workspaceId: Schema.String, email: Schema.String }),
      Result: Schema.Struct({ email: Schema.String }),
      execute: ({ email, workspaceId }) =>
        sql`
          SELECT email FROM members WHERE workspace_id = ${workspaceId} AND lower(email) = ${email}`
    })
  }
}
