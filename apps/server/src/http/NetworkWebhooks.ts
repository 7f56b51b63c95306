import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ApiError, HeraldApi } from "@herald/api"
import { Inbox, Networks } from "@herald/core"

// `/networks/<network>/webhook`: where a network announces inbox news itself (a new comment, a message),
// for the networks whose adapter has a webhook. No key: the adapter checks the network's own signature over
// the raw body. What it names is read in the next round, within seconds, rather than at its turn.

export const layer = (api: HeraldApi.HeraldApi) => HttpApiBuilder.group(
  api,
  "networkWebhooks",
  Effect.fnUntraced(function*(handlers) {
    const networks = yield* Networks.Networks
    const inbox = yield* Inbox.Inbox
    const webhookOf = (name: string) =>
      Effect.flatMap(Effect.option(networks.get(name)), (adapter) => {
        const webhook = Option.flatMap(adapter, (found) => Option.fromUndefinedOr(found.inbox?.webhook))
        return Option.isNone(webhook)
          ? Effect.fail(new ApiError.NotFound({ message: `No network webhook for "${name}"` }))
          : Effect.succeed(webhook.value)
      })
    return handlers
      .handle("handshake", ({ params, request }) =>
        Effect.gen(function*() {
          const webhook = yield* webhookOf(params.network)
          const query = Object.fromEntries(new URL(request.url, "http://herald").searchParams)
          const answer = Option.flatMap(Option.fromUndefinedOr(webhook.handshake), (check) => check(query))
          if (Option.isNone(answer)) return yield* new ApiError.Invalid({ message: "Not a subscription check this network makes" })
          return answer.value.body
        }))
      .handle("receive", ({ params, request }) =>
        Effect.gen(function*() {
          const webhook = yield* webhookOf(params.network)
          const body = new Uint8Array(yield* Effect.orDie(request.arrayBuffer))
          const accounts = yield* webhook.receive({ headers: request.headers, body }).pipe(
            Effect.mapError((rejected) => new ApiError.Unauthorized({ message: rejected.message }))
          )
          return { received: yield* Effect.orDie(inbox.wake(params.network, accounts)) }
        }))
  })
)
