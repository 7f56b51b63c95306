import { Simulator, SimulatorPage, type SimulatorState } from "@herald/adapter-kit"
import { Effect } from "effect"
import { HttpRouter } from "effect/http"
import * as Replies from "./internal/simulatorReplies.ts"
import {
  broken,
  type Container,
  graphError,
  invalidParameter,
  pick,
  refuse,
  restricted,
  revoked,
  shortcode,
  unavailable,
  unsupported,
  videoFailure
} from "./internal/simulatorGraph.ts"
import * as ThreadsRules from "./ThreadsRules.ts"

/**
 * The Threads API as Herald's sandbox serves it, under the simulator's root: consent at `/oauth/authorize`,
 * tokens at `/oauth/access_token`, `/access_token` and `/refresh_access_token`, and the Graph calls under
 * `/v1.0` with Threads' shapes, containers that go IN_PROGRESS -> FINISHED -> PUBLISHED, and Graph errors
 * (https://developers.facebook.com/documentation/threads/posts). Replies to the account's posts are the
 * state's comments, read through `GET /v1.0/{media-id}/conversation` and answered with reply containers
 * (https://developers.facebook.com/documentation/threads/retrieve-and-manage-replies/replies-and-conversations);
 * the kit's control routes leave them. Threads has no DMs, so none are served.
 */

const network = "threads"
const shortLivedMillis = 60 * 60 * 1000
const longLivedMillis = 60 * 24 * 60 * 60 * 1000

export const simulator: Simulator.Make = ({ baseUrl }) => {
  const state = Simulator.makeState(network)
  // Long-lived tokens are the default grant; the short-lived ones are cut short when issued.
  state.accessTokenMillis = longLivedMillis
  const containers = state.table<Container>("containers", { mutable: true })
  /** Threads refreshes a long-lived token with itself: whose token it is, even once it has expired. */
  const accountOf = state.table<string>("accountOf")

  const issue = (grant: SimulatorState.Grant) => {
    accountOf.set(grant.accessToken, grant.accountId)
    return grant
  }

  const authenticated = Simulator.authenticated(state, refuse)
  const { conversation, replyWire } = Replies.make({ baseUrl, state })

  const exchangeCode = Effect.map(Simulator.formOrJson, (form) => {
    if (form["client_secret"] === undefined || form["client_id"] === undefined) {
      return invalidParameter("Missing client_id or client_secret")
    }
    const grant = Simulator.redeem(state, { code: form["code"], redirectUri: form["redirect_uri"] })
    if (grant === undefined) {
      return graphError(400, "Error validating verification code. Please make sure your redirect_uri is identical.", 100, {
        error_subcode: 36008
      })
    }
    grant.expiresAt = Date.now() + Math.min(shortLivedMillis, state.accessTokenMillis)
    issue(grant)
    return Simulator.json({ access_token: grant.accessToken, user_id: Number(grant.accountId) })
  })

  const exchangeLongLived = Effect.map(Simulator.query, (query) => {
    if (query["grant_type"] !== "th_exchange_token" || query["client_secret"] === undefined) {
      return invalidParameter("Invalid grant_type or missing client_secret")
    }
    const check = state.check(query["access_token"])
    if (check._tag !== "Valid") return refuse(check)
    const grant = issue(state.grant(check.account.id))
    return Simulator.json({
      access_token: grant.accessToken,
      token_type: "bearer",
      expires_in: Math.round((grant.expiresAt - Date.now()) / 1000)
    })
  })

  const refresh = Effect.map(Simulator.query, (query) => {
    if (query["grant_type"] !== "th_refresh_token") return invalidParameter("Invalid grant_type")
    const token = query["access_token"] ?? ""
    const check = state.check(token)
    // Threads refuses expired tokens; the sandbox lets the ones it issued refresh, so Herald's suite can expire
    // a token and renew it at once.
    const accountId = check._tag === "Valid" ? check.account.id : check._tag === "Expired" ? accountOf.get(token) : undefined
    if (accountId === undefined) return refuse(check)
    const grant = issue(state.grant(accountId))
    return Simulator.json({
      access_token: grant.accessToken,
      token_type: "bearer",
      expires_in: Math.round((grant.expiresAt - Date.now()) / 1000)
    })
  })

  const me = authenticated((account) =>
    Effect.map(Simulator.query, (query) =>
      Simulator.json(pick({
        id: account.id,
        username: account.username,
        name: account.displayName,
        threads_profile_picture_url: `${baseUrl}/profile/${account.id}.jpg`
      }, query["fields"] ?? "id,username"))))

  const createContainer = authenticated((account) =>
    Effect.gen(function*() {
      const { userId } = yield* HttpRouter.params
      if (userId !== account.id && userId !== "me") {
        return graphError(400, `Unsupported post request. Object with ID '${userId}' does not exist.`, 100, { error_subcode: 33 })
      }
      const form = { ...(yield* Simulator.query), ...(yield* Simulator.formOrJson) }
      const refused = broken(ThreadsRules.threads, form)
      if (refused !== undefined) return refused
      const mediaType = ThreadsRules.mediaTypeOf(form) ?? "TEXT"
      const text = form["text"] ?? ""
      const altText = form["alt_text"]
      const replyTo = form["reply_to_id"]
      if (replyTo !== undefined && !state.posts.has(replyTo) && state.comments.get(replyTo)?.accountId !== account.id) {
        return invalidParameter(`The reply_to_id '${replyTo}' is not a post you can reply to.`)
      }
      let media: ReadonlyArray<string> = [form["image_url"] ?? form["video_url"] ?? ""].filter((url) => url !== "")
      let altTexts: ReadonlyArray<string | null> = media.length === 0 ? [] : [altText ?? null]
      if (mediaType === "CAROUSEL") {
        const items = ThreadsRules.list(form["children"]).map((id) => containers.get(id))
        if (items.some((item) => item === undefined || !item.carouselItem || item.status !== "FINISHED")) {
          return invalidParameter("Every carousel item must be a FINISHED carousel item container.")
        }
        media = items.flatMap((item) => item?.media ?? [])
        altTexts = items.flatMap((item) => item?.altTexts ?? [])
      }
      switch (text === "" ? undefined : state.trigger(text, account.id)) {
        case "fail":
          return restricted(text)
        case "flaky":
          return unavailable()
        case "rate-limit":
          return graphError(400, "(#4) Application request limit reached", 4, { is_transient: true })
        case "revoke":
          return revoked()
      }
      const readsLeft = mediaType === "VIDEO" ? 2 : mediaType === "IMAGE" ? 1 : 0
      const failure = mediaType === "VIDEO" ? yield* videoFailure(media[0] ?? "", new URL(baseUrl).origin) : undefined
      const container: Container = {
        id: state.id(),
        accountId: account.id,
        mediaType,
        text,
        media,
        altTexts,
        carouselItem: form["is_carousel_item"] === "true",
        replyTo,
        status: readsLeft === 0 ? "FINISHED" : "IN_PROGRESS",
        readsLeft,
        failure
      }
      containers.set(container.id, container)
      return Simulator.json({ id: container.id })
    })
  )

  const publish = authenticated((account) =>
    Effect.gen(function*() {
      const form = { ...(yield* Simulator.query), ...(yield* Simulator.formOrJson) }
      const refused = broken(ThreadsRules.threadsPublish, form)
      if (refused !== undefined) return refused
      const container = containers.get(form["creation_id"]!)
      if (container === undefined || container.accountId !== account.id || container.carouselItem) {
        return graphError(400, "The requested resource does not exist", 24, { error_subcode: 4279009 })
      }
      if (container.status !== "FINISHED") {
        return graphError(400, "The media is not ready to be published. Please wait a moment.", 9007, {
          error_subcode: 2207027
        })
      }
      container.status = "PUBLISHED"
      // A reply to someone's reply is kept as a comment by the account, so the inbox reads it back.
      const answered = container.replyTo === undefined ? undefined : state.comments.get(container.replyTo)
      if (answered !== undefined) {
        const reply = state.addComment({
          accountId: account.id,
          author: { username: account.username },
          text: container.text,
          postId: answered.postId,
          replyTo: answered.id
        })
        return Simulator.json({ id: reply.id })
      }
      const id = state.id()
      state.record({
        id,
        accountId: account.id,
        text: container.text,
        media: container.media,
        replyTo: container.replyTo,
        url: `${baseUrl}/@${account.username}/post/${shortcode(id)}`,
        details: { mediaType: container.mediaType, containerId: container.id, altTexts: container.altTexts }
      })
      return Simulator.json({ id })
    })
  )

  /** A container (status) or a published post (permalink, text), with the fields asked for. */
  const lookup = authenticated((account) =>
    Effect.gen(function*() {
      const { id } = yield* HttpRouter.params
      const { fields } = yield* Simulator.query
      const container = containers.get(id ?? "")
      if (container !== undefined && container.accountId === account.id) {
        // Each look moves preparation on, as Threads fetches and processes the media meanwhile.
        if (container.status === "IN_PROGRESS" && --container.readsLeft <= 0) {
          container.status = container.failure === undefined ? "FINISHED" : "ERROR"
        }
        const failed = container.status === "ERROR" ? { error_message: container.failure } : {}
        return Simulator.json(pick({ id: container.id, status: container.status, ...failed }, fields))
      }
      const reply = state.comments.get(id ?? "")
      if (reply !== undefined && reply.accountId === account.id) return Simulator.json(pick(replyWire(account, reply), fields))
      const post = state.posts.get(id ?? "")
      if (post === undefined || post.accountId !== account.id) return unsupported(id)
      return Simulator.json(pick({
        id: post.id,
        text: post.text,
        permalink: post.url,
        username: account.username,
        timestamp: new Date(post.createdAt).toISOString()
      }, fields))
    })
  )

  const threads = authenticated((account) =>
    Effect.map(Simulator.query, (query) => {
      const limit = Math.min(Number(query["limit"] ?? 25) || 25, 100)
      const posts = state.postsOf(account.id).filter((post) => post.replyTo === undefined).slice(0, limit)
      return Simulator.json({
        data: posts.map((post) => pick({ id: post.id, text: post.text, permalink: post.url }, query["fields"])),
        paging: { cursors: { before: posts[0]?.id ?? "", after: posts[posts.length - 1]?.id ?? "" } }
      })
    })
  )

  return {
    network,
    state,
    routes: [
      HttpRouter.route("GET", "/oauth/authorize", Simulator.authorize(state)),
      HttpRouter.route("POST", "/oauth/access_token", exchangeCode),
      HttpRouter.route("GET", "/access_token", exchangeLongLived),
      HttpRouter.route("GET", "/refresh_access_token", refresh),
      HttpRouter.route("GET", "/v1.0/me", me),
      HttpRouter.route("GET", "/v1.0/me/threads", threads),
      HttpRouter.route("POST", "/v1.0/:userId/threads", createContainer),
      HttpRouter.route("POST", "/v1.0/:userId/threads_publish", publish),
      HttpRouter.route("GET", "/v1.0/:id/conversation", conversation),
      HttpRouter.route("GET", "/v1.0/:id", lookup),
      // The permalink each post was given (`/@{username}/post/{shortcode}`), a thread whole on its first post's.
      ...SimulatorPage.routes(["/:handle/post/:shortcode"], {
        network: "Threads",
        state,
        baseUrl,
        page: (post) =>
          SimulatorPage.ofPost(state, post, {
            network: "Threads",
            handle: (username) => username,
            parts: SimulatorPage.threadOf(state, post).map(SimulatorPage.partOf)
          })
      }),
      ...Simulator.controlRoutes(state)
    ]
  }
}
