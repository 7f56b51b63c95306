import { Effect, type Stream } from "effect"
import type { HttpServerRequest } from "effect/http"
import type { HttpApiError } from "effect/http-api"
import * as HandlerGroup from "./HandlerGroup.ts"
import { ApiError, Authorization, HeraldApi, MediaApi } from "@herald/api"
import { Media } from "@herald/core"
import { answered } from "./ErrorRendering.ts"
import { withHeaders } from "./AnswerHeaders.ts"
import * as Idempotency from "./Idempotency.ts"
import { PublicUrl } from "../PublicUrl.ts"

export interface UploadRequest {
  readonly payload: Stream.Stream<Uint8Array, HttpApiError.HttpApiPayloadTooLarge>
  readonly query: {
    readonly durationMs?: number | undefined
    readonly width?: number | undefined
    readonly height?: number | undefined
    readonly alt?: string | undefined
  }
  readonly request: HttpServerRequest.HttpServerRequest
}

// The rest of the body is not wanted: closing the connection spares reading (and discarding) it.
const tooLarge = (message: string) => withHeaders(Effect.fail(new ApiError.TooLarge({ message })), { connection: "close" })

/**
 * `POST /api/v1/media`: the body streams through the core to media storage; nothing is buffered here. The
 * body's SHA-256 goes to the `Idempotency-Key` check, so that a repeat under the key must bring the same bytes.
 */
export const upload = Effect.fn("MediaHandlers.upload")(function*({ payload, query, request }: UploadRequest) {
  const media = yield* Media.Media
  const publicUrl = yield* PublicUrl
  const principal = yield* Authorization.CurrentPrincipal
  const declaredLength = request.headers["content-length"]
  const stored = yield* media.upload({
    workspaceId: principal.workspaceId,
    contentType: request.headers["content-type"] ?? "",
    contentLength: declaredLength === undefined ? undefined : Number(declaredLength),
    body: payload,
    durationMs: query.durationMs,
    width: query.width,
    height: query.height,
    alt: query.alt
  }).pipe(
    // Too large closes the connection around its answer (the rest of the body is not read); the other domain
    // errors are answered as they are.
    Effect.catchTags({
      MediaTooLarge: (error) => tooLarge(error.message),
      HttpApiPayloadTooLarge: () =>
        tooLarge(`The request body is larger than the limit of ${MediaApi.maxUploadBytes} bytes`),
      PlatformError: Effect.die
    }),
    answered
  )
  yield* Idempotency.reportBodyDigest(stored.sha256)
  return { data: MediaApi.toMediaObject(publicUrl, stored) }
})

/** `PATCH /api/v1/media/:id`: sets or removes the media's alt text. */
export const update = Effect.fn("MediaHandlers.update")(function*({ params, payload }: {
  readonly params: { readonly id: string }
  readonly payload: { readonly alt: string | null }
}) {
  const media = yield* Media.Media
  const publicUrl = yield* PublicUrl
  const principal = yield* Authorization.CurrentPrincipal
  const stored = yield* media.setAlt(principal.workspaceId, params.id, payload.alt).pipe(
    answered
  )
  return { data: MediaApi.toMediaObject(publicUrl, stored) }
})

export const layer = (api: HeraldApi.HeraldApi) => HandlerGroup.group(api, "media", (handlers) => handlers.handle("upload", upload).handle("update", update))
