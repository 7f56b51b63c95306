import { Simulator, SimulatorMedia, SimulatorPage, SimulatorRules, SimulatorState } from "@herald/adapter-kit"
import { Effect } from "effect"
import { HttpRouter, type HttpServerRequest, type HttpServerResponse } from "effect/http"
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
/** Threads' refusal of content (subcode 2207051), saying why the sandbox refused it. */
const restricted = (text: string) =>
  graphError(400, "Action is restricted", 100, {
    error_subcode: 2207051,
    error_user_msg: SimulatorState.refusal(text)
  })
const unavailable = () =>
  graphError(503, "An unexpected error has occurred. Please retry your request later.", 2, { is_transient: true })

/** What the wire shape of a reply is made from, for a comment and for a reply the account published. */
interface WireReply {
  readonly id: string
  readonly text: string
  readonly username: string
  readonly ownedByMe: boolean
  readonly permalink: string | null
  /** Epoch milliseconds or ISO 8601. */
  readonly at: number | string
}

interface Container {
  readonly id: string
  readonly accountId: string
  readonly mediaType: ThreadsRules.MediaType
  readonly text: string
  readonly media: ReadonlyArray<string>
  /** Each image's or video's `alt_text` (null without), in order; a carousel gathers its items'. */
  readonly altTexts: ReadonlyArray<string | null>
  readonly carouselItem: boolean
  readonly replyTo: string | undefined
  status: "IN_PROGRESS" | "FINISHED" | "PUBLISHED" | "ERROR"
  /** Status reads left before the container is ready, as Threads fetches and transcodes media. */
  readsLeft: number
  /** Why Threads will not prepare the media, once it has looked (`error_message`); undefined when it will. */
  readonly failure: string | undefined
}

/**
 * The longest video Threads takes: 5 minutes ("Video specifications",
 * https://developers.facebook.com/documentation/threads/posts, read 2026-12-03), stated here apart from the
 * adapter's limits. A longer one ends its container `ERROR` with `INVALID_DURATION`, one of the error
 * messages https://developers.facebook.com/docs/threads/troubleshooting lists.
 */
const maxVideoDurationMs = 5 * 60 * 1000

/**
 * What Threads makes of a video it fetched: undefined when it can prepare it (or cannot tell its length). The
 * sandbox fetches only from its own server's origin (Herald's media): any other address a caller names would
 * make the server fetch it, so its length stays unknown.
 */
const videoFailure = (url: string, origin: string) =>
  !URL.canParse(url) || new URL(url).origin !== origin ? Effect.succeed(undefined) : Effect.map(SimulatorMedia.fetchInspect(url), (video) =>
    video.durationMs !== undefined && video.durationMs > maxVideoDurationMs ? "INVALID_DURATION" : undefined)

/** Graph's answer to the first rule of `call` the request breaks (ThreadsRules); undefined when it keeps all. */
const broken = <Input>(call: ThreadsRules.GraphCall<Input>, input: Input) => {
  const refused = SimulatorRules.refusal(call, input)
  if (refused === undefined) return undefined
  const { code, ...extra } = { code: 100, ...refused.rule.error }
  return graphError(400, refused.message, code, extra)
}

/** Threads' timestamps: ISO 8601 to the second with a `+0000` offset. */
const threadsTime = (at: number | string) => `${new Date(at).toISOString().slice(0, 19)}+0000`

/** Ids are made in order with the same length (`state.id()`): the later one is the newer. */
const newestFirst = (a: { readonly id: string }, b: { readonly id: string }) =>
  b.id.length - a.id.length || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0)

/** Graph paging cursors are opaque; here they are the offset into the listing. */
const pageCursor = (offset: number) => Buffer.from(`offset:${offset}`).toString("base64url")
const pageOffset = (cursor: string | undefined) => {
  const match = /^offset:(\d+)$/.exec(Buffer.from(cursor ?? "", "base64url").toString("utf8"))
  return match === null ? 0 : Number(match[1])
}

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

  const unsupported = (id: string | undefined) =>
    graphError(400, `Unsupported get request. Object with ID '${id}' does not exist.`, 100, { error_subcode: 33 })

  /** What a reply answers: a comment's parent comment or post, a reply post's post. */
  const parentOf = (id: string): string | undefined => {
    const comment = state.comments.get(id)
    return comment !== undefined ? comment.replyTo ?? comment.postId : state.posts.get(id)?.replyTo
  }

  /** The top-level post a reply hangs under, however deep. */
  const rootOf = (id: string): string => {
    let current = id
    for (let parent = parentOf(current); parent !== undefined; parent = parentOf(current)) current = parent
    return current
  }

  /** Whether `id` is a reply somewhere under `mediaId`. */
  const isUnder = (id: string, mediaId: string): boolean => {
    for (let parent = parentOf(id); parent !== undefined; parent = parentOf(parent)) if (parent === mediaId) return true
    return false
  }

  /** A reply in Threads' wire shape (the fields of the replies and conversation edges). */
  const wire = (account: SimulatorState.SimulatedAccount, reply: WireReply): Record<string, unknown> => ({
    id: reply.id,
    text: reply.text,
    username: reply.username,
    ...(reply.permalink === null ? {} : { permalink: reply.permalink }),
    timestamp: threadsTime(reply.at),
    media_product_type: "THREADS",
    media_type: "TEXT_POST",
    shortcode: shortcode(reply.id),
    has_replies: state.commentsAfter(account.id, 0).some((comment) => parentOf(comment.id) === reply.id),
    is_quote_post: false,
    is_reply: true,
    root_post: { id: rootOf(reply.id) },
    replied_to: { id: parentOf(reply.id) },
    is_reply_owned_by_me: reply.ownedByMe,
    hide_status: "NOT_HUSHED"
  })

  const replyWire = (account: SimulatorState.SimulatedAccount, comment: SimulatorState.SimulatedComment) =>
    wire(account, {
      id: comment.id,
      text: comment.text,
      username: comment.author.username,
      ownedByMe: comment.author.id === account.id,
      permalink: comment.permalink,
      at: comment.createdAt
    })

  const replyPostWire = (account: SimulatorState.SimulatedAccount, post: SimulatorState.SimulatedPost) =>
    wire(account, { id: post.id, text: post.text, username: account.username, ownedByMe: true, permalink: post.url, at: post.createdAt })

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

  /**
   * `GET /{media-id}/conversation`: every reply under a post of the account, flattened, newest first unless
   * `reverse=false`, in pages of `limit` (25 by default) with `after` cursors and a `next` link while more remain.
   */
  const conversation = authenticated((account) =>
    Effect.gen(function*() {
      const { id: mediaId = "" } = yield* HttpRouter.params
      const query = yield* Simulator.query
      const post = state.posts.get(mediaId)
      if (post === undefined || post.accountId !== account.id) return unsupported(mediaId)
      const replies = [
        ...state.commentsAfter(account.id, 0).filter((comment) => isUnder(comment.id, mediaId)).map((comment) => ({
          id: comment.id,
          wire: () => replyWire(account, comment)
        })),
        ...state.postsOf(account.id).filter((reply) => isUnder(reply.id, mediaId)).map((reply) => ({
          id: reply.id,
          wire: () => replyPostWire(account, reply)
        }))
      ].sort(newestFirst)
      if (query["reverse"] === "false") replies.reverse()
      const limit = Math.min(Number(query["limit"] ?? 25) || 25, 100)
      const offset = pageOffset(query["after"])
      const page = replies.slice(offset, offset + limit)
      const end = offset + page.length
      const next = new URL(`${baseUrl}/v1.0/${mediaId}/conversation`)
      for (const [key, value] of Object.entries({ ...query, after: pageCursor(end) })) next.searchParams.set(key, value)
      return Simulator.json({
        data: page.map((reply) => pick(reply.wire(), query["fields"])),
        paging: {
          cursors: { before: pageCursor(offset), after: pageCursor(end) },
          ...(end < replies.length ? { next: next.toString() } : {})
        }
      })
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
