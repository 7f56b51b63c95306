import { Effect } from "effect"
import * as HandlerGroup from "./HandlerGroup.ts"
import { ApiError, HeraldApi, KeysApi } from "@herald/api"
import { ApiKeys, Workspaces } from "@herald/core"
import type { ApiKey, Workspace } from "@herald/domain"
import * as Roles from "../internal/roles.ts"
import { answeredInOwn } from "./ErrorRendering.ts"

const manager = Roles.manager("manageKeys", "API keys")

export const layer = (api: HeraldApi.HeraldApi) => HandlerGroup.group(
  api,
  "keys",
  Effect.fnUntraced(function*(handlers) {
    const apiKeys = yield* ApiKeys.ApiKeys
    const workspaces = yield* Workspaces.Workspaces

    /** The workspace's keys, each with the member it acts for. */
    const listed = (workspaceId: string) =>
      Effect.gen(function*() {
        const keys = yield* apiKeys.list(workspaceId)
        const members = new Map((yield* workspaces.members(workspaceId)).map((member) => [member.id as string, member]))
        return keys.map((key) => view(key, members))
      })

    const view = (key: ApiKey.ApiKey, members: ReadonlyMap<string, Workspace.Member>) => {
      const member = key.memberId === null ? undefined : members.get(key.memberId)
      return new KeysApi.Key({
        id: key.id,
        name: key.name,
        prefix: key.prefix,
        lastFour: key.lastFour,
        member: member === undefined ? null : new KeysApi.KeyMember({ id: member.id, email: member.email, role: member.role }),
        createdAt: key.createdAt,
        lastUsedAt: key.lastUsedAt,
        revokedAt: key.revokedAt
      })
    }

    return handlers
      .handle("list", () =>
        Effect.flatMap(manager, (principal) => listed(principal.workspaceId)).pipe(
          Effect.map((data) => ({ data })),
          answeredInOwn
        ))
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          const principal = yield* manager
          const members = yield* workspaces.members(principal.workspaceId)
          const member = payload.memberId === undefined ? null : members.find((each) => each.id === payload.memberId)
          if (member === undefined) {
            return yield* new ApiError.Invalid({
              message: `memberId ${payload.memberId} is not a member of this workspace`,
              details: [{ field: "memberId", message: `${payload.memberId} is not a member of this workspace` }]
            })
          }
          yield* Roles.notAbove(principal.role, member?.role ?? null, `create ${Roles.keyActingFor(member?.role ?? null)}`)
          const created = yield* apiKeys.create({
            workspaceId: principal.workspaceId,
            name: payload.name,
            ...(member === null ? {} : { memberId: member.id })
          })
          const shown = view(created, new Map(members.map((each) => [each.id as string, each])))
          return { data: new KeysApi.CreatedKey({ ...shown, key: created.key }) }
        }).pipe(
          Effect.catchTag("MemberNotInWorkspace", (error) =>
            Effect.fail(new ApiError.Invalid({ message: error.message, details: [{ field: "memberId", message: error.message }] }))),
          answeredInOwn
        ))
      .handle("revoke", ({ params }) =>
        Effect.gen(function*() {
          const principal = yield* manager
          const key = (yield* listed(principal.workspaceId)).find((each) => each.id === params.id)
          if (key === undefined) return yield* new ApiError.NotFound({ message: `API key ${params.id} does not exist` })
          yield* Roles.notAbove(principal.role, key.member?.role ?? null, `revoke ${Roles.keyActingFor(key.member?.role ?? null)}`)
          const revoked = yield* apiKeys.revoke(key.id)
          return { data: new KeysApi.Key({ ...key, revokedAt: revoked.revokedAt }) }
        }).pipe(
          answeredInOwn
        ))
  })
)
