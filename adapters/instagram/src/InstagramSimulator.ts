import { Simulator, SimulatorPage, type SimulatorState } from "@herald/adapter-kit"
import { Effect } from "effect"
import { HttpRouter } from "effect/http"
import { graphError, invalid, missing, pick, tokenRefused } from "./internal/graphAnswers.ts"
import * as Containers from "./internal/simulatorContainers.ts"
import * as Inbox from "./internal/simulatorInbox.ts"
import * as Nodes from "./internal/simulatorNodes.ts"
import { broken, graph, params, pathId, refusesSubscription, secondsLeft } from "./internal/simulatorNodes.ts"
import { scopes } from "./InstagramAdapter.ts"
import * as InstagramRules from "./InstagramRules.ts"

// Instagram as Herald's sandbox serves it: the Instagram Login token endpoints and the Graph paths the
// adapter calls, with the same shapes, container processing and Graph error bodies; comments and
// conversations over the kit's inbox state, which the control routes fill. Plain code with the wall clock,
// like the kit's state: it stands for a remote system. Media URLs are checked for form, not fetched.

const network = "instagram"

export const simulator: Simulator.Make = ({ baseUrl }) => {
  const state = Simulator.makeState(network)
  // Instagram Login has no refresh tokens (a long-lived token refreshes itself and stays good until it
  // expires); the kit's state does, so each token remembers its grant's, which is never spent.
  const refreshTokenOf = state.table<string>("refreshTokenOf")
  const shortLived = state.table<true>("shortLived")
  // `POST /me/subscribed_apps`: the webhook fields each account (by id) has turned on for the app.
  const subscriptions = state.table<ReadonlyArray<string>>("subscriptions")
  const remember = (grant: SimulatorState.Grant) => {
    refreshTokenOf.set(grant.accessToken, grant.refreshToken)
    return grant
  }

  const nodes = Nodes.make(state, baseUrl)
  const { authenticated, conversationNode, conversationsOf, mediaNode } = nodes
  const { createContainer, node, publish } = Containers.make(state, baseUrl, nodes)

  return {
    network,
    state,
    routes: [
      HttpRouter.route("GET", "/oauth/authorize", Simulator.authorize(state)),
      HttpRouter.route("POST", "/oauth/access_token", Effect.map(Simulator.formOrJson, (form) => {
        const grant = form["client_secret"] === undefined || form["grant_type"] !== "authorization_code"
          ? undefined
          : Simulator.redeem(state, { code: form["code"], redirectUri: form["redirect_uri"] })
        if (grant === undefined) {
          return Simulator.json({ error_type: "OAuthException", code: 400, error_message: "Invalid authorization code" }, 400)
        }
        shortLived.set(remember(grant).accessToken, true)
        return Simulator.json({
          data: [{ access_token: grant.accessToken, user_id: grant.accountId, permissions: scopes.join(",") }]
        })
      })),
      HttpRouter.route("GET", "/access_token", Effect.map(Effect.zip(Simulator.query, authenticated), ([query, check]) => {
        if (query["grant_type"] !== "ig_exchange_token" || query["client_secret"] === undefined) {
          return invalid("Unsupported grant_type or missing client_secret")
        }
        if (check._tag !== "Valid") return tokenRefused(check)
        if (!shortLived.has(check.grant.accessToken)) return invalid("The access token is already long-lived.")
        const grant = state.refresh(refreshTokenOf.get(check.grant.accessToken) ?? "", { reuse: true })
        if (grant === undefined) return tokenRefused({ _tag: "Revoked" })
        remember(grant)
        return Simulator.json({ access_token: grant.accessToken, token_type: "bearer", expires_in: secondsLeft(grant) })
      })),
      // Instagram refuses to refresh an expired token; the sandbox allows it so that a test can expire a
      // token and refresh it without waiting a day, as the conformance suite does.
      HttpRouter.route("GET", "/refresh_access_token", Effect.map(Effect.zip(Simulator.query, Simulator.accessToken), ([query, token]) => {
        if (query["grant_type"] !== "ig_refresh_token") return invalid("Unsupported grant_type")
        const refreshToken = token === undefined ? undefined : refreshTokenOf.get(token)
        if (token === undefined || refreshToken === undefined) return tokenRefused({ _tag: "Unknown" })
        if (shortLived.has(token)) return invalid("Short-lived tokens cannot be refreshed; exchange them first.")
        const grant = state.refresh(refreshToken, { reuse: true })
        if (grant === undefined) return tokenRefused({ _tag: "Revoked" })
        remember(grant)
        return Simulator.json({ access_token: grant.accessToken, token_type: "bearer", expires_in: secondsLeft(grant) })
      })),
      HttpRouter.route("GET", graph("me"), Effect.gen(function*() {
        const check = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        const query = yield* Simulator.query
        const { account } = check
        return Simulator.json(pick(query["fields"], {
          id: account.id,
          user_id: account.id,
          username: account.username,
          name: account.displayName,
          account_type: "BUSINESS"
        }))
      })),
      HttpRouter.route("GET", graph("me/media"), Effect.gen(function*() {
        const check = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        const query = yield* Simulator.query
        const limit = Math.min(100, Number(query["limit"] ?? 25) || 25)
        const media = state.postsOf(check.account.id)
          .filter((post) => post.replyTo === undefined && post.details["media_product_type"] !== "STORY")
          .slice(0, limit)
        return Simulator.json({ data: media.map((post) => pick(query["fields"], mediaNode(post))), paging: { cursors: {} } })
      })),
      HttpRouter.route("GET", graph("me/conversations"), Effect.gen(function*() {
        const check = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        const query = yield* Simulator.query
        const limit = Math.min(100, Number(query["limit"] ?? 25) || 25)
        const conversations = [...conversationsOf(check.account.id)]
          .map(([id, messages]) => conversationNode(check.account, id, messages))
          .sort((left, right) => right.updated_time.localeCompare(left.updated_time))
          .slice(0, limit)
        return Simulator.json({ data: conversations.map((conversation) => pick(query["fields"], conversation)), paging: { cursors: {} } })
      })),
      HttpRouter.route("GET", graph(":id"), Effect.gen(function*() {
        const check = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        const query = yield* Simulator.query
        return node(check.account, yield* pathId, query["fields"])
      })),
      HttpRouter.route("POST", graph(":id/media"), Effect.gen(function*() {
        const check = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        const id = yield* pathId
        if (id !== check.account.id) return missing(id, "post")
        return createContainer(check.account.id, yield* params)
      })),
      HttpRouter.route("POST", graph(":id/media_publish"), Effect.gen(function*() {
        const check = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        const id = yield* pathId
        if (id !== check.account.id) return missing(id, "post")
        const form = yield* params
        return broken(InstagramRules.mediaPublish, form) ?? publish(check.account, form["creation_id"]!)
      })),
      ...Inbox.routes(state, nodes),
      // Step 3 of https://developers.facebook.com/docs/instagram-platform/webhooks: the account turns on the
      // app's notifications of these fields. A new call replaces the fields, as Instagram does.
      HttpRouter.route("POST", graph(":id/subscribed_apps"), Effect.gen(function*() {
        const check = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        const id = yield* pathId
        if (id !== check.account.id && id !== "me") return missing(id, "post")
        const form = yield* params
        const refused = broken(InstagramRules.subscribedApps, form)
        if (refused !== undefined) return refused
        const fields = InstagramRules.list(form["subscribed_fields"])
        if (refusesSubscription(check.account.username)) {
          return graphError(403, { message: "(#200) The account has not allowed this app to subscribe to its webhooks.", code: 200 })
        }
        subscriptions.set(check.account.id, [...new Set(fields)])
        return Simulator.json({ success: true })
      })),
      HttpRouter.route("GET", graph(":id/subscribed_apps"), Effect.gen(function*() {
        const check = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        const id = yield* pathId
        if (id !== check.account.id && id !== "me") return missing(id, "get")
        const fields = subscriptions.get(check.account.id)
        return Simulator.json({ data: fields === undefined ? [] : [{ subscribed_fields: fields }] })
      })),
      // The permalinks media were given (`/p/{shortcode}/`, `/reel/{shortcode}/`, `/stories/{username}/{id}/`).
      ...SimulatorPage.routes(["/p/:shortcode", "/reel/:shortcode", "/stories/:username/:id"], {
        network: "Instagram",
        state,
        baseUrl,
        page: (post) => SimulatorPage.ofPost(state, post, { network: "Instagram", handle: (username) => username })
      }),
      // Instagram reads comments only on media: one left on an account without media would never be read.
      ...Simulator.controlRoutes(state, { commentsNeedPost: true })
    ]
  }
}
