import { Simulator, SimulatorPage } from "@herald/adapter-kit"
import { Effect } from "effect"
import { HttpRouter } from "effect/http"
import { invalid, pick, tokenRefused } from "./internal/graphAnswers.ts"
import * as Inbox from "./internal/simulatorInbox.ts"
import * as Page from "./internal/simulatorPage.ts"
import { graph, pageTasks } from "./internal/simulatorPage.ts"
import * as Publishing from "./internal/simulatorPublishing.ts"

// Facebook Pages as Herald's sandbox serves it: the login dialog, the token exchanges, `me/accounts`
// with Page tokens, the Page publishing paths with the same shapes, video processing and Graph error
// bodies, and the inbox: post comments and replies, Messenger conversations and the Send API, over the
// kit's comments and messages (which the kit's control routes fill), and the app's webhook subscription
// on a Page (`subscribed_apps`). Each sandbox account stands for one Page its owner manages. Plain code
// with the wall clock, like the kit's state: it stands for a remote system. Media URLs are checked for
// form, not fetched.

const network = "facebook"
export { type Subscription, subscriptionOf } from "./internal/simulatorPage.ts"

export const simulator: Simulator.Make = ({ baseUrl }) => {
  const state = Simulator.makeState(network)
  const helpers = Page.make(state, baseUrl)
  const { authenticated, pageTokenOf, tokenAnswer } = helpers

  return {
    network,
    state,
    routes: [
      HttpRouter.route("GET", graph("dialog/oauth"), Simulator.authorize(state)),
      HttpRouter.route("GET", graph("oauth/access_token"), Effect.map(Simulator.query, (query) => {
        if (query["client_id"] === undefined || query["client_secret"] === undefined) {
          return invalid("Missing client_id or client_secret parameter.")
        }
        if (query["grant_type"] === "fb_exchange_token") {
          const check = state.check(query["fb_exchange_token"])
          if (check._tag !== "Valid") return tokenRefused(check)
          return tokenAnswer(state.grant(check.account.id))
        }
        const grant = Simulator.redeem(state, { code: query["code"], redirectUri: query["redirect_uri"] })
        return grant === undefined
          ? invalid("This authorization code has been used or has expired.", 36009)
          : tokenAnswer(grant)
      })),
      HttpRouter.route("GET", graph("me/accounts"), Effect.gen(function*() {
        const { check, isPage } = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        if (isPage) return invalid("(#100) Tried accessing nonexisting field (accounts) on node type (Page)")
        const query = yield* Simulator.query
        const { account } = check
        const page = { id: account.id, name: account.displayName, access_token: pageTokenOf(account.id), category: "Brand", tasks: pageTasks }
        return Simulator.json({ data: [pick(query["fields"], page)], paging: { cursors: {} } })
      })),
      HttpRouter.route("GET", graph("me"), Effect.gen(function*() {
        const { check, isPage } = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        const query = yield* Simulator.query
        const { account } = check
        const node = isPage
          ? { id: account.id, name: account.displayName, username: account.username }
          : { id: `1000${account.id}`, name: account.displayName }
        return Simulator.json(pick(query["fields"], node))
      })),
      ...Publishing.routes(state, baseUrl, helpers),
      ...Inbox.routes(state, helpers),
      // The permalinks posts and videos were given (`/{page-id}/posts/{id}/`, `/{page-id}/videos/{id}/`).
      ...SimulatorPage.routes(["/:pageId/posts/:id", "/:pageId/videos/:id"], {
        network: "Facebook",
        state,
        baseUrl,
        page: (post) => SimulatorPage.ofPost(state, post, { network: "Facebook", handle: (username) => username })
      }),
      ...Simulator.controlRoutes(state)
    ]
  }
}
