import { Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type SqlError, SqlSchema } from "effect/sql"
import { Ids as DomainIds, Workspace } from "@herald/domain"
import * as DieOnSql from "./internal/dieOnSql.ts"
import * as Ids from "./Ids.ts"
import { memberColumns, MemberRow, toMember } from "./internal/members.ts"
import { dieOnBadRow, Timestamp } from "./internal/rows.ts"

export class WorkspaceNotFound extends Schema.TaggedError<WorkspaceNotFound>()("WorkspaceNotFound", {
  workspaceId: Schema.String
}) {
  override get message() {
    return `Workspace ${this.workspaceId} does not exist`
  }
}

/** A change the workspace refuses; `problems` name the fields, as `details` of a `400 invalid`. */
export class WorkspaceInvalid extends Schema.TaggedError<WorkspaceInvalid>()("WorkspaceInvalid", {
  problems: Schema.Array(Schema.Struct({ field: Schema.String, message: Schema.String }))
}) {
  override get message() {
    return this.problems.map((problem) => problem.message).join("; ")
  }
}

// IANA names only (`Europe/Paris`, `UTC`, `Etc/GMT+5`): Intl also takes offsets such as `+05:00`, which are no zone.
const ianaName = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/

/** Succeeds with the name when this runtime's Intl knows it as a time zone, else fails with WorkspaceInvalid. */
export const checkTimeZone = (name: string): Effect.Effect<string, WorkspaceInvalid> => {
  const refused = new WorkspaceInvalid({
    problems: [{ field: "timeZone", message: `timeZone "${name}" is not an IANA time zone name (such as Europe/Paris or UTC)` }]
  })
  if (!ianaName.test(name)) return Effect.fail(refused)
  // Intl throws a RangeError for a zone it does not know.
  return Effect.try({ try: () => new Intl.DateTimeFormat("en", { timeZone: name }), catch: () => refused }).pipe(Effect.as(name))
}

export interface CreateInput {
  readonly name: string
  readonly ownerEmail?: string | undefined
}

/** A `workspaces` row as `workspaceColumns` reads it, decoded rather than asserted (a row unlike it dies). */
export const WorkspaceRow = Schema.Struct({
  id: DomainIds.WorkspaceId,
  name: Schema.String,
  approvalRequired: Schema.Boolean,
  assistantApproval: Schema.Boolean,
  timeZone: Schema.String,
  createdAt: Timestamp
})

export const workspaceColumns = "id, name, approval_required, assistant_approval, time_zone, created_at"

export const toWorkspace = (row: typeof WorkspaceRow.Type) => new Workspace.Workspace(row)

/** The workspace of that id, if there is one, read by `sql`. */
export const findWorkspace = (sql: SqlClient.SqlClient) => {
  const find = SqlSchema.findOneOption({
    Request: Schema.String,
    Result: WorkspaceRow,
    execute: (id) => sql`SELECT ${sql.literal(workspaceColumns)} FROM workspaces WHERE id = ${id}`
  })
  return (id: string) => dieOnBadRow(Effect.map(find(id), Option.map(toWorkspace)))
}

export interface UpdateInput {
  readonly name?: string | undefined
  readonly approvalRequired?: boolean | undefined
  /** Whether OAuth-connected assistants' posts wait for approval (decision 0048). */
  readonly assistantApproval?: boolean | undefined
  /** An IANA time zone name; refused with WorkspaceInvalid when Intl does not know it. */
  readonly timeZone?: string | undefined
}

export class Workspaces extends Context.Service<Workspaces, {
  create(input: CreateInput): Effect.Effect<Workspace.Workspace>
  readonly list: Effect.Effect<ReadonlyArray<Workspace.Workspace>>
  get(id: string): Effect.Effect<Workspace.Workspace, WorkspaceNotFound>
  members(id: string): Effect.Effect<ReadonlyArray<Workspace.Member>, WorkspaceNotFound>
  /** `PATCH /api/v1/workspace`: only what is sent changes. */
  update(id: string, input: UpdateInput): Effect.Effect<Workspace.Workspace, WorkspaceNotFound | WorkspaceInvalid>
}>()("@herald/core/Workspaces") {
  static readonly layer = Layer.effect(
    Workspaces,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const findById = findWorkspace(sql)
      const created = SqlSchema.findOne({
        Request: Schema.Struct({ id: Schema.String, name: Schema.String }),
        Result: WorkspaceRow,
        execute: ({ id, name }) =>
          sql`INSERT INTO workspaces (id, name) VALUES (${id}, ${name}) RETURNING ${sql.literal(workspaceColumns)}`
      })
      const all = SqlSchema.findAll({
        Request: Schema.Void,
        Result: WorkspaceRow,
        execute: () => sql`SELECT ${sql.literal(workspaceColumns)} FROM workspaces ORDER BY created_at, id`
      })
      const membersOf = SqlSchema.findAll({
        Request: Schema.String,
        Result: MemberRow,
        execute: (id) => sql`SELECT ${sql.literal(memberColumns)} FROM members WHERE workspace_id = ${id} ORDER BY created_at, id`
      })
      const updated = SqlSchema.findOneOption({
        Request: Schema.Struct({
          id: Schema.String,
          name: Schema.NullOr(Schema.String),
          approvalRequired: Schema.NullOr(Schema.Boolean),
          assistantApproval: Schema.NullOr(Schema.Boolean),
          timeZone: Schema.NullOr(Schema.String)
        }),
        Result: WorkspaceRow,
        execute: (change) =>
          sql`
          UPDATE workspaces SET name = coalesce(${change.name}, name),
            approval_required = coalesce(${change.approvalRequired}, approval_required),
            assistant_approval = coalesce(${change.assistantApproval}, assistant_approval),
            time_zone = coalesce(${change.timeZone}, time_zone)
          WHERE id = ${change.id} RETURNING ${sql.literal(workspaceColumns)}`
      })

      const create = Effect.fn("Workspaces.create")(function*(input: CreateInput) {
        const id = yield* Ids.make(DomainIds.prefixes.workspace)
        const memberId = yield* Ids.make(DomainIds.prefixes.member)
        return yield* sql.withTransaction(Effect.gen(function*() {
          const row = yield* Effect.orDie(created({ id, name: input.name }))
          if (input.ownerEmail !== undefined) {
            yield* sql`
              INSERT INTO members (id, workspace_id, email, role)
              VALUES (${memberId}, ${id}, ${input.ownerEmail.toLowerCase()}, 'owner')
            `
          }
          return toWorkspace(row)
        }))
      })

      const list = dieOnBadRow(all(undefined)).pipe(
        Effect.map((rows) => rows.map(toWorkspace)),
        Effect.withSpan("Workspaces.list")
      )

      const find = (id: string) =>
        Effect.flatMap(findById(id), Option.match({
          onNone: () => Effect.fail(new WorkspaceNotFound({ workspaceId: id })),
          onSome: Effect.succeed
        }))

      const get = Effect.fn("Workspaces.get")(function*(id: string) {
        return yield* find(id)
      })

      const members = Effect.fn("Workspaces.members")(function*(id: string) {
        yield* find(id)
        const rows = yield* dieOnBadRow(membersOf(id))
        return rows.map(toMember)
      })

      const update = Effect.fn("Workspaces.update")(function*(id: string, input: UpdateInput) {
        if (input.timeZone !== undefined) yield* checkTimeZone(input.timeZone)
        const row = yield* dieOnBadRow(updated({
          id,
          name: input.name ?? null,
          approvalRequired: input.approvalRequired ?? null,
          assistantApproval: input.assistantApproval ?? null,
          timeZone: input.timeZone ?? null
        }))
        if (Option.isNone(row)) return yield* new WorkspaceNotFound({ workspaceId: id })
        return toWorkspace(row.value)
      })

      return Workspaces.of(DieOnSql.service({ create, list, get, members, update }))
    })
  )
}
