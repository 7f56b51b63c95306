import { Simulator, SimulatorMedia, type SimulatorState } from "@herald/adapter-kit"
import { ByteSize, Effect, Option, Schema } from "effect"
import { HttpIncomingMessage, HttpServerResponse } from "effect/http"
import { randomBytes } from "node:crypto"
import { limits, unverifiedMaxVideoMs } from "../YouTubeLimits.ts"
import * as YouTubeRules from "../YouTubeRules.ts"
import {
  access,
  authError,
  googleError,
  jsonBody,
  type LongUploadsStatus,
  Metadata,
  rateLimited,
  refusal,
  request,
  type Session,
  type Video
} from "./simulatorGoogle.ts"

/**
 * The YouTube simulator's uploads (https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol):
 * a resumable session started with the video's metadata, its bytes and status probes, the thumbnail, and
 * `videos.list`, whose `processingDetails` move on over a couple of polls.
 */
export const make = ({ baseUrl, longUploadsOf, state }: {
  readonly baseUrl: string
  readonly longUploadsOf: (accountId: string) => LongUploadsStatus
  readonly state: SimulatorState.SimulatorState
}) => {
  const sessions = state.table<Session>("sessions", { mutable: true })
  const videos = state.table<Video>("videos", { mutable: true })
  const { authenticated, listing } = access(state)

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

  return { startUpload, sendBytes, setThumbnail, videoStatus }
}
