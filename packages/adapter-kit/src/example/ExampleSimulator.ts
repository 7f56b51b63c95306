import { Duration, Effect } from "effect"
import { HttpRouter, HttpServerRequest, type HttpServerResponse } from "effect/http"
import { Simulator, SimulatorPage, SimulatorState } from "../index.ts"

// The example network's API as Herald's sandbox serves it (the guide's section 8; a real adapter's
// `src/<Network>Simulator.ts`), with the kit's control routes.

const network = "example"

const error = (code: string, message: string, status: number) => Simulator.json({ error: { code, message } }, status)

/**
 * The network's own rule, as its documentation would state it: written here apart from the adapter's
 * `limits`, so the conformance suite finds out when the two disagree.
 */
const maxTextLength = 100

export const simulator: Simulator.Make = ({ baseUrl }) => {
  const state = Simulator.makeState(network)
  const authenticated = Effect.map(Simulator.accessToken, (token) => state.check(token))
  const refuse = (check: ReturnType<typeof state.check>) =>
    check._tag === "Expired"
      ? error("token_expired", "The access token expired", 401)
      : check._tag === "Revoked"
      ? error("token_revoked", "The grant was revoked", 401)
      : error("invalid_token", "Unknown access token", 401)
  /** A route for the account a valid token is for; any other token is refused as above. */
  const signedIn = <E, R>(
    handle: (account: SimulatorState.SimulatedAccount) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ) =>
    Effect.flatMap(authenticated, (check) =>
      check._tag === "Valid" ? handle(check.account) : Effect.succeed(refuse(check)))
  /** The network's answer to a sandbox trigger in a text; undefined when it carries none. */
  const triggered = (text: string, accountId: string) => {
    switch (state.trigger(text, accountId)) {
      case "fail":
        return error("content_rejected", SimulatorState.refusal(text), 400)
      case "flaky":
        return error("unavailable", "Try again in a moment", 503)
      case "rate-limit":
        return error("rate_limited", "Too many requests", 429)
      case "revoke":
        return error("token_revoked", "The grant was revoked", 401)
    }
    return undefined
  }
  /** Stores the `text` the account sends (a reply, a message) and answers it, refused as a post with it would be. */
  const accept = (accountId: string, store: (text: string) => unknown) =>
    Effect.map(Simulator.formOrJson, (body) => {
      const text = body["text"]
      if (text === undefined || text === "") return error("invalid_request", "text is required", 400)
      return triggered(text, accountId) ?? Simulator.json(store(text), 201)
    })
  return {
    network,
    state,
    routes: [
      HttpRouter.route("GET", "/oauth/authorize", Simulator.authorize(state)),
      HttpRouter.route("POST", "/oauth/token", Effect.map(Simulator.formOrJson, (form) => {
        const grant = form["grant_type"] === "refresh_token"
          ? state.refresh(form["refresh_token"] ?? "")
          : Simulator.redeem(state, { code: form["code"], redirectUri: form["redirect_uri"], verifier: form["code_verifier"] })
        if (grant === undefined) return error("invalid_grant", "The code or refresh token is not valid", 400)
        return Simulator.json({
          access_token: grant.accessToken,
          refresh_token: grant.refreshToken,
          expires_in: Duration.toSeconds(Duration.hours(2))
        })
      })),
      HttpRouter.route("GET", "/me", signedIn((account) =>
        Effect.succeed(Simulator.json({ id: account.id, username: account.username })))),
      HttpRouter.route("POST", "/posts", signedIn((account) =>
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const body = (yield* Effect.orElseSucceed(request.json, () => ({}))) as {
            text?: string
            media?: Array<string>
            visibility?: string
          }
          const text = body.text ?? ""
          const visibility = body.visibility ?? "public"
          if ([...text.normalize("NFC")].length > maxTextLength) {
            return error("text_too_long", `text is over ${maxTextLength} characters`, 400)
          }
          if (visibility !== "public" && visibility !== "followers") {
            return error("invalid_request", "visibility is public or followers", 400)
          }
          const refused = triggered(text, account.id)
          if (refused !== undefined) return refused
          const id = state.id()
          const url = `${baseUrl}/${account.username}/posts/${id}`
          state.record({ id, accountId: account.id, text, media: body.media ?? [], replyTo: undefined, url, details: { visibility } })
          return Simulator.json({ id, url }, 201)
        }))),
      HttpRouter.route("GET", "/posts", signedIn(() =>
        Effect.map(Simulator.query, (query) => {
          const posts = state.postsOf(query["author"] ?? "").map((post) => ({ id: post.id, text: post.text, url: post.url }))
          return Simulator.json({ data: posts })
        }))),
      // `after` is a cursor from an earlier answer; absent, everything is news.
      HttpRouter.route("GET", "/inbox", signedIn((account) =>
        Effect.map(Simulator.query, (query) => {
          // The cursor of now, without any of what is there yet.
          if (query["after"] === "latest") {
            return Simulator.json({ comments: [], messages: [], cursor: String(state.sequence) })
          }
          const after = Number(query["after"] ?? 0)
          if (!Number.isSafeInteger(after) || after < 0) return error("invalid_request", "after is not a cursor", 400)
          const comments = state.commentsAfter(account.id, after)
          const messages = state.messagesAfter(account.id, after)
          // Both lists are in sequence order: their last items are the newest.
          const cursor = Math.max(after, comments.at(-1)?.seq ?? 0, messages.at(-1)?.seq ?? 0)
          return Simulator.json({ comments, messages, cursor: String(cursor) })
        }))),
      HttpRouter.route("POST", "/comments/:id/replies", signedIn((account) =>
        Effect.gen(function*() {
          const comment = state.comments.get((yield* HttpRouter.params)["id"] ?? "")
          if (comment === undefined || comment.accountId !== account.id) {
            return error("not_found", "No such comment", 404)
          }
          return yield* accept(account.id, (text) =>
            state.addComment({
              accountId: account.id,
              author: { username: account.username },
              text,
              postId: comment.postId,
              replyTo: comment.id
            }))
        }))),
      HttpRouter.route("POST", "/conversations/:id/messages", signedIn((account) =>
        Effect.gen(function*() {
          const conversationId = (yield* HttpRouter.params)["id"] ?? ""
          if (state.conversationAccount(conversationId) !== account.id) {
            return error("not_found", "No such conversation", 404)
          }
          return yield* accept(account.id, (text) =>
            state.addMessage({ accountId: account.id, from: { username: account.username }, text, conversationId, outgoing: true }))
        }))),
      // The link each post was given (`/{username}/posts/{id}`), as a page.
      ...SimulatorPage.routes(["/:username/posts/:id"], {
        network: "Example",
        state,
        baseUrl,
        page: (post) => SimulatorPage.ofPost(state, post, { network: "Example" })
      }),
      ...Simulator.controlRoutes(state)
    ]
  }
}
