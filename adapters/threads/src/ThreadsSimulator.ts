import { Simulator, type SimulatorState } from "@herald/adapter-kit"
import { Effect } from "effect"
import { HttpRouter, type HttpServerRequest, type HttpServerResponse } from "effect/http"

/**
 * The Threads API as Herald's sandbox serves it, under the simulator's root: consent at `/oauth/authorize`,
 * tokens at `/oauth/access_token`, `/access_token` and `/refresh_access_token`, and the Graph calls under
 * `/v1.0` with Threads' shapes, containers that go IN_PROGRESS -> FINISHED -> PUBLISHED, and Graph errors
 * (https://developers.facebook.com/documentation/threads/posts).
 */

const network = "threads"
const shortLivedMillis = 60 * 60 * 1000
const longLivedMillis = 60 * 24 * 60 * 60 * 1000

const graphError = (
  status: number,
  message: string,
  code: number,
  extra: { readonly error_subcode?: number; readonly is_transient?: boolean; readonly error_user_msg?: string } = {}
) => Simulator.json({ error: { message, type: "OAuthException", code, ...extra, fbtrace_id: "AsandboxTrace" } }, status)

const invalidParameter = (message: string) => graphError(400, message, 100)
const expired = () =>
  graphError(400, "Error validating access token: Session has expired.", 190, { error_subcode: 463 })
const revoked = () =>
  graphError(400, "Error validating access token: The user has not authorized application.", 190, { error_subcode: 458 })
const unknownToken = () => graphError(400, "Invalid OAuth access token - Cannot parse access token", 190)
const restricted = () =>
  graphError(400, "Action is restricted", 100, {
    error_subcode: 2207051,
    error_user_msg: "This post goes against our Community Standards, so it could not be shared."
  })
const unavailable = () =>
  graphError(503, "An unexpected error has occurred. Please retry your request later.", 2, { is_transient: true })

interface Container {
  readonly id: string
  readonly accountId: string
  readonly mediaType: "TEXT" | "IMAGE" | "VIDEO" | "CAROUSEL"
  readonly text: string
  readonly media: ReadonlyArray<string>
  readonly carouselItem: boolean
  readonly replyTo: string | undefined
  status: "IN_PROGRESS" | "FINISHED" | "PUBLISHED"
  /** Status reads left before the container is ready, as Threads fetches and transcodes media. */
  readsLeft: number
}

const mediaTypes = new Set(["TEXT", "IMAGE", "VIDEO", "CAROUSEL"])
const isUrl = (value: string | undefined) => value !== undefined && /^https?:\/\//.test(value)
const links = (text: string) => new Set(text.match(/https?:\/\/\S+/g) ?? []).size

export const simulator: Simulator.Make = ({ baseUrl }) => {
  const state = Simulator.makeState(network)
  // Long-lived tokens are the default grant; the short-lived ones are cut short when issued.
  state.accessTokenMillis = longLivedMillis
  const containers = new Map<string, Container>()
  /** Threads refreshes a long-lived token with itself: whose token it is, even once it has expired. */
  const accountOf = new Map<string, string>()

  const issue = (grant: SimulatorState.Grant) => {
    accountOf.set(grant.accessToken, grant.accountId)
    return grant
  }

  const refuse = (check: SimulatorState.TokenCheck) =>
    check._tag === "Expired" ? expired() : check._tag === "Revoked" ? revoked() : unknownToken()

  const authenticated = <R>(
    handle: (account: SimulatorState.SimulatedAccount) => Effect.Effect<HttpServerResponse.HttpServerResponse, never, R>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R | HttpServerRequest.HttpServerRequest> =>
    Effect.flatMap(Simulator.accessToken, (token) => {
      const check = state.check(token)
      return check._tag === "Valid" ? handle(check.account) : Effect.succeed(refuse(check))
    })

  /** Only the requested fields, as the Graph API answers. */
  const pick = (object: Record<string, unknown>, fields: string | undefined) =>
    fields === undefined
      ? { id: object["id"] }
      : Object.fromEntries(fields.split(",").flatMap((field) => (field in object ? [[field, object[field]]] : [])))

  const shortcode = (id: string) => Buffer.from(id).toString("base64url").slice(-11)

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
      const mediaType = form["media_type"] ?? ""
      const text = form["text"] ?? ""
      if (!mediaTypes.has(mediaType)) return invalidParameter("Param media_type must be one of {TEXT, IMAGE, VIDEO, CAROUSEL}")
      if (Array.from(text).length > 500) return invalidParameter("Param text must be at most 500 characters long.")
      if (links(text) > 5) {
        return graphError(400, "The post has too many links.", 100, { error_user_msg: "THREADS_API__LINK_LIMIT_EXCEEDED" })
      }
      if (mediaType === "TEXT" && text.trim() === "") return invalidParameter("Param text is required for TEXT posts.")
      if (mediaType === "IMAGE" && !isUrl(form["image_url"])) return invalidParameter("Param image_url must be a URL.")
      if (mediaType === "VIDEO" && !isUrl(form["video_url"])) return invalidParameter("Param video_url must be a URL.")
      const replyTo = form["reply_to_id"]
      if (replyTo !== undefined && !state.posts.has(replyTo)) {
        return invalidParameter(`The reply_to_id '${replyTo}' is not a post you can reply to.`)
      }
      let media: ReadonlyArray<string> = [form["image_url"] ?? form["video_url"] ?? ""].filter((url) => url !== "")
      if (mediaType === "CAROUSEL") {
        const items = (form["children"] ?? "").split(",").map((id) => containers.get(id))
        if (items.length < 2 || items.length > 20) return invalidParameter("A carousel takes 2 to 20 items.")
        if (items.some((item) => item === undefined || !item.carouselItem || item.status !== "FINISHED")) {
          return invalidParameter("Every carousel item must be a FINISHED carousel item container.")
        }
        media = items.flatMap((item) => item?.media ?? [])
      }
      switch (text === "" ? undefined : state.trigger(text, account.id)) {
        case "fail":
          return restricted()
        case "flaky":
          return unavailable()
        case "revoke":
          return revoked()
      }
      const readsLeft = mediaType === "VIDEO" ? 2 : mediaType === "IMAGE" ? 1 : 0
      const container: Container = {
        id: state.id(),
        accountId: account.id,
        mediaType: mediaType as Container["mediaType"],
        text,
        media,
        carouselItem: form["is_carousel_item"] === "true",
        replyTo,
        status: readsLeft === 0 ? "FINISHED" : "IN_PROGRESS",
        readsLeft
      }
      containers.set(container.id, container)
      return Simulator.json({ id: container.id })
    })
  )

  const publish = authenticated((account) =>
    Effect.gen(function*() {
      const form = { ...(yield* Simulator.query), ...(yield* Simulator.formOrJson) }
      const container = containers.get(form["creation_id"] ?? "")
      if (container === undefined || container.accountId !== account.id || container.carouselItem) {
        return graphError(400, "The requested resource does not exist", 24, { error_subcode: 4279009 })
      }
      if (container.status !== "FINISHED") {
        return graphError(400, "The media is not ready to be published. Please wait a moment.", 9007, {
          error_subcode: 2207027
        })
      }
      container.status = "PUBLISHED"
      const id = state.id()
      state.record({
        id,
        accountId: account.id,
        text: container.text,
        media: container.media,
        replyTo: container.replyTo,
        url: `${baseUrl}/@${account.username}/post/${shortcode(id)}`,
        details: { mediaType: container.mediaType, containerId: container.id }
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
        if (container.status === "IN_PROGRESS" && --container.readsLeft <= 0) container.status = "FINISHED"
        return Simulator.json(pick({ id: container.id, status: container.status }, fields))
      }
      const post = state.posts.get(id ?? "")
      if (post === undefined || post.accountId !== account.id) {
        return graphError(400, `Unsupported get request. Object with ID '${id}' does not exist.`, 100, { error_subcode: 33 })
      }
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
      HttpRouter.route("GET", "/v1.0/:id", lookup)
    ]
  }
}
