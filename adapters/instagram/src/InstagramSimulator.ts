import { Simulator, SimulatorPage, SimulatorRules, SimulatorState } from "@herald/adapter-kit"
import { Effect, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { randomBytes } from "node:crypto"
import { apiVersion } from "./InstagramConfig.ts"
import { Edge, graphError, instagramTime, invalid, missing, pick, tokenRefused } from "./internal/graphAnswers.ts"
import { scopes } from "./InstagramAdapter.ts"
import * as InstagramRules from "./InstagramRules.ts"

// Instagram as Herald's sandbox serves it: the Instagram Login token endpoints and the Graph paths the
// adapter calls, with the same shapes, container processing and Graph error bodies; comments and
// conversations over the kit's inbox state, which the control routes fill. Plain code with the wall clock,
// like the kit's state: it stands for a remote system. Media URLs are checked for form, not fetched.

const network = "instagram"
const graph = (path: string): `/${string}` => `/${apiVersion}/${path}`

type ContainerKind = InstagramRules.MediaType

interface Container {
  readonly id: string
  readonly accountId: string
  readonly kind: ContainerKind
  readonly caption: string
  readonly mediaUrls: ReadonlyArray<string>
  readonly carouselItem: boolean
  /** Each photo's `alt_text` (null without), in order; a carousel gathers its children's. */
  readonly altTexts: ReadonlyArray<string | null>
  readonly createdAt: number
  /** Status reads left before processing ends: Instagram needs a moment, and longer for videos. */
  checksLeft: number
  status: "IN_PROGRESS" | "FINISHED" | "PUBLISHED"
}

const containerLifetimeMillis = 24 * 60 * 60 * 1000
/** A business may answer a person only within 24 hours of their last message. */
const messagingWindowMillis = 24 * 60 * 60 * 1000
/** Instagram gives a conversation's 20 most recent messages, no more. */
const messagesPerConversation = 20

/** What the simulator keeps of a Send API body its rules accepted: `{ recipient: { id }, message: { text? } }`. */
const SendBody = Schema.Struct({
  recipient: Schema.Struct({ id: Schema.String }),
  message: Schema.Struct({ text: Schema.optionalKey(Schema.String) })
})
/** Graph's answer to the first rule of `call` the request breaks (InstagramRules); undefined when it keeps all. */
const broken = <Input>(call: InstagramRules.GraphCall<Input>, input: Input) => {
  const refused = SimulatorRules.refusal(call, input)
  return refused === undefined ? undefined : graphError(400, { message: refused.message, code: 100, ...refused.rule.error })
}
/** Accounts whose username has this refuse the webhook subscription, so tests can see the adapter go on without it. */
const refusesSubscription = (username: string) => username.includes("nosub")

/** Long-lived tokens last 60 days in Instagram; the sandbox keeps the state's own lifetime. */
const secondsLeft = (grant: SimulatorState.Grant) => Math.max(0, Math.round((grant.expiresAt - Date.now()) / 1000))

export const simulator: Simulator.Make = ({ baseUrl }) => {
  const state = Simulator.makeState(network)
  const containers = state.table<Container>("containers", { mutable: true })
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
  const params = Effect.zipWith(Simulator.query, Simulator.formOrJson, (query, form) => ({ ...query, ...form }))
  const authenticated = Effect.map(Simulator.accessToken, (token) => state.check(token))
  const pathId = Effect.map(HttpRouter.params, (path) => path["id"] ?? "")

  const commentsOf = (accountId: string) => state.commentsAfter(accountId, 0)

  const mediaNode = (post: SimulatorState.SimulatedPost) => ({
    id: post.id,
    caption: post.text,
    permalink: post.url,
    media_type: post.details["media_type"],
    media_product_type: post.details["media_product_type"],
    timestamp: instagramTime(post.createdAt),
    comments_count: commentsOf(post.accountId).filter((comment) => comment.postId === post.id).length
  })

  /** An IG Comment; a top-level one lists its replies as an edge, a reply names its parent. */
  const commentNode = (comment: SimulatorState.SimulatedComment): Record<string, unknown> => ({
    id: comment.id,
    text: comment.text,
    timestamp: instagramTime(Date.parse(comment.createdAt)),
    username: comment.author.username,
    from: { id: comment.author.id, username: comment.author.username },
    media: { id: comment.postId },
    like_count: 0,
    hidden: false,
    ...(comment.replyTo === null
      ? { replies: new Edge(commentsOf(comment.accountId).filter((reply) => reply.replyTo === comment.id).map(commentNode)) }
      : { parent_id: comment.replyTo })
  })

  /** The account's conversations, each with its messages oldest first. */
  const conversationsOf = (accountId: string) => {
    const conversations = new Map<string, Array<SimulatorState.SimulatedMessage>>()
    for (const message of state.messagesAfter(accountId, 0)) {
      conversations.set(message.conversationId, [...(conversations.get(message.conversationId) ?? []), message])
    }
    return conversations
  }

  const conversationNode = (account: SimulatorState.SimulatedAccount, id: string, messages: ReadonlyArray<SimulatorState.SimulatedMessage>) => {
    const self = { id: account.id, username: account.username }
    const person = messages.find((message) => !message.outgoing)?.from
    const counterpart = person === undefined ? undefined : { id: person.id, username: person.username }
    return {
      id,
      updated_time: instagramTime(Date.parse(messages.at(-1)?.createdAt ?? "")),
      participants: { data: counterpart === undefined ? [self] : [self, counterpart] },
      messages: new Edge(messages.slice(-messagesPerConversation).reverse().map((message) => ({
        id: message.id,
        created_time: instagramTime(Date.parse(message.createdAt)),
        from: { id: message.from.id, username: message.from.username },
        to: { data: [message.outgoing ? counterpart : self] },
        message: message.text,
        ...(message.attachments === 0 ? {} : {
          attachments: {
            data: Array.from({ length: message.attachments }, (_, index) => ({
              image_data: { url: `${baseUrl}/attachments/${message.id}/${index}.jpg` }
            }))
          }
        })
      })))
    }
  }

  /** What Instagram answers a sandbox trigger in a caption, reply or message; undefined without one. */
  const triggered = (text: string, accountId: string) => {
    switch (state.trigger(text, accountId)) {
      case "fail":
        return graphError(400, {
          message: "Media upload has failed with error code 2207051",
          code: 9,
          error_subcode: 2207051,
          error_user_title: "Action is blocked",
          error_user_msg: SimulatorState.refusal(text)
        })
      case "flaky":
        return graphError(500, {
          message: "An unexpected error has occurred. Please retry your request later.",
          code: 2,
          is_transient: true
        })
      case "rate-limit":
        return graphError(400, { message: "(#4) Application request limit reached", code: 4, is_transient: true })
      case "revoke":
        return tokenRefused({ _tag: "Revoked" })
    }
    return undefined
  }

  const permalinkFor = (kind: ContainerKind, username: string, id: string) => {
    const shortcode = randomBytes(8).toString("base64url").slice(0, 11)
    if (kind === "STORIES") return `${baseUrl}/stories/${username}/${id}/`
    return kind === "REELS" ? `${baseUrl}/reel/${shortcode}/` : `${baseUrl}/p/${shortcode}/`
  }

  /** Makes a container once the call's rules passed; answers it, or the Graph error Instagram gives. */
  const createContainer = (accountId: string, form: Record<string, string>) => {
    const refused = broken(InstagramRules.media, form)
    if (refused !== undefined) return refused
    const mediaType = InstagramRules.mediaTypeOf(form) ?? "IMAGE"
    const carouselItem = form["is_carousel_item"] === "true"
    const caption = form["caption"] ?? ""
    const altText = form["alt_text"]
    const make = (
      kind: ContainerKind,
      mediaUrls: ReadonlyArray<string>,
      checksLeft: number,
      altTexts: ReadonlyArray<string | null> = [altText ?? null]
    ) => {
      const container: Container = {
        id: state.id(),
        accountId,
        kind,
        caption,
        mediaUrls,
        carouselItem,
        altTexts,
        createdAt: Date.now(),
        checksLeft,
        status: "IN_PROGRESS"
      }
      containers.set(container.id, container)
      return Simulator.json({ id: container.id })
    }
    if (mediaType !== "CAROUSEL") {
      return make(mediaType, [form["video_url"] ?? form["image_url"]!], form["video_url"] === undefined ? 2 : 3)
    }
    const children = InstagramRules.list(form["children"]).map((id) => containers.get(id))
    const usable = children.every((child) =>
      child !== undefined && child.accountId === accountId && child.carouselItem && child.status === "FINISHED"
    )
    if (!usable) return invalid("The carousel needs 2 to 10 finished carousel items of this account.", 2207028)
    return make("CAROUSEL", children.flatMap((child) => child!.mediaUrls), 2, children.flatMap((child) => child!.altTexts))
  }

  /** `media_publish`: where the sandbox triggers answer, since the caption is known by then. */
  const publish = (account: SimulatorState.SimulatedAccount, creationId: string) => {
    const container = containers.get(creationId)
    if (container === undefined || container.accountId !== account.id || container.carouselItem) {
      return missing(creationId, "post")
    }
    if (Date.now() - container.createdAt > containerLifetimeMillis) {
      return graphError(400, { message: "The media container has expired.", code: 100, error_subcode: 2207008 })
    }
    if (container.status !== "FINISHED") {
      return graphError(400, {
        message: container.status === "PUBLISHED" ? "The media has already been published." : "Media ID is not available",
        code: 9007,
        error_subcode: container.status === "PUBLISHED" ? 2207006 : 2207027,
        error_user_msg: "The media is not ready for publishing, please wait for a moment"
      })
    }
    const refused = triggered(container.caption, account.id)
    if (refused !== undefined) return refused
    container.status = "PUBLISHED"
    const id = state.id()
    state.record({
      id,
      accountId: account.id,
      text: container.caption,
      media: container.mediaUrls,
      replyTo: undefined,
      url: permalinkFor(container.kind, account.username, id),
      details: {
        media_type: container.kind === "REELS" ? "VIDEO" : container.kind === "STORIES" ? "STORY" : container.kind === "CAROUSEL" ? "CAROUSEL_ALBUM" : "IMAGE",
        media_product_type: container.kind === "REELS" ? "REELS" : container.kind === "STORIES" ? "STORY" : "FEED",
        container: container.id,
        altTexts: container.altTexts
      }
    })
    return Simulator.json({ id })
  }

  /** A container's status (each read moves processing along), a published media's fields, or a conversation. */
  const node = (account: SimulatorState.SimulatedAccount, id: string, fields: string | undefined) => {
    const container = containers.get(id)
    if (container !== undefined && container.accountId === account.id) {
      if (container.status === "IN_PROGRESS" && --container.checksLeft <= 0) container.status = "FINISHED"
      const expired = container.status !== "PUBLISHED" && Date.now() - container.createdAt > containerLifetimeMillis
      const statusCode = expired ? "EXPIRED" : container.status
      return Simulator.json(pick(fields, {
        id,
        status_code: statusCode,
        status: statusCode === "IN_PROGRESS" ? "In Progress" : statusCode === "FINISHED" ? "Finished" : statusCode === "EXPIRED" ? "Expired" : "Published"
      }))
    }
    const post = state.posts.get(id)
    if (post !== undefined && post.accountId === account.id && post.replyTo === undefined) {
      return Simulator.json(pick(fields, mediaNode(post)))
    }
    const messages = state.conversationAccount(id) === account.id ? conversationsOf(account.id).get(id) : undefined
    return messages === undefined ? missing(id, "get") : Simulator.json(pick(fields, conversationNode(account, id, messages)))
  }

  /** The Send API: a text to the person of one of the account's conversations, within the messaging window. */
  const sendMessage = (account: SimulatorState.SimulatedAccount, body: typeof SendBody.Type) => {
    const incoming = state.messagesAfter(account.id, 0).filter((message) => !message.outgoing && message.from.id === body.recipient.id)
    const last = incoming.at(-1)
    if (last === undefined) return graphError(400, { message: "No matching user found", code: 100, error_subcode: 2018001 })
    if (Date.now() - Date.parse(last.createdAt) > messagingWindowMillis) {
      return graphError(400, { message: "This message is sent outside of allowed window.", code: 10, error_subcode: 2018278 })
    }
    const text = body.message.text ?? ""
    const refused = triggered(text, account.id)
    if (refused !== undefined) return refused
    const sent = state.addMessage({
      accountId: account.id,
      from: { username: account.username },
      text,
      conversationId: last.conversationId,
      outgoing: true
    })
    return Simulator.json({ recipient_id: body.recipient.id, message_id: sent.id })
  }

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
      HttpRouter.route("POST", graph(":id/comments"), Effect.gen(function*() {
        const check = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        const mediaId = yield* pathId
        const form = yield* params
        const message = form["message"] ?? ""
        const media = state.posts.get(mediaId)
        if (media === undefined || media.replyTo !== undefined) return missing(mediaId, "post")
        if (media.details["media_product_type"] === "STORY") return invalid("Stories cannot be commented on.")
        const refused = broken(InstagramRules.comments, form)
        if (refused !== undefined) return refused
        const comment = state.addComment({ accountId: check.account.id, author: { username: check.account.username }, text: message, postId: mediaId })
        return Simulator.json({ id: comment.id })
      })),
      // Top-level comments only, newest first; replies come through the `replies` edge.
      HttpRouter.route("GET", graph(":id/comments"), Effect.gen(function*() {
        const check = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        const mediaId = yield* pathId
        const query = yield* Simulator.query
        const media = state.posts.get(mediaId)
        if (media === undefined || media.accountId !== check.account.id || media.replyTo !== undefined) return missing(mediaId, "get")
        const limit = Math.min(100, Number(query["limit"] ?? 25) || 25)
        const comments = commentsOf(check.account.id)
          .filter((comment) => comment.postId === mediaId && comment.replyTo === null)
          .reverse()
          .slice(0, limit)
        return Simulator.json({ data: comments.map((comment) => pick(query["fields"], commentNode(comment))), paging: { cursors: {} } })
      })),
      // A reply to a reply is filed under the top-level comment, as Instagram does.
      HttpRouter.route("POST", graph(":id/replies"), Effect.gen(function*() {
        const check = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        const commentId = yield* pathId
        const form = yield* params
        const message = form["message"] ?? ""
        const comment = state.comments.get(commentId)
        if (comment === undefined || comment.accountId !== check.account.id) return missing(commentId, "post")
        const refused = broken(InstagramRules.replies, form) ?? triggered(message, check.account.id)
        if (refused !== undefined) return refused
        const reply = state.addComment({
          accountId: check.account.id,
          author: { username: check.account.username },
          text: message,
          postId: comment.postId,
          replyTo: comment.replyTo ?? comment.id
        })
        return Simulator.json({ id: reply.id })
      })),
      HttpRouter.route("POST", graph(":id/messages"), Effect.gen(function*() {
        const check = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        const id = yield* pathId
        if (id !== check.account.id && id !== "me") return missing(id, "post")
        const request = yield* HttpServerRequest.HttpServerRequest
        const json = yield* Effect.orElseSucceed(request.json, () => null)
        const body = Schema.decodeUnknownOption(SendBody)(json)
        return broken(InstagramRules.messages, json) ??
          (Option.isNone(body) ? invalid("The parameters recipient and message are required.") : sendMessage(check.account, body.value))
      })),
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
