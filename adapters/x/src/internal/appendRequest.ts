import { ByteSize, Effect, Option, Result, Schema, Stream } from "effect"
import { Base64 } from "effect/encoding"
import { HttpIncomingMessage, HttpServerRequest, Multipart } from "effect/http"
import { upload } from "../XLimits.ts"

/**
 * An append request as X's simulator reads it (https://docs.x.com/x-api/media/append-media-upload): a form
 * with `segment_index` and the segment binary in `media`, or JSON with `media` in base64. Sizes are bounded
 * before anything is kept: a chunk over X's limit (`XLimits.upload.maxChunkBytes`, raw or base64 as X
 * counts it) is `TooLarge`, and a body is read no further than the chunk and a little room around it.
 */
export type Append =
  | { readonly _tag: "Segment"; readonly index: number; readonly bytes: number }
  | { readonly _tag: "TooLarge" }
  | { readonly _tag: "Invalid" }

const tooLarge: Append = { _tag: "TooLarge" }
const invalid: Append = { _tag: "Invalid" }

/** Room around the chunk for the form's boundaries and headers, or JSON's quotes and `segment_index`. */
const envelopeBytes = 64 * 1024
const maxBodyBytes = upload.maxChunkBytes + envelopeBytes

/** `segment_index`: 0 to 999, a number or its digits (X's OpenAPI document, `MediaSegments`). */
const segmentIndex = (value: unknown): number | undefined => {
  const index = typeof value === "string" && /^[0-9]{1,3}$/.test(value) ? Number(value) : value
  return typeof index === "number" && Number.isInteger(index) && index >= 0 && index < upload.maxSegments
    ? index
    : undefined
}

const segment = (index: unknown, bytes: number | undefined): Append => {
  const valid = segmentIndex(index)
  return valid === undefined || bytes === undefined || bytes === 0 ? invalid : { _tag: "Segment", index: valid, bytes }
}

const fromForm = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const fields: Record<string, string> = {}
    let media: number | undefined
    yield* Stream.runForEach(request.multipartStream, (part) =>
      part._tag === "Field"
        ? Effect.sync(() => {
          fields[part.key] = part.value
        })
        // Every file is read through (the parser waits for it), counted rather than kept.
        : Effect.map(Stream.runFold(part.content, () => 0, (total, chunk) => total + chunk.length), (total) => {
          if (part.key === "media") media = total
        }))
    return segment(fields["segment_index"], media)
  }).pipe(
    Effect.provideService(Multipart.MaxFileSize, ByteSize.bytes(upload.maxChunkBytes)),
    Effect.provideService(Multipart.MaxFieldSize, ByteSize.kibibytes(1)),
    Effect.provideService(Multipart.MaxParts, 8),
    Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(maxBodyBytes)),
    Effect.catch((error) =>
      Effect.succeed(error.reason._tag === "FileTooLarge" || error.reason._tag === "BodyTooLarge" ? tooLarge : invalid)
    )
  )

const JsonAppend = Schema.fromJsonString(Schema.Struct({ media: Schema.String, segment_index: Schema.Unknown }))

const fromJson = (request: HttpServerRequest.HttpServerRequest) =>
  request.text.pipe(
    Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(maxBodyBytes)),
    Effect.map((text) => {
      const body = Option.getOrUndefined(Schema.decodeUnknownOption(JsonAppend)(text))
      if (body === undefined) return invalid
      if (body.media.length > upload.maxChunkBytes) return tooLarge
      return segment(body.segment_index, Result.getOrUndefined(Base64.decode(body.media))?.length)
    }),
    // Reading stops at the bound: the body was larger than any chunk X takes.
    Effect.catch(() => Effect.succeed(tooLarge))
  )

export const read: Effect.Effect<Append, never, HttpServerRequest.HttpServerRequest> = Effect.flatMap(
  HttpServerRequest.HttpServerRequest,
  (request) => {
    const declared = Number(request.headers["content-length"] ?? 0)
    if (declared > maxBodyBytes) return Effect.succeed(tooLarge)
    const type = (request.headers["content-type"] ?? "").toLowerCase()
    return type.startsWith("multipart/form-data")
      ? fromForm(request)
      : type.startsWith("application/json")
      ? fromJson(request)
      : Effect.succeed(invalid)
  }
)
