import { Simulator, type SimulatorState } from "@herald/adapter-kit"
import { Effect, Result } from "effect"
import { Base64 } from "effect/encoding"
import { HttpRouter } from "effect/http"
import * as XRules from "../XRules.ts"
import * as AppendRequest from "./appendRequest.ts"
import {
  body,
  type Context,
  InitializeRequest,
  invalid,
  MetadataRequest,
  processingOrder,
  refused,
  unauthorized,
  type Upload,
  UploadRequest
} from "./simulatorWire.ts"

/**
 * X's simulator's media methods (https://docs.x.com/x-api/media/quickstart/media-upload-chunked): the one-shot
 * upload, the chunked one (initialize, append, finalize), its status as processing moves on, and alt text.
 */
export const make = ({ baseUrl, state, uploads }: Context) => {
  const authenticated = Simulator.authenticated(state, unauthorized)

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

  return { mediaUrl, upload, metadata, initialize, append, finalize, status }
}
