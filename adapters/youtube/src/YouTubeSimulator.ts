import { randomBytes } from "node:crypto"
import { ByteSize, Effect, Option, Schema } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { Simulator, SimulatorMedia, SimulatorPage, SimulatorRules, type SimulatorState } from "@herald/adapter-kit"
import { limits, unverifiedMaxVideoMs } from "./YouTubeLimits.ts"
import * as YouTubeRules from "./YouTubeRules.ts"

// Google OAuth and the YouTube Data API v3 as Herald's sandbox serves them: PKCE consent with
// `access_type=offline`, non-rotating refresh tokens, resumable upload sessions (`Location`, 308 probes),
// thumbnails, `processingDetails` that move from `processing` to `succeeded` over a couple of polls, the
// uploads playlist, comment threads and replies over the kit's inbox state (no direct messages: YouTube
// has none), and Google's error bodies. Channel ids are the sandbox account ids (the kit's state keys
// accounts by them). Each channel has a `longUploadsStatus`, `eligible` (not verified) until
// `POST /_control/channel` changes it, as a new channel is: a video longer than 15 minutes, read from the
// uploaded file's movie header, is rejected after processing with `length` unless it is `allowed`.
// https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol
// https://developers.google.com/youtube/v3/docs/commentThreads/list

const network = "youtube"

/** The video resource once `YouTubeRules.insertVideo` took it: what the sandbox keeps of it. */
const Metadata = Schema.Struct({
  snippet: Schema.Struct({ title: Schema.String, description: Schema.optionalKey(Schema.String) }),
  status: Schema.optionalKey(Schema.Struct({ privacyStatus: Schema.optionalKey(Schema.String) }))
})

const LongUploadsStatus = Schema.Literals(["allowed", "disallowed", "eligible", "longUploadsUnspecified"])
type LongUploadsStatus = typeof LongUploadsStatus.Type

const ChannelChange = Schema.Struct({ username: Schema.NonEmptyString, longUploadsStatus: LongUploadsStatus })

/** A reply once `YouTubeRules.insertComment` took it. */
const Reply = Schema.Struct({ snippet: Schema.Struct({ parentId: Schema.String, textOriginal: Schema.String }) })

/** How many replies a thread's `replies` part carries; `comments.list` has the rest. */
const repliesInThread = 5

/** YouTube's `publishedAt` has whole seconds. */
const toSeconds = (iso: string) => iso.replace(/\.\d+Z$/, "Z")

/** Page tokens stand for an offset in the listing. */
const pageToken = (offset: number) => Buffer.from(`offset:${offset}`).toString("base64url")
const pageOffset = (token: string | undefined): number | undefined => {
  if (token === undefined) return 0
  const match = /^offset:(\d+)$/.exec(Buffer.from(token, "base64url").toString("utf8"))
  return match === null ? undefined : Number(match[1])
}

interface Session {
  readonly accountId: string
  readonly title: string
  readonly description: string
  readonly privacyStatus: string
  readonly contentType: string
  readonly contentLength: number
  /** Why YouTube rejects the video after processing (`status.rejectionReason`), if it does. */
  rejection: string | undefined
  videoId: string | undefined
}

interface Video {
  readonly session: Session
  polls: number
}

const googleError = (status: number, reason: string, message: string, statusText: string, domain = "youtube") =>
  Simulator.json({ error: { code: status, message, errors: [{ message, domain, reason }], status: statusText } }, status)
/** Google's answer to the first rule of `call` the request breaks; undefined when it keeps them all. */
const refusal = <Input>(call: YouTubeRules.Call<Input>, input: Input) => {
  const broken = SimulatorRules.refusal(call, input)
  if (broken === undefined) return undefined
  const { status, reason, statusText, domain } = broken.rule.answer
  return googleError(status, reason, broken.message, statusText, domain)
}
const authError = () =>
  googleError(401, "authError", "Request had invalid authentication credentials. Expected OAuth 2 access token.", "UNAUTHENTICATED")
const rateLimited = () => googleError(429, "rateLimitExceeded", "The request cannot be completed because you have exceeded your rate limit.", "RESOURCE_EXHAUSTED")
const oauthError = (error: string, description: string) => Simulator.json({ error, error_description: description }, 400)
/** A control route's refusal, in Herald's error shape, as the kit's control routes answer. */
const controlError = (status: number, code: string, message: string) => Simulator.json({ error: { code, message } }, status)

export const simulator: Simulator.Make = ({ baseUrl }) => {
  const state = Simulator.makeState(network)
  const offlineCodes = state.table<true>("offlineCodes")
  const sessions = state.table<Session>("sessions", { mutable: true })
  const videos = state.table<Video>("videos", { mutable: true })
  const longUploads = state.table<LongUploadsStatus>("longUploads")
  const longUploadsOf = (accountId: string): LongUploadsStatus => longUploads.get(accountId) ?? "eligible"

  const authenticated = <E, R>(
    handler: (check: Extract<SimulatorState.TokenCheck, { _tag: "Valid" }>) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ) =>
    Effect.flatMap(Simulator.accessToken, (token) => {
      const check = state.check(token)
      return check._tag === "Valid" ? handler(check) : Effect.succeed(authError())
    })
  const request = HttpServerRequest.HttpServerRequest
  /** A JSON body (video metadata, a comment), read no further than 256 KiB; undefined when it is not JSON. */
  const jsonBody = Effect.flatMap(request, (incoming) =>
    incoming.json.pipe(
      Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.kibibytes(256)),
      Effect.orElseSucceed((): unknown => undefined)
    ))

  const resource = (videoId: string, session: Session, uploadStatus: string) => ({
    kind: "youtube#video",
    id: videoId,
    snippet: { title: session.title, description: session.description, channelId: session.accountId },
    status: { uploadStatus, privacyStatus: session.privacyStatus }
  })

  const startUpload = authenticated((check) =>
    Effect.gen(function*() {
      const params = yield* Simulator.query
      const headers = (yield* request).headers
      // YouTube also takes `media` and `multipart` uploads; the sandbox serves the resumable protocol only.
      if (params["uploadType"] !== "resumable") return googleError(400, "badRequest", "The sandbox takes uploadType=resumable only.", "INVALID_ARGUMENT")
      const body = yield* jsonBody
      const refused = refusal(YouTubeRules.insertVideo, { query: params, headers, body })
      if (refused !== undefined) return refused
      const metadata = Schema.decodeUnknownOption(Metadata)(body)
      if (Option.isNone(metadata)) return googleError(400, "invalidVideoMetadata", "The request metadata is invalid.", "INVALID_ARGUMENT")
      const title = metadata.value.snippet.title
      const description = metadata.value.snippet.description ?? ""
      const contentLength = Number(headers["x-upload-content-length"])
      const trigger = state.trigger(description, check.account.id)
      if (trigger === "flaky") return googleError(503, "backendError", "Backend Error", "UNAVAILABLE")
      if (trigger === "rate-limit") return rateLimited()
      if (trigger === "revoke") return authError()
      const uploadId = randomBytes(24).toString("base64url")
      sessions.set(uploadId, {
        accountId: check.account.id,
        title,
        description,
        privacyStatus: metadata.value.status?.privacyStatus ?? "public",
        contentType: headers["x-upload-content-type"] ?? "video/*",
        contentLength,
        // YouTube accepts the upload and refuses the content afterwards (`status.rejectionReason`).
        rejection: trigger === "fail" ? "inappropriate" : undefined,
        videoId: undefined
      })
      return HttpServerResponse.empty({ status: 200 }).pipe(
        HttpServerResponse.setHeader("location", `${baseUrl}/upload/youtube/v3/videos?uploadType=resumable&upload_id=${uploadId}`)
      )
    })
  )

  // The session URI authenticates the upload by itself: no bearer token is needed.
  const sendBytes = Effect.gen(function*() {
    const params = yield* Simulator.query
    const session = sessions.get(params["upload_id"] ?? "")
    if (session === undefined) return googleError(404, "notFound", "The upload session does not exist.", "NOT_FOUND")
    const incoming = yield* request
    const range = incoming.headers["content-range"]
    // A status probe (`bytes */{total}`): finished sessions answer with the video, others with 308.
    if (YouTubeRules.isProbe(range)) {
      const refused = refusal(YouTubeRules.uploadBytes, { contentRange: range, bytes: 0, announced: session.contentLength })
      if (refused !== undefined) return refused
      return session.videoId === undefined
        ? HttpServerResponse.empty({ status: 308 })
        : Simulator.json(resource(session.videoId, session, "uploaded"))
    }
    // Read no further than the announced size (and a byte to tell a longer body).
    const bytes = new Uint8Array(
      yield* incoming.arrayBuffer.pipe(
        Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(session.contentLength + 1)),
        Effect.orElseSucceed(() => new ArrayBuffer(session.contentLength + 1))
      )
    )
    const refused = refusal(YouTubeRules.uploadBytes, { contentRange: range, bytes: bytes.length, announced: session.contentLength })
    if (refused !== undefined) return refused
    const videoId = session.videoId ?? randomBytes(8).toString("base64url")
    if (session.videoId === undefined) {
      session.videoId = videoId
      session.rejection ??= tooLong(session.accountId, SimulatorMedia.videoDurationMs(bytes)) ? "length" : undefined
      videos.set(videoId, { session, polls: 0 })
      if (session.rejection === undefined) record(videoId, session, null)
    }
    return Simulator.json(resource(videoId, session, "uploaded"), 201)
  })

  /** Whether YouTube rejects a video of this length on the channel; a length the file does not tell is not. */
  const tooLong = (accountId: string, durationMs: number | undefined) =>
    durationMs !== undefined &&
    (durationMs > limits.forms.post.media.videoDurationMs.max || durationMs > unverifiedMaxVideoMs && longUploadsOf(accountId) !== "allowed")

  const record = (videoId: string, session: Session, thumbnail: unknown) =>
    state.record({
      id: videoId,
      accountId: session.accountId,
      text: session.description,
      media: [`${session.contentType}, ${session.contentLength} bytes`],
      replyTo: undefined,
      url: `${baseUrl}/watch?v=${videoId}`,
      details: { title: session.title, privacy: session.privacyStatus, thumbnail }
    })

  const setThumbnail = authenticated((check) =>
    Effect.gen(function*() {
      const params = yield* Simulator.query
      const incoming = yield* request
      const contentType = incoming.headers["content-type"]
      // Read no further than a byte past the 2 MB thumbnails.set takes.
      const bytes = Number(incoming.headers["content-length"] ?? 0) > YouTubeRules.maxThumbnailBytes
        ? YouTubeRules.maxThumbnailBytes + 1
        : (yield* incoming.arrayBuffer.pipe(
          Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(YouTubeRules.maxThumbnailBytes)),
          Effect.orElseSucceed(() => new ArrayBuffer(YouTubeRules.maxThumbnailBytes + 1))
        )).byteLength
      const refused = refusal(YouTubeRules.setThumbnail, { query: params, contentType, bytes })
      if (refused !== undefined) return refused
      const video = videos.get(params["videoId"] ?? "")
      if (video === undefined || video.session.accountId !== check.account.id) {
        return googleError(403, "forbidden", "The thumbnail can't be set for the specified video.", "PERMISSION_DENIED")
      }
      if (video.session.rejection === undefined) record(params["videoId"]!, video.session, { contentType, bytes })
      const url = `${baseUrl}/vi/${params["videoId"]}/default.jpg`
      return Simulator.json({ kind: "youtube#thumbnailSetResponse", items: [{ default: { url, width: 120, height: 90 } }] })
    })
  )

  /** A list call: its query held to `call`'s rules before `handler` reads it. */
  const listing = (
    call: YouTubeRules.Call<YouTubeRules.Query>,
    handler: (
      check: Extract<SimulatorState.TokenCheck, { _tag: "Valid" }>,
      params: Record<string, string>
    ) => HttpServerResponse.HttpServerResponse
  ) => authenticated((check) => Effect.map(Simulator.query, (params) => refusal(call, { query: params }) ?? handler(check, params)))

  const videoStatus = listing(YouTubeRules.listVideos, (check, params) => {
    const items = (params["id"] ?? "").split(",").flatMap((videoId) => {
      const video = videos.get(videoId)
      if (video === undefined || video.session.accountId !== check.account.id) return []
      video.polls++
      // Processing finishes on the second look; a refused video ends `rejected`.
      const done = video.polls >= 2
      const { privacyStatus, rejection } = video.session
      const status = !done
        ? { uploadStatus: "uploaded", privacyStatus }
        : rejection !== undefined
        ? { uploadStatus: "rejected", rejectionReason: rejection, privacyStatus }
        : { uploadStatus: "processed", privacyStatus }
      const processingStatus = !done ? "processing" : rejection !== undefined ? "terminated" : "succeeded"
      return [{ kind: "youtube#video", id: videoId, status, processingDetails: { processingStatus } }]
    })
    return Simulator.json({ kind: "youtube#videoListResponse", items, pageInfo: { totalResults: items.length, resultsPerPage: items.length } })
  })

  // The sandbox knows the signed-in channel only: another filter finds none.
  const channels = listing(YouTubeRules.listChannels, (check, params) => {
    const parts = (params["part"] ?? "").split(",")
    const { account } = check
    if (params["mine"] !== "true" && !(params["id"] ?? "").split(",").includes(account.id)) {
      return Simulator.json({ kind: "youtube#channelListResponse", items: [] })
    }
    const channel = {
      kind: "youtube#channel",
      id: account.id,
      ...(parts.includes("snippet") && {
        snippet: {
          title: account.displayName,
          customUrl: `@${account.username}`,
          thumbnails: { default: { url: `${baseUrl}/avatars/${account.id}.jpg` } }
        }
      }),
      ...(parts.includes("contentDetails") && { contentDetails: { relatedPlaylists: { uploads: `UU${account.id}` } } }),
      ...(parts.includes("status") && {
        status: { privacyStatus: "public", isLinked: true, longUploadsStatus: longUploadsOf(account.id) }
      })
    }
    return Simulator.json({ kind: "youtube#channelListResponse", items: [channel] })
  })

  /**
   * Sets a channel's `longUploadsStatus` (`allowed` stands for a verified channel), which no Data API call
   * changes: on YouTube the person verifies the channel (https://www.youtube.com/verify).
   */
  const changeChannel = Effect.gen(function*() {
    const body = yield* Effect.flatMap(request, (incoming) => Effect.orElseSucceed(incoming.json, () => null))
    const change = Schema.decodeUnknownOption(ChannelChange)(body)
    if (Option.isNone(change)) {
      return controlError(400, "invalid", "The JSON body needs username and longUploadsStatus (allowed, disallowed, eligible or longUploadsUnspecified)")
    }
    const account = state.accountByUsername(change.value.username)
    if (account === undefined || !(yield* Simulator.Reachable)(account)) {
      return controlError(404, "not_found", `No ${network} sandbox account is called ${change.value.username}`)
    }
    longUploads.set(account.id, change.value.longUploadsStatus)
    return Simulator.json({ username: account.username, longUploadsStatus: change.value.longUploadsStatus })
  })

  /** Where the refusal of a long video sends the person; the sandbox's channels are verified by a control call. */
  const verifyPage = HttpServerResponse.text(
    "Herald's YouTube sandbox: a sandbox channel uploads videos over 15 minutes once it is verified, with " +
      "POST /sandbox/youtube/_control/channel {\"username\": \"<channel>\", \"longUploadsStatus\": \"allowed\"} " +
      "(see docs/adapters/sandbox.md). A real channel is verified at https://www.youtube.com/verify.\n"
  )

  const playlistItems = listing(YouTubeRules.listPlaylistItems, (check, params) => {
    if (params["playlistId"] !== `UU${check.account.id}`) {
      return googleError(404, "playlistNotFound", "The playlist identified with the request's playlistId parameter cannot be found.", "NOT_FOUND")
    }
    const items = state.postsOf(check.account.id).slice(0, Number(params["maxResults"] ?? "5")).map((post) => ({
      kind: "youtube#playlistItem",
      snippet: {
        title: post.details["title"],
        description: post.text,
        resourceId: { kind: "youtube#video", videoId: post.id }
      }
    }))
    return Simulator.json({ kind: "youtube#playlistItemListResponse", items })
  })

  /** The top-level comment a comment belongs to (YouTube has one level of replies). */
  const rootOf = (comment: SimulatorState.SimulatedComment): SimulatorState.SimulatedComment => {
    let current = comment
    for (let parent = current.replyTo; parent !== null;) {
      const found = state.comments.get(parent)
      if (found === undefined) break
      current = found
      parent = found.replyTo
    }
    return current
  }

  const commentResource = (comment: SimulatorState.SimulatedComment) => {
    const root = rootOf(comment)
    return {
      kind: "youtube#comment",
      etag: `etag-${comment.id}`,
      id: comment.id,
      snippet: {
        channelId: comment.accountId,
        textDisplay: comment.text,
        textOriginal: comment.text,
        ...(root.id !== comment.id && { parentId: root.id }),
        authorDisplayName: `@${comment.author.username}`,
        authorProfileImageUrl: `${baseUrl}/avatars/${comment.author.id}.jpg`,
        authorChannelUrl: `${baseUrl}/@${comment.author.username}`,
        authorChannelId: { value: comment.author.id },
        canRate: true,
        viewerRating: "none",
        likeCount: 0,
        publishedAt: toSeconds(comment.createdAt),
        updatedAt: toSeconds(comment.createdAt)
      }
    }
  }

  /** A channel's comments as threads, newest top-level comment first, each with its replies oldest first. */
  const threadsOf = (accountId: string) => {
    const threads = new Map<string, { top: SimulatorState.SimulatedComment; replies: Array<SimulatorState.SimulatedComment> }>()
    const replies: Array<SimulatorState.SimulatedComment> = []
    for (const comment of state.commentsAfter(accountId, 0)) {
      if (rootOf(comment) === comment) threads.set(comment.id, { top: comment, replies: [] })
      else replies.push(comment)
    }
    for (const reply of replies) threads.get(rootOf(reply).id)?.replies.push(reply)
    return [...threads.values()].reverse()
  }

  const threadResource = (thread: ReturnType<typeof threadsOf>[number], parts: ReadonlyArray<string>) => {
    // A comment on no video stands for one about the channel itself, which has no `videoId`.
    const videoId = state.posts.has(thread.top.postId) ? thread.top.postId : undefined
    return {
      kind: "youtube#commentThread",
      etag: `etag-${thread.top.id}`,
      id: thread.top.id,
      ...(parts.includes("snippet") && {
        snippet: {
          channelId: thread.top.accountId,
          ...(videoId !== undefined && { videoId }),
          topLevelComment: commentResource(thread.top),
          canReply: true,
          totalReplyCount: thread.replies.length,
          isPublic: true
        }
      }),
      ...(parts.includes("replies") && thread.replies.length > 0 && {
        replies: { comments: thread.replies.slice(0, repliesInThread).map(commentResource) }
      })
    }
  }

  /** One page of a listing, as Google pages them (`maxResults` up to 100, 20 by default). */
  const page = <A>(kind: string, items: ReadonlyArray<A>, params: Record<string, string>) => {
    const offset = pageOffset(params["pageToken"])
    if (offset === undefined) return googleError(400, "invalidPageToken", "The request specifies an invalid page token.", "INVALID_ARGUMENT")
    const size = Math.min(Math.max(Number(params["maxResults"] ?? "20") || 20, 1), 100)
    const slice = items.slice(offset, offset + size)
    return Simulator.json({
      kind,
      etag: `etag-${offset}`,
      ...(offset + size < items.length && { nextPageToken: pageToken(offset + size) }),
      pageInfo: { totalResults: items.length, resultsPerPage: size },
      items: slice
    })
  }

  // Any channel's public threads can be read; `videoId` narrows them to one video.
  const commentThreads = listing(YouTubeRules.listCommentThreads, (_, params) => {
    const parts = (params["part"] ?? "").split(",")
    const channelId = params["allThreadsRelatedToChannelId"]
    const videoId = params["videoId"]
    const owner = channelId ?? (videoId === undefined ? undefined : state.posts.get(videoId)?.accountId)
    if (owner === undefined || !state.accounts.has(owner)) {
      return channelId === undefined
        ? googleError(404, "videoNotFound", "The video identified by the videoId parameter could not be found.", "NOT_FOUND")
        : googleError(404, "channelNotFound", "The channel could not be found.", "NOT_FOUND")
    }
    const threads = threadsOf(owner).filter((thread) => videoId === undefined || thread.top.postId === videoId)
    return page("youtube#commentThreadListResponse", threads.map((thread) => threadResource(thread, parts)), params)
  })

  const listComments = listing(YouTubeRules.listComments, (_, params) => {
    const parent = state.comments.get(params["parentId"] ?? "")
    if (params["parentId"] !== undefined) {
      if (parent === undefined) return googleError(404, "commentNotFound", "The specified comment could not be found.", "NOT_FOUND")
      const replies = state.commentsAfter(parent.accountId, 0).filter((comment) => comment !== parent && rootOf(comment) === parent)
      return page("youtube#commentListResponse", replies.map(commentResource), params)
    }
    const ids = (params["id"] ?? "").split(",")
    const items = ids.flatMap((id) => {
      const found = state.comments.get(id)
      return found === undefined ? [] : [commentResource(found)]
    })
    return Simulator.json({ kind: "youtube#commentListResponse", items, pageInfo: { totalResults: items.length, resultsPerPage: items.length } })
  })

  // A reply is a comment by the signed-in channel, stored in the inbox of the channel whose video it is on.
  const insertComment = authenticated((check) =>
    Effect.gen(function*() {
      const body = yield* jsonBody
      const refused = refusal(YouTubeRules.insertComment, { query: yield* Simulator.query, body })
      if (refused !== undefined) return refused
      const reply = Schema.decodeUnknownOption(Reply)(body)
      if (Option.isNone(reply)) return googleError(400, "invalidCommentMetadata", "The request metadata is invalid.", "INVALID_ARGUMENT")
      const { parentId, textOriginal: text } = reply.value.snippet
      const parent = state.comments.get(parentId)
      if (parent === undefined) return googleError(404, "commentNotFound", "The specified parent comment could not be found.", "NOT_FOUND")
      if (parent.replyTo !== null) {
        return googleError(400, "operationNotSupported", "Replies can only be made to top-level comments.", "INVALID_ARGUMENT")
      }
      switch (state.trigger(text, check.account.id)) {
        case "fail":
          return googleError(403, "forbidden", "The comment could not be created due to insufficient permissions.", "PERMISSION_DENIED")
        case "flaky":
          return googleError(503, "backendError", "Backend Error", "UNAVAILABLE")
        case "rate-limit":
          return rateLimited()
        case "revoke":
          return authError()
      }
      const stored = state.addComment({
        accountId: parent.accountId,
        author: { username: check.account.username },
        text,
        postId: parent.postId,
        replyTo: parent.id
      })
      return Simulator.json(commentResource(stored))
    })
  )

  const authorize = Effect.map(Simulator.query, (params) => {
    const redirectUri = params["redirect_uri"]
    if (params["client_id"] === undefined || redirectUri === undefined || params["response_type"] !== "code") {
      return oauthError("invalid_request", "Missing required parameter: client_id, redirect_uri or response_type")
    }
    if (params["code_challenge"] !== undefined && params["code_challenge_method"] !== "S256") {
      return oauthError("invalid_request", "code_challenge_method must be S256")
    }
    const account = state.consent(params["sandbox_username"])
    const code = state.issueCode(account.id, redirectUri, params["code_challenge"])
    if (params["access_type"] === "offline") offlineCodes.set(code, true)
    const target = new URL(redirectUri)
    target.searchParams.set("code", code)
    target.searchParams.set("scope", params["scope"] ?? "")
    if (params["state"] !== undefined) target.searchParams.set("state", params["state"])
    return HttpServerResponse.redirect(target.toString(), { status: 302 })
  })

  const token = Effect.map(Simulator.formOrJson, (form) => {
    if (form["client_id"] === undefined || form["client_secret"] === undefined) {
      return Simulator.json({ error: "invalid_client", error_description: "The OAuth client was not found." }, 401)
    }
    const scope = [
      "https://www.googleapis.com/auth/youtube.upload",
      "https://www.googleapis.com/auth/youtube.readonly",
      "https://www.googleapis.com/auth/youtube.force-ssl"
    ].join(" ")
    if (form["grant_type"] === "refresh_token") {
      // Google keeps one refresh token per grant, good until revoked, and answers none on refresh:
      // https://developers.google.com/identity/protocols/oauth2/web-server#offline
      const grant = state.refresh(form["refresh_token"] ?? "", { reuse: true })
      if (grant === undefined) return oauthError("invalid_grant", "Token has been expired or revoked.")
      return Simulator.json({ access_token: grant.accessToken, expires_in: 3599, scope, token_type: "Bearer" })
    }
    const code = form["code"] ?? ""
    const grant = form["grant_type"] === "authorization_code"
      ? Simulator.redeem(state, { code, redirectUri: form["redirect_uri"], verifier: form["code_verifier"] })
      : undefined
    if (grant === undefined) return oauthError("invalid_grant", "Bad Request")
    const offline = offlineCodes.delete(code)
    return Simulator.json({
      access_token: grant.accessToken,
      expires_in: Math.round((grant.expiresAt - Date.now()) / 1000),
      ...(offline && { refresh_token: grant.refreshToken }),
      scope,
      token_type: "Bearer"
    })
  })

  return {
    network,
    state,
    routes: [
      HttpRouter.route("GET", "/o/oauth2/v2/auth", authorize),
      HttpRouter.route("POST", "/token", token),
      HttpRouter.route("GET", "/youtube/v3/channels", channels),
      HttpRouter.route("GET", "/youtube/v3/videos", videoStatus),
      HttpRouter.route("GET", "/youtube/v3/playlistItems", playlistItems),
      HttpRouter.route("POST", "/upload/youtube/v3/videos", startUpload),
      HttpRouter.route("PUT", "/upload/youtube/v3/videos", sendBytes),
      HttpRouter.route("POST", "/upload/youtube/v3/thumbnails/set", setThumbnail),
      HttpRouter.route("GET", "/youtube/v3/commentThreads", commentThreads),
      HttpRouter.route("POST", "/_control/channel", changeChannel),
      HttpRouter.route("GET", "/verify", Effect.succeed(verifyPage)),
      HttpRouter.route("GET", "/youtube/v3/comments", listComments),
      HttpRouter.route("POST", "/youtube/v3/comments", insertComment),
      // The link each video was given (`/watch?v={id}`). YouTube took the video's bytes, which the sandbox
      // does not keep: the page says what was uploaded.
      ...SimulatorPage.routes(["/watch"], {
        network: "YouTube",
        state,
        baseUrl,
        page: (post) =>
          SimulatorPage.ofPost(state, post, {
            network: "YouTube",
            handle: (username) => username,
            title: typeof post.details["title"] === "string" ? post.details["title"] : undefined,
            parts: [{ text: post.text, media: post.media.map((label) => ({ kind: "video", url: undefined, label: `Video (${label})` })) }],
            note: typeof post.details["privacy"] === "string" ? `Visibility: ${post.details["privacy"]}` : undefined
          })
      }),
      ...Simulator.controlRoutes(state)
    ]
  }
}
