import { Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { Ids as DomainIds, Workspace } from "@herald/domain"
import * as DieOnSql from "./internal/dieOnSql.ts"
import * as Ids from "./Ids.ts"
import { type MemberRow, memberColumns, toMember } from "./internal/members.ts"
import { iso } from "./internal/rows.ts"

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

export interface WorkspaceRow {
  readonly id: string
  readonly name: string
  readonly approvalRequired: boolean
  readonly assistantApproval: boolean
  readonly timeZone: string
  readonly createdAt: Date | string
}

export const workspaceColumns = "id, name, approval_required, assistant_approval, time_zone, created_at"

export const toWorkspace = (row: WorkspaceRow) =>
  new Workspace.Workspace({
    id: DomainIds.WorkspaceId.make(row.id),
    name: row.name,
    approvalRequired: row.approvalRequired,
    assistantApproval: row.assistantApproval,
    timeZone: row.timeZone,
    createdAt: iso(row.createdAt)
  })

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

      const create = Effect.fn("Workspaces.create")(function*(input: CreateInput) {
        const id = yield* Ids.make(DomainIds.prefixes.workspace)
        const memberId = yield* Ids.make(DomainIds.prefixes.member)
        return yield* sql.withTransaction(Effect.gen(function*() {
          const [row] = yield* sql<WorkspaceRow>`
            INSERT INTO workspaces (id, name) VALUES (${id}, ${input.name}) RETURNING ${sql.literal(workspaceColumns)}
          `
          if (input.ownerEmail !== undefined) {
            yield* sql`
              INSERT INTO members (id, workspace_id, email, role)
              VALUES (${memberId}, ${id}, ${input.ownerEmail.toLowerCase()}, 'owner')
            `
          }
          return toWorkspace(row!)
        }))
      })

      const list = sql<WorkspaceRow>`SELECT ${sql.literal(workspaceColumns)} FROM workspaces ORDER BY created_at, id`.pipe(
        Effect.map((rows) => rows.map(toWorkspace)),
        Effect.withSpan("Workspaces.list")
      )

      const find = (id: string) =>
        sql<WorkspaceRow>`SELECT ${sql.literal(workspaceColumns)} FROM workspaces WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.fromNullishOr(rows[0])),
          Effect.flatMap(Option.match({
            onNone: () => Effect.fail(new WorkspaceNotFound({ workspaceId: id })),
            onSome: (row) => Effect.succeed(toWorkspace(row))
          }))
        )

      const get = Effect.fn("Workspaces.get")(function*(id: string) {
        return yield* find(id)
      })

      const members = Effect.fn("Workspaces.members")(function*(id: string) {
        yield* find(id)
        const rows = yield* sql<MemberRow>`
          SELECT ${sql.literal(memberColumns)} FROM members WHERE workspace_id = ${id} ORDER BY created_at, id`
        return rows.map(toMember)
      })

      const update = Effect.fn("Workspaces.update")(function*(id: string, input: UpdateInput) {
        if (input.timeZone !== undefined) yield* checkTimeZone(input.timeZone)
        const [row] = yield* sql<WorkspaceRow>`
          UPDATE workspaces SET name = coalesce(${input.name ?? null}, name),
            approval_required = coalesce(${input.approvalRequired ?? null}, approval_required),
            assistant_approval = coalesce(${input.assistantApproval ?? null}, assistant_approval),
            time_zone = coalesce(${input.timeZone ?? null}, time_zone)
          WHERE id = ${id} RETURNING ${sql.literal(workspaceColumns)}`
        if (row === undefined) return yield* new WorkspaceNotFound({ workspaceId: id })
        return toWorkspace(row)
      })

      return Workspaces.of(DieOnSql.service({ create, list, get, members, update }))
    })
  )
}
