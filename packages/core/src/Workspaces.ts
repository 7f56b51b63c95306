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

interface WorkspaceRow {
  readonly id: string
  readonly name: string
  readonly createdAt: Date | string
}

const toWorkspace = (row: WorkspaceRow) =>
  new Workspace.Workspace({ id: DomainIds.WorkspaceId.make(row.id), name: row.name, createdAt: iso(row.createdAt) })

export class Workspaces extends Context.Service<Workspaces, {
  create(input: CreateInput): Effect.Effect<Workspace.Workspace, SqlError.SqlError>
  readonly list: Effect.Effect<ReadonlyArray<Workspace.Workspace>, SqlError.SqlError>
  get(id: string): Effect.Effect<Workspace.Workspace, WorkspaceNotFound | SqlError.SqlError>
  members(id: string): Effect.Effect<ReadonlyArray<Workspace.Member>, WorkspaceNotFound | SqlError.SqlError>
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
            INSERT INTO workspaces (id, name) VALUES (${id}, ${input.name}) RETURNING id, name, created_at
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

      const list = sql<WorkspaceRow>`SELECT id, name, created_at FROM workspaces ORDER BY created_at, id`.pipe(
        Effect.map((rows) => rows.map(toWorkspace)),
        Effect.withSpan("Workspaces.list")
      )

      const find = (id: string) =>
        sql<WorkspaceRow>`SELECT id, name, created_at FROM workspaces WHERE id = ${id}`.pipe(
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

      return Workspaces.of({ create, list, get, members })
    })
  )
}
