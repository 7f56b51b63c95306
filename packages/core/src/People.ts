import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type SqlError, SqlSchema } from "effect/sql"
import { Ids as DomainIds, Workspace } from "@herald/domain"
import * as DieOnSql from "./internal/dieOnSql.ts"
import * as Ids from "./Ids.ts"
import * as Attempts from "./internal/attempts.ts"
import * as Passwords from "./internal/passwords.ts"
import { dieOnBadRow, Timestamp } from "./internal/rows.ts"

/**
 * People who sign in to the console: one e-mail address across workspaces, matched to each workspace's
 * members by address, case-insensitively. Passwords are scrypt hashes (decision 0021). A person whose address
 * is not verified yet (made by accepting an invitation, whose link the inviter sees too) reaches only the
 * workspaces of the invitations they accepted themselves (decision 0057).
 */

export interface Person {
  readonly id: DomainIds.PersonId
  readonly email: string
  readonly name: string | null
  readonly hasPassword: boolean
  /** The address was shown to be theirs: a link only it (or the operator) was given was used. */
  readonly verified: boolean
}

/** A workspace the person is a member of, with the member's role. */
export interface Membership {
  readonly id: DomainIds.WorkspaceId
  readonly name: string
  readonly role: Workspace.Role
  readonly memberId: DomainIds.MemberId
}

export class WrongCredentials extends Schema.TaggedError<WrongCredentials>()("WrongCredentials", {}) {
  override get message() {
    return "Wrong e-mail or password"
  }
}

export class TooManyAttempts extends Schema.TaggedError<TooManyAttempts>()("TooManyAttempts", {
  retryAfterSeconds: Schema.Number
}) {
  override get message() {
    return `Too many sign-in attempts; try again in ${this.retryAfterSeconds} seconds`
  }
}

export class PersonInvalid extends Schema.TaggedError<PersonInvalid>()("PersonInvalid", {
  field: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `${this.field}: ${this.reason}`
  }
}

export class PersonNotFound extends Schema.TaggedError<PersonNotFound>()("PersonNotFound", { email: Schema.String }) {
  override get message() {
    return `No member with the e-mail ${this.email}`
  }
}

/**
 * Limits of decision 0021, per 15 minutes, each counted before any password is checked (so attempts at once
 * cannot all pass): attempts per client address, per client address and e-mail, and per e-mail from any
 * address, higher, so that someone guessing from one address does not lock the person out everywhere.
 */
export const failuresPerEmail = 5
export const attemptsPerAddress = 30
export const failuresPerEmailEverywhere = 50

/** A `people` row as `personColumns` reads it, decoded rather than asserted (a row unlike it dies). */
const PersonRow = Schema.Struct({
  id: DomainIds.PersonId,
  email: Schema.String,
  name: Schema.NullOr(Schema.String),
  passwordHash: Schema.NullOr(Schema.String),
  emailVerifiedAt: Schema.NullOr(Timestamp)
})

const personColumns = "id, email, name, password_hash, email_verified_at"

/** A membership as `membershipsOf` reads it: the workspace, and the person's member in it. */
const MembershipRow = Schema.Struct({
  id: DomainIds.WorkspaceId,
  name: Schema.String,
  role: Workspace.Role,
  memberId: DomainIds.MemberId
})

const toPerson = (row: typeof PersonRow.Type): Person => ({
  id: row.id,
  email: row.email,
  name: row.name,
  hasPassword: row.passwordHash !== null,
  verified: row.emailVerifiedAt !== null
})

export class People extends Context.Service<People, {
  byEmail(email: string): Effect.Effect<Option.Option<Person>>
  get(personId: string): Effect.Effect<Person>
  /** The person with this address, made (verified: the operator's paths) when there is none yet. */
  ensure(email: string): Effect.Effect<Person>
  /** A new person with this address (unverified); none when the address has one already. */
  create(email: string): Effect.Effect<Option.Option<Person>>
  /** The workspaces the person reaches: every one of the address once it is verified (decision 0057). */
  memberships(personId: string): Effect.Effect<ReadonlyArray<Membership>>
  /** Every workspace with a member of the person's address, verified or not: where a link mailed to it may lead. */
  membershipsOfAddress(personId: string): Effect.Effect<ReadonlyArray<Membership>>
  /**
   * Counts an attempt against the client address, the address with the e-mail and the e-mail, refusing past
   * the limits; a sign-in that then succeeds takes its count back (`signIn` with the same address).
   */
  limit(address: string, email: string): Effect.Effect<void, TooManyAttempts>
  /**
   * Checks a password; unknown e-mail and wrong password fail alike and take as long. `address` is the
   * client's, whose attempt `limit` counted: a success takes it back. Too many checks at once: `TooManyAttempts`.
   */
  signIn(email: string, password: string, address?: string): Effect.Effect<Person, WrongCredentials | TooManyAttempts>
  checkPassword(personId: string, password: string): Effect.Effect<boolean, TooManyAttempts>
  setPassword(personId: string, password: string): Effect.Effect<void, PersonInvalid>
  rename(personId: string, name: string): Effect.Effect<void, PersonInvalid>
}>()("@herald/core/People") {
  static readonly layer = Layer.effect(
    People,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const columns = sql.literal(personColumns)
      const withEmail = SqlSchema.findOneOption({
        Request: Schema.String,
        Result: PersonRow,
        execute: (email) => sql`SELECT ${columns} FROM people WHERE lower(email) = ${email}`
      })
      const withId = SqlSchema.findOneOption({
        Request: Schema.String,
        Result: PersonRow,
        execute: (personId) => sql`SELECT ${columns} FROM people WHERE id = ${personId}`
      })
      const membershipRows = SqlSchema.findAll({
        Request: Schema.Struct({ personId: Schema.String, reachable: Schema.Boolean }),
        Result: MembershipRow,
        execute: ({ personId, reachable }) =>
          sql`
            SELECT w.id, w.name, m.role, m.id AS member_id
            FROM people p JOIN members m ON lower(m.email) = lower(p.email) JOIN workspaces w ON w.id = m.workspace_id
            WHERE p.id = ${personId}
              AND (${!reachable} OR p.email_verified_at IS NOT NULL OR EXISTS (
                SELECT 1 FROM invitations i WHERE i.member_id = m.id AND i.accepted_by = p.id))
            ORDER BY w.name, w.id`
      })
      const created = SqlSchema.findOneOption({
        Request: Schema.Struct({ id: Schema.String, email: Schema.String }),
        Result: PersonRow,
        execute: ({ email, id }) => sql`
          INSERT INTO people (id, email) VALUES (${id}, ${email}) ON CONFLICT DO NOTHING RETURNING ${columns}`
      })

      const row = (email: string) => dieOnBadRow(withEmail(email.trim().toLowerCase()))

      const byEmail = (email: string) => Effect.map(row(email), Option.map(toPerson))

      const get = (personId: string) =>
        Effect.flatMap(dieOnBadRow(withId(personId)), Option.match({
          onNone: () => Effect.die(`person ${personId} vanished`),
          onSome: (found) => Effect.succeed(toPerson(found))
        }))

      // The operator's paths (the first run, sign-in links, members added by the command line) make people
      // whose address the operator vouches for; only an invitation's acceptance makes an unverified one.
      const ensure = Effect.fn("People.ensure")(function*(email: string) {
        const address = email.trim().toLowerCase()
        const id = yield* Ids.make(DomainIds.prefixes.person)
        yield* sql`INSERT INTO people (id, email, email_verified_at) VALUES (${id}, ${address}, now()) ON CONFLICT DO NOTHING`
        const found = yield* byEmail(address)
        return Option.getOrElse(
          found,
          () => ({ id: DomainIds.PersonId.make(id), email: address, name: null, hasPassword: false, verified: true })
        )
      })

      // The rows are the memberships: their schema is `Membership`'s fields, ids decoded as the domain's.
      const membershipsOf = (personId: string, reachable: boolean): Effect.Effect<ReadonlyArray<Membership>, SqlError.SqlError> =>
        dieOnBadRow(membershipRows({ personId, reachable }))
      const create = Effect.fn("People.create")(function*(email: string) {
        const id = yield* Ids.make(DomainIds.prefixes.person)
        const row = yield* dieOnBadRow(created({ id, email: email.trim().toLowerCase() }))
        return Option.map(row, toPerson)
      })

      const memberships = (personId: string) => membershipsOf(personId, true)
      const membershipsOfAddress = (personId: string) => membershipsOf(personId, false)

      const subjects = (address: string, email: string) => {
        const mail = email.trim().toLowerCase()
        return { address: `address:${address}`, pair: `pair:${address}:${mail}`, email: `email:${mail}` }
      }

      const limit = Effect.fn("People.limit")(function*(address: string, email: string) {
        // Each count goes up before any password is checked, and what it answers is this attempt's own place.
        const now = yield* Clock.currentTimeMillis
        const counted = subjects(address, email)
        yield* Attempts.prune(sql)
        const attempts = yield* Attempts.count(sql, counted.address)
        const pair = yield* Attempts.count(sql, counted.pair)
        const everywhere = yield* Attempts.count(sql, counted.email)
        if (attempts > attemptsPerAddress || pair > failuresPerEmail || everywhere > failuresPerEmailEverywhere) {
          return yield* new TooManyAttempts({ retryAfterSeconds: Attempts.retryAfter(now) })
        }
      })

      /** A check refused for being one too many at once answers as a limit does, to wait a moment. */
      const checked = (outcome: boolean | "busy") =>
        outcome === "busy" ? Effect.fail(new TooManyAttempts({ retryAfterSeconds: 2 })) : Effect.succeed(outcome)

      const signIn = Effect.fn("People.signIn")(function*(email: string, password: string, address?: string) {
        const found = yield* row(email)
        const stored = Option.match(found, { onNone: () => Passwords.dummy, onSome: (person) => person.passwordHash ?? Passwords.dummy })
        const matches = yield* Effect.flatMap(Passwords.verify(password, stored), checked)
        if (Option.isSome(found) && found.value.passwordHash !== null && matches) {
          // The right password: this attempt is not a failure to hold against the address or the e-mail.
          if (address !== undefined) {
            const counted = subjects(address, email)
            yield* Attempts.forgive(sql, [counted.pair, counted.email])
          }
          return toPerson(found.value)
        }
        return yield* new WrongCredentials()
      })

      const checkPassword = Effect.fn("People.checkPassword")(function*(personId: string, password: string) {
        const found = Option.getOrUndefined(yield* dieOnBadRow(withId(personId)))
        return yield* Effect.flatMap(Passwords.verify(password, found?.passwordHash ?? Passwords.dummy), checked)
      })

      const setPassword = Effect.fn("People.setPassword")(function*(personId: string, password: string) {
        const person = yield* get(personId)
        if (password.length < 10 || password.length > 200) {
          return yield* new PersonInvalid({ field: "password", reason: "must be 10 to 200 characters long" })
        }
        if (password.trim().toLowerCase() === person.email.toLowerCase()) {
          return yield* new PersonInvalid({ field: "password", reason: "must not be your e-mail address" })
        }
        const hashed = yield* Passwords.hash(password)
        const now = yield* Clock.currentTimeMillis
        yield* sql`UPDATE people SET password_hash = ${hashed}, password_changed_at = ${new Date(now)} WHERE id = ${personId}`
      })

      const rename = Effect.fn("People.rename")(function*(personId: string, name: string) {
        const trimmed = name.trim()
        if (trimmed.length === 0 || trimmed.length > 200) {
          return yield* new PersonInvalid({ field: "name", reason: "must be 1 to 200 characters long" })
        }
        yield* sql`UPDATE people SET name = ${trimmed} WHERE id = ${personId}`
      })

      return People.of(DieOnSql.service({
        byEmail,
        get,
        ensure,
        create,
        memberships,
        membershipsOfAddress,
        limit,
        signIn,
        checkPassword,
        setPassword,
        rename
      }))
    })
  )
}
