import { Simulator, type SimulatorState } from "@herald/adapter-kit"
import { Effect, Option, Result, Schema } from "effect"
import { Base64 } from "effect/encoding"
import { HttpRouter, HttpServerRequest, type HttpServerResponse } from "effect/http"

/**
 * X's API v2 as Herald's sandbox serves it, under the simulator's root: the consent screen at
 * `/i/oauth2/authorize`, the token endpoint at `/2/oauth2/token`, and `/2/users/me`, `/2/tweets`,
 * `/2/media/upload[...]`, `/2/users/{id}/tweets` with X's shapes, problem bodies and async video processing
 * (https://docs.x.com/x-api, https://docs.x.com/x-api/media/quickstart/media-upload-chunked).
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

const TweetRequest = Schema.Struct({
  text: Schema.optional(Schema.String),
  media: Schema.optional(Schema.Struct({ media_ids: Schema.Array(Schema.String) })),
  reply: Schema.optional(Schema.Struct({ in_reply_to_tweet_id: Schema.String }))
})
const UploadRequest = Schema.Struct({
  media: Schema.String,
  media_type: Schema.optional(Schema.String),
  media_category: Schema.optional(Schema.String)
})
const InitializeRequest = Schema.Struct({
  media_type: Schema.String,
  total_bytes: Schema.Number,
  media_category: Schema.optional(Schema.String)
})
const AppendRequest = Schema.Struct({ media: Schema.String, segment_index: Schema.Number })

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
}

const processingOrder = ["pending", "in_progress", "succeeded"] as const

export const simulator: Simulator.Make = ({ baseUrl }) => {
  const state = Simulator.makeState(network)
  const uploads = new Map<string, Upload>()

  const body = <A>(schema: Schema.Codec<A, any>) =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      Effect.map(
        Effect.orElseSucceed(request.json, () => ({})),
        (json) => Option.getOrUndefined(Schema.decodeUnknownOption(schema)(json))
      ))

  /** The caller's account, or the 401 X gives for any token that does not work. */
  const authenticated = <R>(
    handle: (account: SimulatorState.SimulatedAccount) => Effect.Effect<HttpServerResponse.HttpServerResponse, never, R>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R | HttpServerRequest.HttpServerRequest> =>
    Effect.flatMap(Simulator.accessToken, (token) => {
      const check = state.check(token)
      return check._tag === "Valid" ? handle(check.account) : Effect.succeed(unauthorized())
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
      scope: "tweet.read tweet.write users.read media.write offline.access",
      refresh_token: grant.refreshToken
    })
  })

  const createTweet = authenticated((account) =>
    Effect.gen(function*() {
      const tweet = yield* body(TweetRequest)
      if (tweet === undefined) return invalid("One or more parameters to your request was invalid.")
      const text = tweet.text ?? ""
      const mediaIds = tweet.media?.media_ids ?? []
      const attached = mediaIds.map((id) => uploads.get(id))
      if (attached.some((upload) => upload === undefined || upload.accountId !== account.id)) {
        return invalid("Your media IDs are invalid.")
      }
      if (attached.some((upload) => upload !== undefined && (!upload.finalized || upload.state !== "succeeded"))) {
        return invalid("Your media IDs are invalid.")
      }
      if (text.trim() === "" && mediaIds.length === 0) return invalid("Text or media is required.")
      const replyTo = tweet.reply?.in_reply_to_tweet_id
      if (replyTo !== undefined && !state.posts.has(replyTo)) {
        return problem(403, "Forbidden", "You attempted to reply to a Tweet that is deleted or not visible to you.")
      }
      switch (state.trigger(text, account.id)) {
        case "fail":
          return duplicate()
        case "flaky":
          return unavailable()
        case "revoke":
          return unauthorized()
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
        details: { mediaIds }
      })
      return Simulator.json({ data: { id, text, edit_history_tweet_ids: [id] } }, 201)
    })
  )

  const upload = authenticated((account) =>
    Effect.gen(function*() {
      const request = yield* body(UploadRequest)
      const bytes = request === undefined ? undefined : Result.getOrUndefined(Base64.decode(request.media))
      if (request === undefined || bytes === undefined || bytes.length === 0) {
        return invalid("One or more parameters to your request was invalid.")
      }
      const stored: Upload = {
        id: state.id(),
        accountId: account.id,
        mediaType: request.media_type ?? "image/jpeg",
        totalBytes: bytes.length,
        received: bytes.length,
        finalized: true,
        state: "succeeded"
      }
      uploads.set(stored.id, stored)
      return Simulator.json({ data: mediaAnswer(stored) })
    })
  )

  const initialize = authenticated((account) =>
    Effect.gen(function*() {
      const request = yield* body(InitializeRequest)
      if (request === undefined || request.total_bytes <= 0) {
        return invalid("One or more parameters to your request was invalid.")
      }
      const stored: Upload = {
        id: state.id(),
        accountId: account.id,
        mediaType: request.media_type,
        totalBytes: request.total_bytes,
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
      const request = yield* body(AppendRequest)
      const bytes = request === undefined ? undefined : Result.getOrUndefined(Base64.decode(request.media))
      return ownUpload(account, id, (stored) => {
        if (bytes === undefined || stored.finalized) return invalid("One or more parameters to your request was invalid.")
        stored.received += bytes.length
        return Simulator.json({ data: { expires_at: Math.floor(Date.now() / 1000) + 86_400 } })
      })
    })
  )

  const finalize = authenticated((account) =>
    Effect.map(HttpRouter.params, ({ id }) =>
      ownUpload(account, id, (stored) => {
        if (stored.received !== stored.totalBytes) {
          return invalid(`File size mismatch: received ${stored.received} of ${stored.totalBytes} bytes.`)
        }
        stored.finalized = true
        return Simulator.json({ data: mediaAnswer(stored) })
      }))
  )

  const status = authenticated((account) =>
    Effect.map(Simulator.query, (query) =>
      ownUpload(account, query["media_id"], (stored) => {
        if (query["command"] !== "STATUS" || !stored.finalized) return invalid("The media upload is not finalized.")
        // Each look moves processing on by one state, as a real video does over a few seconds.
        stored.state = processingOrder[Math.min(processingOrder.indexOf(stored.state) + 1, processingOrder.length - 1)]!
        return Simulator.json({ data: mediaAnswer(stored) })
      }))
  )

  const timeline = authenticated(() =>
    Effect.map(HttpRouter.params, ({ id }) => {
      const posts = state.postsOf(id ?? "").slice(0, 100)
      if (posts.length === 0) return Simulator.json({ meta: { result_count: 0 } })
      return Simulator.json({
        data: posts.map((post) => ({
          id: post.id,
          text: post.text,
          edit_history_tweet_ids: [post.id],
          ...(post.replyTo === undefined ? {} : { referenced_tweets: [{ type: "replied_to", id: post.replyTo }] })
        })),
        meta: { result_count: posts.length, newest_id: posts[0]!.id, oldest_id: posts[posts.length - 1]!.id }
      })
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
      HttpRouter.route("GET", "/i/oauth2/authorize", Simulator.authorize(state)),
      HttpRouter.route("POST", "/2/oauth2/token", token),
      HttpRouter.route("GET", "/2/users/me", me),
      HttpRouter.route("GET", "/2/users/:id/tweets", timeline),
      HttpRouter.route("POST", "/2/tweets", createTweet),
      HttpRouter.route("POST", "/2/media/upload", upload),
      HttpRouter.route("GET", "/2/media/upload", status),
      HttpRouter.route("POST", "/2/media/upload/initialize", initialize),
      HttpRouter.route("POST", "/2/media/upload/:id/append", append),
      HttpRouter.route("POST", "/2/media/upload/:id/finalize", finalize)
    ]
  }
}
