import { Effect, Option } from "effect"
import * as HandlerGroup from "./HandlerGroup.ts"
import { ApiError, Authorization, HeraldApi, PostsApi } from "@herald/api"
import { WebhookDelivery, Webhooks } from "@herald/core"
import { Webhook } from "@herald/domain"
import { answered } from "./ErrorRendering.ts"

/** `limit` 1 to 100 (20 by default) and `cursor`, the previous page's `nextCursor`. */
const parsePage = (query: { readonly limit?: string | undefined; readonly cursor?: string | undefined }) => {
  const limit = query.limit === undefined ? 20 : /^\d+$/.test(query.limit) ? Number(query.limit) : Number.NaN
  if (!(limit >= 1 && limit <= 100)) {
    return { problem: { field: "limit", message: `limit "${query.limit}" must be a whole number from 1 to 100` } }
  }
  if (query.cursor === undefined) return { limit }
  const [at, id] = Buffer.from(query.cursor, "base64url").toString("utf8").split("|")
  const createdAt = new Date(at ?? "")
  if (id === undefined || id === "" || Number.isNaN(createdAt.getTime())) {
    return { problem: { field: "cursor", message: "cursor is not one this API gave out" } }
  }
  return { limit, cursor: { createdAt, id } }
}

export const layer = (api: HeraldApi.HeraldApi) => HandlerGroup.group(
  api,
  "webhooks",
  Effect.fnUntraced(function*(handlers) {
    const webhooks = yield* Webhooks.Webhooks
    const delivery = yield* WebhookDelivery.WebhookDelivery
    const workspace = Effect.map(Effect.service(Authorization.CurrentPrincipal), (principal) => principal.workspaceId)
    return handlers
      .handle("events", () => Effect.succeed({ data: Webhook.EventKinds }))
      .handle("create", ({ payload }) =>
        Effect.flatMap(workspace, (workspaceId) => webhooks.create(workspaceId, payload)).pipe(
          Effect.map((data) => ({ data })),
          answered
        ))
      .handle("list", () =>
        Effect.flatMap(workspace, (workspaceId) => webhooks.list(workspaceId)).pipe(
          Effect.map((data) => ({ data })),
          Effect.orDie
        ))
      .handle("get", ({ params }) =>
        Effect.flatMap(workspace, (workspaceId) => webhooks.get(workspaceId, params.id)).pipe(
          Effect.map((data) => ({ data })),
          answered
        ))
      .handle("update", ({ params, payload }) =>
        Effect.flatMap(workspace, (workspaceId) => webhooks.update(workspaceId, params.id, payload)).pipe(
          Effect.map((data) => ({ data })),
          answered
        ))
      .handle("remove", ({ params }) =>
        Effect.flatMap(workspace, (workspaceId) => webhooks.remove(workspaceId, params.id)).pipe(
          Effect.as({ data: new PostsApi.Deleted({ id: params.id, deleted: true }) }),
          answered
        ))
      .handle("test", ({ params }) =>
        Effect.flatMap(workspace, (workspaceId) => delivery.test(workspaceId, params.id)).pipe(
          Effect.map((data) => ({ data })),
          answered
        ))
      .handle("redeliver", ({ params }) =>
        Effect.flatMap(workspace, (workspaceId) => delivery.redeliver(workspaceId, params.id, params.deliveryId)).pipe(
          Effect.map((data) => ({ data })),
          answered
        ))
      .handle("deliveries", ({ params, query }) =>
        Effect.gen(function*() {
          const workspaceId = yield* workspace
          const page = parsePage(query)
          if ("problem" in page) return yield* new ApiError.Invalid({ message: page.problem.message, details: [page.problem] })
          const found = yield* delivery.deliveries(workspaceId, params.id, page).pipe(
            answered
          )
          return {
            data: found.deliveries,
            nextCursor: Option.getOrNull(Option.map(found.next, (next) =>
              Buffer.from(`${next.createdAt.toISOString()}|${next.id}`).toString("base64url")))
          }
        }))
      .handle("rotateSecret", ({ params }) =>
        Effect.flatMap(workspace, (workspaceId) => webhooks.rotateSecret(workspaceId, params.id)).pipe(
          Effect.map((data) => ({ data })),
          answered
        ))
  })
)
