import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ApiError, Authorization, HeraldApi, PostsApi } from "@herald/api"
import { Webhooks } from "@herald/core"

const invalid = (error: Webhooks.WebhookInvalid) =>
  Effect.fail(new ApiError.Invalid({ message: error.message, details: error.problems }))
const notFound = (error: { readonly message: string }) => Effect.fail(new ApiError.NotFound({ message: error.message }))
const conflict = (error: { readonly message: string }) => Effect.fail(new ApiError.Conflict({ message: error.message }))

export const layer = HttpApiBuilder.group(
  HeraldApi.HeraldApi,
  "webhooks",
  Effect.fnUntraced(function*(handlers) {
    const webhooks = yield* Webhooks.Webhooks
    const workspace = Effect.map(Effect.service(Authorization.CurrentPrincipal), (principal) => principal.workspaceId)
    return handlers
      .handle("create", ({ payload }) =>
        Effect.flatMap(workspace, (workspaceId) => webhooks.create(workspaceId, payload)).pipe(
          Effect.map((data) => ({ data })),
          Effect.catchTag("WebhookInvalid", invalid),
          Effect.catchTag("WebhookConflict", conflict),
          Effect.catchTag("SqlError", Effect.die)
        ))
      .handle("list", () =>
        Effect.flatMap(workspace, (workspaceId) => webhooks.list(workspaceId)).pipe(
          Effect.map((data) => ({ data })),
          Effect.orDie
        ))
      .handle("get", ({ params }) =>
        Effect.flatMap(workspace, (workspaceId) => webhooks.get(workspaceId, params.id)).pipe(
          Effect.map((data) => ({ data })),
          Effect.catchTag("WebhookNotFound", notFound),
          Effect.catchTag("SqlError", Effect.die)
        ))
      .handle("update", ({ params, payload }) =>
        Effect.flatMap(workspace, (workspaceId) => webhooks.update(workspaceId, params.id, payload)).pipe(
          Effect.map((data) => ({ data })),
          Effect.catchTag("WebhookInvalid", invalid),
          Effect.catchTag("WebhookNotFound", notFound),
          Effect.catchTag("SqlError", Effect.die)
        ))
      .handle("remove", ({ params }) =>
        Effect.flatMap(workspace, (workspaceId) => webhooks.remove(workspaceId, params.id)).pipe(
          Effect.as({ data: new PostsApi.Deleted({ id: params.id, deleted: true }) }),
          Effect.catchTag("WebhookNotFound", notFound),
          Effect.catchTag("SqlError", Effect.die)
        ))
      .handle("rotateSecret", ({ params }) =>
        Effect.flatMap(workspace, (workspaceId) => webhooks.rotateSecret(workspaceId, params.id)).pipe(
          Effect.map((data) => ({ data })),
          Effect.catchTag("WebhookNotFound", notFound),
          Effect.catchTag("SqlError", Effect.die)
        ))
  })
)
