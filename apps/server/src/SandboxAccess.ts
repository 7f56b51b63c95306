import { Effect, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { SqlClient, SqlSchema } from "effect/sql"
import { Simulator } from "@herald/adapter-kit"
import { ApiError, Authorization } from "@herald/api"
import { ApiKeys, Inbox, RateLimiter, Sessions } from "@herald/core"
import { authenticate, authenticateSession, bearerKey, viewerReads } from "./http/AuthorizationLive.ts"
import * as SessionAuth from "./http/SessionAuth.ts"
import { PublicUrl } from "./PublicUrl.ts"

// The sandbox's own routes stand for what no network's API offers: `GET _posts` (what the network accepted)
// and `POST _control/*` (people commenting and writing). Every workspace of the server shares each simulated
// network, so these answer only a caller of Herald's, with a key or a console session as REST takes them,
// and reach only the sandbox accounts its workspace connected (decision 0061). The kit's own harness leaves
// them open, for adapter tests; the network's API beside them is the network's, with its own tokens. An item
// left through `_control/*` has its account read in the next inbox round, not at its turn (decision 0064).

/** Whether a simulator route is one of the sandbox's own rather than the network's API. */
const isOwn = (route: HttpRouter.Route<never, never>) => route.path === "/_posts" || route.path.startsWith("/_control/")

const refusal = (status: number, code: ApiError.Code) => (error: { readonly message: string }) =>
  Effect.succeed(HttpServerResponse.jsonUnsafe(ApiError.body(code, error.message), { status }))

/** Guards a simulator's own routes; the network's API passes as it is. */
export const make = Effect.gen(function*() {
  const apiKeys = yield* ApiKeys.ApiKeys
  const rateLimiter = yield* RateLimiter.RateLimiter
  const sessions = yield* Sessions.Sessions
  const inbox = yield* Inbox.Inbox
  const publicUrl = yield* PublicUrl
  const sql = yield* SqlClient.SqlClient
  // A row unlike its schema dies, as a database failure does here.
  const connectedIds = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: Schema.String, network: Schema.String }),
    Result: Schema.Struct({ networkAccountId: Schema.String }),
    execute: ({ network, workspaceId }) => sql`
        SELECT network_account_id FROM accounts
        WHERE workspace_id = ${workspaceId} AND platform = ${network} AND status <> 'disconnected'
          AND network_account_id IS NOT NULL
      `
  })

  /**
   * The caller's workspace: a key's, or without an `Authorization` header a console session's, whose changes
   * need its CSRF token from the service's own origin. A viewer only reads, as everywhere.
   */
  const workspaceOf = Effect.fnUntraced(function*(request: HttpServerRequest.HttpServerRequest) {
    const cookie = request.cookies[Authorization.sessionCookie] ?? ""
    if (request.headers["authorization"] !== undefined || cookie === "") {
      const principal = yield* authenticate(apiKeys, rateLimiter, bearerKey(request))
      yield* viewerReads(principal, "key")
      return principal.workspaceId
    }
    const session = yield* authenticateSession(sessions, rateLimiter, cookie)
    yield* SessionAuth.csrf(publicUrl, session.csrfToken)
    yield* viewerReads(session, "session")
    return session.workspaceId
  })

  /**
   * The simulator's accounts the workspace connected on the network (any status but disconnected): a
   * sandbox account's id is its `networkAccountId`, as every simulator keeps them one.
   */
  const reachable = (workspaceId: string, network: string) =>
    Effect.map(
      connectedIds({ workspaceId, network }),
      (rows) => {
        const ids = new Set(rows.map((row) => row.networkAccountId))
        return (account: { readonly id: string }) => ids.has(account.id)
      }
    ).pipe(Effect.orDie)

  /**
   * The accounts a control call left items for, woken for the next inbox round. What was left is stored
   * whatever happens here: a wake that fails leaves it for the account's turn, and the call's answer stands.
   */
  const wake = (network: string, networkAccountIds: ReadonlyArray<string>) =>
    networkAccountIds.length === 0 ? Effect.void : inbox.wake(network, networkAccountIds).pipe(
      Effect.catchCause((cause) => Effect.logWarning(`Sandbox items for ${network} wait for their accounts' turn`, cause))
    )

  /**
   * The route with the accounts it reaches narrowed by `predicate`; the accounts it left an item for are
   * woken once it has answered, which is after the sandbox's state is saved (the route is served by the
   * store), so a round of any process reads what was left.
   */
  const handle = (network: string, route: HttpRouter.Route<never, never>, predicate: (account: { readonly id: string }) => boolean) =>
    Effect.suspend(() => {
      const received: Array<string> = []
      return route.handler.pipe(
        Effect.provideService(Simulator.Reachable, predicate),
        Effect.provideService(Simulator.Received, (account) => Effect.sync(() => received.push(account.id))),
        Effect.tap(() => wake(network, received))
      )
    })

  const guard = (network: string, route: HttpRouter.Route<never, never>) =>
    HttpRouter.route(
      route.method,
      route.path,
      Effect.flatMap(HttpServerRequest.HttpServerRequest, workspaceOf).pipe(
        Effect.flatMap((workspaceId) => reachable(workspaceId, network)),
        Effect.flatMap((predicate) => handle(network, route, predicate)),
        Effect.catchTags({
          Unauthorized: refusal(401, "unauthorized"),
          Forbidden: refusal(403, "forbidden"),
          RateLimited: refusal(429, "rate_limited")
        })
      ),
      { uninterruptible: route.uninterruptible }
    )

  return (network: string, routes: ReadonlyArray<HttpRouter.Route<never, never>>) =>
    routes.map((route) => isOwn(route) ? guard(network, route) : route)
})
