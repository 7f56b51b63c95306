import { Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { Ids as DomainIds, Workspace } from "@herald/domain"
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

export interface CreateInput {
  readonly name: string
  readonly ownerEmail?: string | undefined
}

export interface WorkspaceRow {
  readonly id: string
  readonly name: string
  readonly approvalRequired: boolean
  readonly createdAt: Date | string
}

export const workspaceColumns = "id, name, approval_required, created_at"

export const toWorkspace = (row: WorkspaceRow) =>
  new Workspace.Workspace({
    id: DomainIds.WorkspaceId.make(row.id),
    name: row.name,
    approvalRequired: row.approvalRequired,
    createdAt: iso(row.createdAt)
  })

export interface UpdateInput {
  readonly name?: string | undefined
  readonly approvalRequired?: boolean | undefined
}

export class Workspaces extends Context.Service<Workspaces, {
  create(input: CreateInput): Effect.Effect<Workspace.Workspace, SqlError.SqlError>
  readonly list: Effect.Effect<ReadonlyArray<Workspace.Workspace>, SqlError.SqlError>
  get(id: string): Effect.Effect<Workspace.Workspace, WorkspaceNotFound | SqlError.SqlError>
  members(id: string): Effect.Effect<ReadonlyArray<Workspace.Member>, WorkspaceNotFound | SqlError.SqlError>
  /** `PATCH /api/v1/workspace`: only what is sent changes. */
  update(id: string, input: UpdateInput): Effect.Effect<Workspace.Workspace, WorkspaceNotFound | SqlError.SqlError>
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
        const [row] = yield* sql<WorkspaceRow>`
          UPDATE workspaces SET name = coalesce(${input.name ?? null}, name),
            approval_required = coalesce(${input.approvalRequired ?? null}, approval_required)
          WHERE id = ${id} RETURNING ${sql.literal(workspaceColumns)}`
        if (row === undefined) return yield* new WorkspaceNotFound({ workspaceId: id })
        return toWorkspace(row)
      })

      return Workspaces.of({ create, list, get, members, update })
    })
  )
}
