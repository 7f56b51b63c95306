import { Simulator, SimulatorState } from "@herald/adapter-kit"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import * as Rules from "../MastodonRules.ts"
import { type InstanceSettings, type InstanceState, type makeViews, type StoredMedia } from "./simulatorViews.ts"

/**
 * The simulator's media and status methods (https://docs.joinmastodon.org/methods/statuses/,
 * https://docs.joinmastodon.org/methods/media/, notifications and conversations), over the kit's state: a
 * status is a post, or a comment when it answers someone's comment, or a message when it is a direct one in
 * a conversation.
 */

type Response = HttpServerResponse.HttpServerResponse
type Handler = Effect.Effect<Response, never, HttpServerRequest.HttpServerRequest | HttpRouter.RouteContext>

interface Context {
  readonly state: InstanceState
  readonly baseUrl: string
  readonly views: ReturnType<typeof makeViews>
  readonly instance: () => InstanceSettings
  readonly authenticated: (
    handle: (account: SimulatorState.SimulatedAccount) => Effect.Effect<Response, never, HttpServerRequest.HttpServerRequest | HttpRouter.RouteContext>
  ) => Handler
  readonly error: (status: number, message: string) => Response
}

const extensions: Record<StoredMedia["kind"], string> = { image: "jpg", video: "mp4", audio: "mp3" }

/** A poll as the body gives it (`poll: { options, expires_in }`); undefined when there is none. */
const pollOf = (value: unknown): Rules.Poll | undefined => {
  if (typeof value !== "object" || value === null) return undefined
  const poll = value as { readonly options?: unknown; readonly expires_in?: unknown }
  const expiresIn = poll.expires_in === undefined ? undefined : Number(poll.expires_in)
  return {
    options: Array.isArray(poll.options) ? poll.options.map(String) : undefined,
    expiresIn: expiresIn === undefined || Number.isNaN(expiresIn) ? undefined : expiresIn
  }
}

export const routes = (input: Context): ReadonlyArray<HttpRouter.Route<never, never>> => {
  const { authenticated, baseUrl, error, instance, state, views } = input
  const media = state.table<StoredMedia>("media")
  // `<account> <key>` to the status the key made: Mastodon keeps a key an hour; the sandbox for good.
  const idempotency = state.table<string>("idempotency")
  const notFound = () => error(404, "Record not found")
  const param = (name: string) => Effect.map(HttpRouter.params, (params) => params[name] ?? "")

  const upload = authenticated((account) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const buffer = yield* Effect.orElseSucceed(request.arrayBuffer, () => new ArrayBuffer(0))
      const form = yield* Effect.orElseSucceed(
        Effect.tryPromise(() => new Response(buffer, { headers: { "content-type": request.headers["content-type"] ?? "" } }).formData()),
        () => new FormData()
      )
      const file = form.get("file")
      const description = form.get("description")
      const upload: Rules.Upload = {
        file: file === null || typeof file === "string" ? undefined : { type: file.type, size: file.size },
        description: typeof description === "string" ? description : undefined,
        instance: instance()
      }
      const refused = Rules.refusal(Rules.upload, upload)
      if (refused !== undefined) return error(refused.status, refused.message)
      const kind = Rules.kindOf(upload.file!.type)!
      const id = state.id()
      const stored: StoredMedia = {
        id,
        accountId: account.id,
        kind,
        description: typeof description === "string" && description !== "" ? description : null,
        url: `${baseUrl}/system/media_attachments/${id}.${extensions[kind]}`,
        // Images are processed at once; a video or audio on its first check.
        ready: kind === "image"
      }
      media.set(id, stored)
      return Simulator.json(views.mediaJson(stored), stored.ready ? 200 : 202)
    }))

  const checkMedia = authenticated((account) =>
    Effect.map(param("id"), (id) => {
      const stored = media.get(id)
      if (stored === undefined || stored.accountId !== account.id) return notFound()
      if (stored.ready) return Simulator.json(views.mediaJson(stored))
      media.set(id, { ...stored, ready: true })
      return Simulator.json(views.mediaJson(stored), 206)
    }))

  /** A status by id as the API shows it, wherever the state keeps it. */
  const statusJson = (id: string, account: SimulatorState.SimulatedAccount) => {
    const post = state.posts.get(id)
    if (post !== undefined) return views.ofPost(post, (mediaId) => media.get(mediaId))
    const comment = state.comments.get(id)
    if (comment !== undefined) return views.ofComment(comment)
    const message = state.messagesAfter(account.id, 0).find((entry) => entry.id === id)
    return message === undefined ? undefined : views.ofMessage(message, earlier(account, message).at(-1)?.id ?? null)
  }

  /** The messages of a message's conversation before it, oldest first: its ancestors. */
  const earlier = (account: SimulatorState.SimulatedAccount, message: SimulatorState.SimulatedMessage) =>
    state.messagesAfter(account.id, 0).filter((entry) => entry.conversationId === message.conversationId && entry.seq < message.seq)

  const create = authenticated((account) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const body = (yield* Effect.orElseSucceed(request.json, () => ({}))) as Record<string, unknown>
      const key = request.headers["idempotency-key"]
      const earlier = key === undefined ? undefined : idempotency.get(`${account.id} ${key}`)
      if (earlier !== undefined) return Simulator.json(statusJson(earlier, account))
      const text = typeof body["status"] === "string" ? body["status"] : ""
      const mediaIds = Array.isArray(body["media_ids"]) ? (body["media_ids"] as Array<unknown>).map(String) : []
      const visibility = typeof body["visibility"] === "string" ? body["visibility"] : "public"
      const inReplyTo = typeof body["in_reply_to_id"] === "string" ? body["in_reply_to_id"] : undefined
      const post = inReplyTo === undefined ? undefined : state.posts.get(inReplyTo)
      const comment = inReplyTo === undefined ? undefined : state.comments.get(inReplyTo)
      const message = inReplyTo === undefined ? undefined : state.messagesAfter(account.id, 0).find((entry) => entry.id === inReplyTo)
      const attached = mediaIds.map((id) => {
        const item = media.get(id)
        return item === undefined || item.accountId !== account.id || item.statusId !== undefined ? undefined : item
      })
      const refused = Rules.refusal(Rules.status, {
        text,
        spoilerText: typeof body["spoiler_text"] === "string" ? body["spoiler_text"] : "",
        visibility,
        mediaIds,
        media: attached,
        poll: pollOf(body["poll"]),
        replyFound: inReplyTo === undefined ? undefined : post !== undefined || comment !== undefined || message !== undefined,
        instance: instance()
      })
      if (refused !== undefined) return error(refused.status, refused.message)
      switch (text === "" ? undefined : state.trigger(text, account.id)) {
        case "fail":
          return error(422, `Validation failed: ${SimulatorState.refusal(text)}`)
        case "flaky":
          return error(503, "Service Unavailable")
        case "rate-limit":
          return error(429, "Too many requests").pipe(
            HttpServerResponse.setHeader("x-ratelimit-remaining", "0"),
            HttpServerResponse.setHeader("x-ratelimit-reset", new Date(Date.now() + SimulatorState.rateLimitResetMs).toISOString())
          )
        case "revoke":
          return error(401, "The access token was revoked")
      }
      const made = comment !== undefined
        // An answer to someone's reply is kept as the account's comment, so the post's page shows it.
        ? state.addComment({ accountId: comment.accountId, author: { id: account.id, username: account.username }, text, postId: comment.postId, replyTo: comment.id }).id
        : message !== undefined && visibility === "direct"
        ? state.addMessage({ accountId: account.id, from: { id: account.id, username: account.username }, text, conversationId: message.conversationId, outgoing: true }).id
        : record(account, { text, visibility, inReplyTo, mediaIds, attached: attached.flatMap((item) => item ?? []), body })
      if (key !== undefined) idempotency.set(`${account.id} ${key}`, made)
      return Simulator.json(statusJson(made, account))
    }))

  const record = (
    account: SimulatorState.SimulatedAccount,
    input: {
      readonly text: string
      readonly visibility: string
      readonly inReplyTo: string | undefined
      readonly mediaIds: ReadonlyArray<string>
      readonly attached: ReadonlyArray<StoredMedia>
      readonly body: Record<string, unknown>
    }
  ) => {
    const id = state.id()
    for (const item of input.attached) media.set(item.id, { ...item, statusId: id })
    const spoilerText = typeof input.body["spoiler_text"] === "string" ? input.body["spoiler_text"] : ""
    state.record({
      id,
      accountId: account.id,
      text: input.text,
      media: input.attached.map((item) => item.url),
      replyTo: input.inReplyTo,
      url: `${baseUrl}/@${account.username}/${id}`,
      details: {
        visibility: input.visibility,
        spoilerText,
        sensitive: input.body["sensitive"] === true || spoilerText !== "",
        language: typeof input.body["language"] === "string" ? input.body["language"] : null,
        mediaIds: input.mediaIds,
        descriptions: input.attached.map((item) => item.description)
      }
    })
    return id
  }

  const show = authenticated((account) =>
    Effect.map(param("id"), (id) => {
      const found = statusJson(id, account)
      return found === undefined ? notFound() : Simulator.json(found)
    }))

  /** The statuses under one: replies chained below it, the account's and people's. */
  const context = authenticated((account) =>
    Effect.map(param("id"), (id) => {
      if (statusJson(id, account) === undefined) return notFound()
      const below: Array<string> = []
      const queue = [id]
      while (queue.length > 0) {
        const parent = queue.shift()!
        for (const post of state.posts.values()) {
          if (post.replyTo === parent) {
            below.push(post.id)
            queue.push(post.id)
          }
        }
        for (const comment of state.comments.values()) if ((comment.replyTo ?? comment.postId) === parent) below.push(comment.id)
      }
      const message = state.messagesAfter(account.id, 0).find((entry) => entry.id === id)
      const ancestors = message === undefined ? [] : earlier(account, message).map((entry) => entry.id)
      return Simulator.json({
        ancestors: ancestors.flatMap((above) => statusJson(above, account) ?? []),
        descendants: below.flatMap((child) => statusJson(child, account) ?? [])
      })
    }))

  const accountStatuses = authenticated(() =>
    Effect.gen(function*() {
      const owner = state.accountByLocalId(yield* param("id"))
      if (owner === undefined) return notFound()
      const query = yield* Simulator.query
      const limit = Math.min(40, Math.max(1, Number(query["limit"] ?? 20) || 20))
      return Simulator.json(state.postsOf(owner.id).slice(0, limit).map((post) => views.ofPost(post, (mediaId) => media.get(mediaId))))
    }))

  /** People's replies to the account and other accounts' statuses naming `@username`, newest first, as mentions. */
  const notifications = authenticated((account) =>
    Effect.map(Simulator.query, (query) => {
      const since = query["since_id"] === undefined ? 0 : Number(query["since_id"])
      const replies = state.commentsAfter(account.id, 0)
        .filter((comment) => comment.author.id !== account.id)
        .map((comment) => ({ at: comment.seq, from: comment.author, status: views.ofComment(comment), createdAt: comment.createdAt }))
      const mentioning = [...state.posts.values()]
        .filter((post) => post.accountId !== account.id && new RegExp(`@${account.username}\\b`).test(post.text))
        .map((post) => ({
          at: post.createdAt,
          from: state.person({ username: state.accounts.get(post.accountId)?.username ?? post.accountId }),
          status: views.ofPost(post, (mediaId) => media.get(mediaId)),
          createdAt: new Date(post.createdAt).toISOString()
        }))
      const all = [...replies, ...mentioning].filter((entry) => entry.at > since).sort((a, b) => b.at - a.at).slice(0, 40)
      return Simulator.json(all.map((entry) => ({
        id: String(entry.at),
        type: "mention",
        created_at: entry.createdAt,
        account: views.accountJson(entry.from),
        status: entry.status
      })))
    }))

  /** The account's direct messages by conversation, latest activity first. */
  const conversations = authenticated((account) =>
    Effect.sync(() => {
      const byConversation = new Map<string, Array<SimulatorState.SimulatedMessage>>()
      for (const message of state.messagesAfter(account.id, 0)) {
        byConversation.set(message.conversationId, [...(byConversation.get(message.conversationId) ?? []), message])
      }
      const listed = [...byConversation.entries()].map(([id, messages]) => {
        const last = messages.at(-1)!
        const people = messages.filter((message) => !message.outgoing).map((message) => message.from)
        return { seq: last.seq, json: { id, unread: !last.outgoing, accounts: people.slice(0, 1).map(views.accountJson), last_status: statusJson(last.id, account) } }
      })
      return Simulator.json(listed.sort((a, b) => b.seq - a.seq).slice(0, 40).map((entry) => entry.json))
    }))

  return [
    HttpRouter.route("POST", "/api/v2/media", upload),
    HttpRouter.route("GET", "/api/v1/media/:id", checkMedia),
    HttpRouter.route("POST", "/api/v1/statuses", create),
    HttpRouter.route("GET", "/api/v1/statuses/:id", show),
    HttpRouter.route("GET", "/api/v1/statuses/:id/context", context),
    HttpRouter.route("GET", "/api/v1/accounts/:id/statuses", accountStatuses),
    HttpRouter.route("GET", "/api/v1/notifications", notifications),
    HttpRouter.route("GET", "/api/v1/conversations", conversations)
  ]
}
