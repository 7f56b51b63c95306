import { Effect, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { ApiError } from "@herald/api"
import { Inbox, Networks } from "@herald/core"

// `/networks/<network>/webhook`: where a network announces inbox news itself (a new comment, a message),
// for the networks whose adapter has a webhook. No key: the adapter checks the network's own signature over
// the raw body. What it names is read in the next round, within seconds, rather than at its turn.

const json = (status: number, code: ApiError.Code, message: string) => HttpServerResponse.jsonUnsafe(ApiError.body(code, message), { status })

const webhookOf = Effect.gen(function*() {
  const networks = yield* Networks.Networks
  const name = (yield* HttpRouter.params)["network"] ?? ""
  const adapter = yield* Effect.option(networks.get(name))
  const webhook = Option.flatMap(adapter, (found) => Option.fromUndefinedOr(found.inbox?.webhook))
  return { name, webhook }
})

const handshake = Effect.gen(function*() {
  const { name, webhook } = yield* webhookOf
  if (Option.isNone(webhook)) return json(404, "not_found", `No network webhook for "${name}"`)
  const request = yield* HttpServerRequest.HttpServerRequest
  const query = Object.fromEntries(new URL(request.url, "http://herald").searchParams)
  const answer = Option.flatMap(Option.fromUndefinedOr(webhook.value.handshake), (check) => check(query))
  return Option.match(answer, {
    onNone: () => json(400, "invalid", "Not a subscription check this network makes"),
    onSome: ({ body, status }) => HttpServerResponse.text(body, { status })
  })
})

const receive = Effect.gen(function*() {
  const { name, webhook } = yield* webhookOf
  if (Option.isNone(webhook)) return json(404, "not_found", `No network webhook for "${name}"`)
  const request = yield* HttpServerRequest.HttpServerRequest
  const body = new Uint8Array(yield* Effect.orDie(request.arrayBuffer))
  const inbox = yield* Inbox.Inbox
  return yield* webhook.value.receive({ headers: request.headers, body }).pipe(
    Effect.flatMap((accounts) => Effect.orDie(inbox.wake(name, accounts))),
    Effect.map((woken) => HttpServerResponse.jsonUnsafe({ received: woken })),
    Effect.catch((rejected) => Effect.succeed(json(401, "unauthorized", rejected.message)))
  )
})

export const layer = HttpRouter.addAll([
  HttpRouter.route("GET", "/networks/:network/webhook", handshake),
  HttpRouter.route("POST", "/networks/:network/webhook", receive)
])
