import { type Adapter, Simulator, SimulatorPage, SimulatorRules, SimulatorState } from "@herald/adapter-kit"
import { Effect, Option, Result, Schema } from "effect"
import { Base64 } from "effect/encoding"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import * as AppendRequest from "./internal/appendRequest.ts"
import { isNewer } from "./internal/inbox.ts"
import { scopes } from "./XClient.ts"
import * as XRules from "./XRules.ts"

/**
 * X's API v2 as Herald's sandbox serves it, under the simulator's root: the consent screen at
 * `/i/oauth2/authorize`, the token endpoint at `/2/oauth2/token`, and `/2/users/me`, `/2/tweets`,
 * `/2/media/upload[...]`, `/2/users/{id}/tweets` with X's shapes, problem bodies and async video processing
 * (https://docs.x.com/x-api, https://docs.x.com/x-api/media/quickstart/media-upload-chunked). The inbox:
 * `/2/users/{id}/mentions` and `/2/users/{id}/tweets` serve the state's comments as replies, `/2/dm_events`
 * and `/2/dm_conversations/{id}/messages` its messages, and `POST /2/tweets` answering a comment stores a
 * comment; the kit's control routes bring people's comments and messages in.
 */

const network = "x"

const problem = (status: number, title: string, detail: string, kind = "about:blank") =>
  Simulator.json({
    title,
    detail,
    type: kind === "about:blank" ? kind : `https://api.x.com/2/problems/${kind}`,
    status
  }, status)

/** X answers 401 alike for unknown, expired and revoked tokens. */
const unauthorized = () => problem(401, "Unauthorized", "Unauthorized")
const duplicate = () => problem(403, "Forbidden", "You are not allowed to create a Tweet with duplicate content.")
const unavailable = () => problem(503, "Service Unavailable", "Service Unavailable")
const invalid = (detail: string) => problem(400, "Invalid Request", detail, "invalid-request")

/**
 * The request's first broken rule of `call` (XRules) as X answers it: an invalid-request problem, or 403
 * for text over X's weighted length; undefined when it keeps them all.
 */
const refused = <Input>(call: SimulatorRules.Call<Input>, input: Input) => {
  const broken = SimulatorRules.refusal(call, input)
  if (broken === undefined) return undefined
  return broken.rule === XRules.tooLong ? problem(403, "Forbidden", broken.message) : invalid(broken.message)
}

const TweetRequest = Schema.Struct({
  text: Schema.optional(Schema.String),
  media: Schema.optional(Schema.Struct({ media_ids: Schema.Array(Schema.String) })),
  reply: Schema.optional(Schema.Struct({ in_reply_to_tweet_id: Schema.String }))
})
const UploadRequest = Schema.Struct({ media: Schema.String, media_category: Schema.String })
const MetadataRequest = Schema.Struct({
  id: Schema.String,
  metadata: Schema.optional(Schema.Struct({ alt_text: Schema.optional(Schema.Struct({ text: Schema.String })) }))
})
const InitializeRequest = Schema.Struct({
  media_type: Schema.optional(Schema.String),
  total_bytes: Schema.optional(Schema.Number),
  media_category: Schema.optional(Schema.String)
})
const MessageRequest = Schema.Struct({ text: Schema.optional(Schema.String) })

/** A post or an event as X lists it, with the person X would expand for it. */
interface Listed {
  readonly id: string
  readonly wire: Readonly<Record<string, unknown>>
  readonly user: Adapter.Person
}

/** Only the fields asked for (`tweet.fields`, `dm_event.fields`) besides the defaults, as X answers. */
const fieldsOf = (wire: Readonly<Record<string, unknown>>, defaults: ReadonlyArray<string>, asked: string | undefined) => {
  const wanted = new Set([...defaults, ...(asked?.split(",") ?? [])])
  return Object.fromEntries(Object.entries(wire).filter(([key, value]) => wanted.has(key) && value !== undefined))
}

/**
 * A newest-first listing as X pages it: newer than `since_id`, `max_results` a page (10 unless asked, between
 * `min` and 100), `next_token` to the next older page; the expanded people in `includes.users`.
 */
const listing = (
  items: ReadonlyArray<Listed>,
  query: Readonly<Record<string, string>>,
  options: { readonly min: number; readonly fields: string; readonly defaults: ReadonlyArray<string>; readonly expansion: string }
) => {
  const size = Number(query["max_results"] ?? 10)
  if (!Number.isInteger(size) || size < options.min || size > 100) {
    return invalid(`The \`max_results\` query parameter value [${query["max_results"]}] is not between ${options.min} and 100`)
  }
  const since = query["since_id"]
  const newer = since === undefined ? items : items.filter((item) => isNewer(item.id, since))
  const token = query["pagination_token"]
  const start = token === undefined ? 0 : newer.findIndex((item) => item.id === token)
  if (start < 0) return invalid("The `pagination_token` query parameter value is not valid")
  const page = newer.slice(start, start + size)
  const next = newer[start + size]
  const meta = {
    result_count: page.length,
    ...(page.length === 0 ? {} : { newest_id: page[0]!.id, oldest_id: page[page.length - 1]!.id }),
    ...(next === undefined ? {} : { next_token: next.id })
  }
  if (page.length === 0) return Simulator.json({ meta })
  const expanded = (query["expansions"] ?? "").split(",").includes(options.expansion)
  // X's users always have a display name.
  const users = [...new Map(page.map(({ user }) => [user.id, { id: user.id, name: user.name ?? user.username, username: user.username }]))
    .values()]
  return Simulator.json({
    data: page.map((item) => fieldsOf(item.wire, options.defaults, query[options.fields])),
    ...(expanded ? { includes: { users } } : {}),
    meta
  })
}

const tweetListing = { min: 5, fields: "tweet.fields", defaults: ["id", "text", "edit_history_tweet_ids"], expansion: "author_id" }
const dmListing = { min: 1, fields: "dm_event.fields", defaults: ["id", "event_type", "text"], expansion: "sender_id" }

const newestFirst = (a: Listed, b: Listed) => a.id === b.id ? 0 : isNewer(a.id, b.id) ? -1 : 1

/** An upload X keeps: bytes received so far and where its processing stands. */
interface Upload {
  readonly id: string
  readonly accountId: string
  readonly mediaType: string
  readonly totalBytes: number
  received: number
  finalized: boolean
  /** `pending` -> `in_progress` -> `succeeded`, one step per status call. */
  state: "pending" | "in_progress" | "succeeded"
  /** Set through `/2/media/metadata`. */
  altText?: string
}

const processingOrder = ["pending", "in_progress", "succeeded"] as const

export const simulator: Simulator.Make = ({ baseUrl }) => {
  const state = Simulator.makeState(network)
  const uploads = state.table<Upload>("uploads", { mutable: true })

  /**
   * The JSON body held to the rules of `call`: X's refusal of the first broken, or the body as `schema`
   * reads it (lenient: the rules said what X refuses).
   */
  const body = <A>(call: SimulatorRules.Call<unknown>, schema: Schema.Codec<A, unknown>) =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      Effect.map(Effect.orElseSucceed(request.json, () => undefined), (json) => {
        const refusal = refused(call, json)
        if (refusal !== undefined) return Result.fail(refusal)
        const decoded = Schema.decodeUnknownOption(schema)(json)
        return Option.isSome(decoded)
          ? Result.succeed(decoded.value)
          : Result.fail(invalid("One or more parameters to your request was invalid."))
      }))

  /** The caller's account, or the 401 X gives for any token that does not work. */
  const authenticated = <R>(
    handle: (account: SimulatorState.SimulatedAccount) => Effect.Effect<HttpServerResponse.HttpServerResponse, never, R>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R | HttpServerRequest.HttpServerRequest> =>
    Effect.flatMap(Simulator.accessToken, (token) => {
      const check = state.check(token)
      return check._tag === "Valid" ? handle(check.account) : Effect.succeed(unauthorized())
    })

  /** The sandbox trigger in a text as X would refuse it (a 403 saying why); undefined when none. */
  const triggered = (text: string, accountId: string) => {
    switch (state.trigger(text, accountId)) {
      case "fail":
        return problem(403, "Forbidden", SimulatorState.refusal(text))
      case "flaky":
        return unavailable()
      case "rate-limit":
        return problem(429, "Too Many Requests", "Too Many Requests").pipe(
          HttpServerResponse.setHeader("x-rate-limit-remaining", "0"),
          HttpServerResponse.setHeader("x-rate-limit-reset", String(Math.ceil((Date.now() + SimulatorState.rateLimitResetMs) / 1000)))
        )
      case "revoke":
        return unauthorized()
    }
    return undefined
  }

  const accountPerson = (id: string): Adapter.Person => {
    const account = state.accounts.get(id)
    return { id, username: account?.username ?? id, name: account?.displayName ?? null }
  }

  /** Who wrote a post or a comment (the parent of a reply). */
  const authorOf = (id: string) => state.posts.get(id)?.accountId ?? state.comments.get(id)?.author.id

  /** The first post of a reply chain: X's `conversation_id`. */
  const conversationOf = (id: string) => {
    let post = state.posts.get(id)
    while (post?.replyTo !== undefined && state.posts.has(post.replyTo)) post = state.posts.get(post.replyTo)
    return post?.id ?? id
  }

  const postListed = (post: SimulatorState.SimulatedPost): Listed => ({
    id: post.id,
    user: accountPerson(post.accountId),
    wire: {
      id: post.id,
      text: post.text,
      edit_history_tweet_ids: [post.id],
      author_id: post.accountId,
      created_at: new Date(post.createdAt).toISOString(),
      conversation_id: conversationOf(post.id),
      in_reply_to_user_id: post.replyTo === undefined ? undefined : authorOf(post.replyTo),
      referenced_tweets: post.replyTo === undefined ? undefined : [{ type: "replied_to", id: post.replyTo }]
    }
  })

  /** A comment is a reply: to the comment it answers, or to the post it is on. */
  const commentListed = (comment: SimulatorState.SimulatedComment): Listed => {
    const parent = comment.replyTo ?? comment.postId
    return {
      id: comment.id,
      user: comment.author,
      wire: {
        id: comment.id,
        text: comment.text,
        edit_history_tweet_ids: [comment.id],
        author_id: comment.author.id,
        created_at: comment.createdAt,
        conversation_id: conversationOf(comment.postId),
        in_reply_to_user_id: authorOf(parent),
        referenced_tweets: [{ type: "replied_to", id: parent }]
      }
    }
  }

  const messageListed = (message: SimulatorState.SimulatedMessage): Listed => ({
    id: message.id,
    user: message.from,
    wire: {
      id: message.id,
      event_type: "MessageCreate",
      text: message.text,
      sender_id: message.from.id,
      dm_conversation_id: message.conversationId,
      created_at: message.createdAt,
      attachments: message.attachments === 0
        ? undefined
        : { media_keys: Array.from({ length: message.attachments }, (_, index) => `3_${message.id}${index}`) }
    }
  })

  const mediaUrl = (upload: Upload) =>
    `${baseUrl}/media/${upload.id}.${upload.mediaType.startsWith("video/") ? "mp4" : "jpg"}`

  const mediaAnswer = (upload: Upload) => ({
    id: upload.id,
    media_key: `${upload.mediaType.startsWith("video/") ? 7 : 3}_${upload.id}`,
    size: upload.totalBytes,
    expires_after_secs: 86_400,
    ...(upload.mediaType.startsWith("video/") && upload.finalized
      ? {
        processing_info: {
          state: upload.state,
          ...(upload.state === "succeeded" ? { progress_percent: 100 } : { check_after_secs: 1, progress_percent: 50 })
        }
      }
      : {})
  })

  const token = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    // A confidential client authenticates with HTTP Basic.
    if (!(request.headers["authorization"] ?? "").toLowerCase().startsWith("basic ")) {
      return Simulator.json({ error: "unauthorized_client", error_description: "Missing valid authorization header" }, 401)
    }
    const form = yield* Simulator.formOrJson
    const grant = form["grant_type"] === "refresh_token"
      ? state.refresh(form["refresh_token"] ?? "")
      : form["grant_type"] === "authorization_code"
      ? Simulator.redeem(state, { code: form["code"], redirectUri: form["redirect_uri"], verifier: form["code_verifier"] })
      : undefined
    if (grant === undefined) {
      return Simulator.json({ error: "invalid_request", error_description: "Value passed for the token was invalid." }, 400)
    }
    return Simulator.json({
      token_type: "bearer",
      expires_in: Math.round(state.accessTokenMillis / 1000),
      access_token: grant.accessToken,
      scope: scopes.join(" "),
      refresh_token: grant.refreshToken
    })
  })

  const createTweet = authenticated((account) =>
    Effect.gen(function*() {
      const read = yield* body(XRules.createPost, TweetRequest)
      if (Result.isFailure(read)) return read.failure
      const tweet = read.success
      const text = tweet.text ?? ""
      const mediaIds = tweet.media?.media_ids ?? []
      const attached = mediaIds.map((id) => uploads.get(id))
      if (attached.some((upload) => upload === undefined || upload.accountId !== account.id)) {
        return invalid("Your media IDs are invalid.")
      }
      if (attached.some((upload) => upload !== undefined && (!upload.finalized || upload.state !== "succeeded"))) {
        return invalid("Your media IDs are invalid.")
      }
      const replyTo = tweet.reply?.in_reply_to_tweet_id
      // A reply to a comment in the account's inbox is a comment by the account.
      const comment = replyTo === undefined ? undefined : state.comments.get(replyTo)
      if (replyTo !== undefined && !state.posts.has(replyTo) && comment?.accountId !== account.id) {
        return problem(403, "Forbidden", "You attempted to reply to a Tweet that is deleted or not visible to you.")
      }
      const trigger = triggered(text, account.id)
      if (trigger !== undefined) return trigger
      if (comment !== undefined) {
        const reply = state.addComment({
          accountId: account.id,
          author: { username: account.username },
          text,
          postId: comment.postId,
          replyTo: comment.id
        })
        return Simulator.json({ data: { id: reply.id, text, edit_history_tweet_ids: [reply.id] } }, 201)
      }
      // X refuses the same text twice from one account.
      if (text !== "" && state.postsWithText(account.id, text).length > 0) return duplicate()
      const id = state.id()
      state.record({
        id,
        accountId: account.id,
        text,
        media: attached.flatMap((upload) => (upload === undefined ? [] : [mediaUrl(upload)])),
        replyTo,
        url: `${baseUrl}/${account.username}/status/${id}`,
        // The alt text each attached photo carries, so tests see what arrived.
        details: { mediaIds, altTexts: attached.map((upload) => upload?.altText ?? null) }
      })
      return Simulator.json({ data: { id, text, edit_history_tweet_ids: [id] } }, 201)
    })
  )

  const upload = authenticated((account) =>
    Effect.gen(function*() {
      const read = yield* body(XRules.uploadMedia, UploadRequest)
      if (Result.isFailure(read)) return read.failure
      const request = read.success
      const bytes = Result.getOrUndefined(Base64.decode(request.media))
      if (bytes === undefined) return invalid("One or more parameters to your request was invalid.")
      const stored: Upload = {
        id: state.id(),
        accountId: account.id,
        // The one-shot upload names no type: X reads it from the bytes, the sandbox from the category.
        mediaType: request.media_category.endsWith("_video") ? "video/mp4" : request.media_category.endsWith("_gif") ? "image/gif" : "image/jpeg",
        totalBytes: bytes.length,
        received: bytes.length,
        finalized: true,
        state: "succeeded"
      }
      uploads.set(stored.id, stored)
      return Simulator.json({ data: mediaAnswer(stored) })
    })
  )

  // https://docs.x.com/x-api/media/create-media-metadata: alt text (XRules.mediaMetadata) on the account's
  // own upload.
  const metadata = authenticated((account) =>
    Effect.gen(function*() {
      const read = yield* body(XRules.mediaMetadata, MetadataRequest)
      if (Result.isFailure(read)) return read.failure
      const request = read.success
      const found = uploads.get(request.id)
      if (found === undefined || found.accountId !== account.id) {
        return invalid("One or more parameters to your request was invalid.")
      }
      const text = request.metadata?.alt_text?.text
      if (text !== undefined) uploads.set(found.id, { ...found, altText: text })
      return Simulator.json({ data: { id: found.id, associated_metadata: { alt_text: { text } } } })
    })
  )

  const initialize = authenticated((account) =>
    Effect.gen(function*() {
      const read = yield* body(XRules.initializeUpload, InitializeRequest)
      if (Result.isFailure(read)) return read.failure
      const request = read.success
      const stored: Upload = {
        id: state.id(),
        accountId: account.id,
        mediaType: request.media_type ?? "video/mp4",
        totalBytes: request.total_bytes ?? 0,
        received: 0,
        finalized: false,
        state: "pending"
      }
      uploads.set(stored.id, stored)
      return Simulator.json({ data: mediaAnswer(stored) })
    })
  )

  /** The caller's own upload named in the path, or X's 400. */
  const ownUpload = <A>(account: SimulatorState.SimulatedAccount, id: string | undefined, handle: (upload: Upload) => A) => {
    const found = id === undefined ? undefined : uploads.get(id)
    return found === undefined || found.accountId !== account.id ? invalid("The media id is not valid.") : handle(found)
  }

  const append = authenticated((account) =>
    Effect.gen(function*() {
      const { id } = yield* HttpRouter.params
      const request = yield* AppendRequest.read
      if (request === undefined) return invalid("One or more parameters to your request was invalid.")
      const refusal = refused(XRules.appendUpload, { ...request, mediaId: id ?? "" })
      if (refusal !== undefined) return refusal
      return ownUpload(account, id, (stored) => {
        if (stored.finalized) return invalid("One or more parameters to your request was invalid.")
        stored.received += request.mediaBytes ?? 0
        return Simulator.json({ data: { expires_at: Math.floor(Date.now() / 1000) + 86_400 } })
      })
    })
  )

  const finalize = authenticated((account) =>
    Effect.map(HttpRouter.params, ({ id }) =>
      refused(XRules.finalizeUpload, id ?? "") ?? ownUpload(account, id, (stored) => {
        if (stored.received !== stored.totalBytes) {
          return invalid(`File size mismatch: received ${stored.received} of ${stored.totalBytes} bytes.`)
        }
        stored.finalized = true
        return Simulator.json({ data: mediaAnswer(stored) })
      }))
  )

  const status = authenticated((account) =>
    Effect.map(Simulator.query, (query) =>
      refused(XRules.uploadStatus, query) ?? ownUpload(account, query["media_id"], (stored) => {
        if (!stored.finalized) return invalid("The media upload is not finalized.")
        // Each look moves processing on by one state, as a real video does over a few seconds.
        stored.state = processingOrder[Math.min(processingOrder.indexOf(stored.state) + 1, processingOrder.length - 1)]!
        return Simulator.json({ data: mediaAnswer(stored) })
      }))
  )

  /** The user's posts, replies included: its published posts and its answers to comments. */
  const timeline = authenticated(() =>
    Effect.gen(function*() {
      const id = (yield* HttpRouter.params)["id"] ?? ""
      const answers = state.commentsAfter(id, 0).filter((comment) => comment.author.id === id)
      const items = [...state.postsOf(id).map(postListed), ...answers.map(commentListed)].sort(newestFirst)
      return listing(items, yield* Simulator.query, tweetListing)
    })
  )

  /** Replies by others on the user's posts and under them: every one mentions the user. */
  const mentions = authenticated(() =>
    Effect.gen(function*() {
      const id = (yield* HttpRouter.params)["id"] ?? ""
      const received = state.commentsAfter(id, 0).filter((comment) => comment.author.id !== id)
      return listing(received.map(commentListed).sort(newestFirst), yield* Simulator.query, tweetListing)
    })
  )

  /** The caller's messages, sent and received, newest first. */
  const dmEvents = authenticated((account) =>
    Effect.gen(function*() {
      const query = yield* Simulator.query
      if (query["event_types"] !== undefined && !query["event_types"].split(",").includes("MessageCreate")) {
        return Simulator.json({ meta: { result_count: 0 } })
      }
      const items = state.messagesAfter(account.id, 0).map(messageListed).sort(newestFirst)
      return listing(items, query, dmListing)
    })
  )

  /**
   * A message in one of the caller's conversations. The sandbox's conversation ids are the state's; X's
   * one-to-one ids read `{smaller_id}-{larger_id}`, which the adapter passes along without reading.
   */
  const sendMessage = authenticated((account) =>
    Effect.gen(function*() {
      const conversationId = (yield* HttpRouter.params)["id"] ?? ""
      const read = yield* body(XRules.sendMessage, MessageRequest)
      if (Result.isFailure(read)) return read.failure
      if (state.conversationAccount(conversationId) !== account.id) {
        return problem(404, "Not Found Error", `Could not find DM conversation: [${conversationId}].`, "resource-not-found")
      }
      const text = read.success.text ?? ""
      const trigger = triggered(text, account.id)
      if (trigger !== undefined) return trigger
      const sent = state.addMessage({
        accountId: account.id,
        from: { username: account.username },
        text,
        conversationId,
        outgoing: true
      })
      return Simulator.json({ data: { dm_conversation_id: conversationId, dm_event_id: sent.id } }, 201)
    })
  )

  const me = authenticated((account) =>
    Effect.succeed(Simulator.json({
      data: {
        id: account.id,
        name: account.displayName,
        username: account.username,
        profile_image_url: `${baseUrl}/profile_images/${account.id}_normal.jpg`
      }
    }))
  )

  return {
    network,
    state,
    routes: [
      // The link each post was given (`https://x.com/{username}/status/{id}`), as a page.
      ...SimulatorPage.routes(["/:username/status/:id"], {
        network: "X",
        state,
        baseUrl,
        page: (post) =>
          SimulatorPage.ofPost(state, post, {
            network: "X",
            parts: SimulatorPage.threadParts(state, post)
          })
      }),
      HttpRouter.route("GET", "/i/oauth2/authorize", Simulator.authorize(state)),
      HttpRouter.route("POST", "/2/oauth2/token", token),
      HttpRouter.route("GET", "/2/users/me", me),
      HttpRouter.route("GET", "/2/users/:id/tweets", timeline),
      HttpRouter.route("GET", "/2/users/:id/mentions", mentions),
      HttpRouter.route("GET", "/2/dm_events", dmEvents),
      HttpRouter.route("POST", "/2/dm_conversations/:id/messages", sendMessage),
      HttpRouter.route("POST", "/2/tweets", createTweet),
      HttpRouter.route("POST", "/2/media/upload", upload),
      HttpRouter.route("GET", "/2/media/upload", status),
      HttpRouter.route("POST", "/2/media/metadata", metadata),
      HttpRouter.route("POST", "/2/media/upload/initialize", initialize),
      HttpRouter.route("POST", "/2/media/upload/:id/append", append),
      HttpRouter.route("POST", "/2/media/upload/:id/finalize", finalize),
      ...Simulator.controlRoutes(state)
    ]
  }
}
