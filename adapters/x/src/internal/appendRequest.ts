import { ByteSize, Effect, Option, Result, Schema, Stream } from "effect"
import { Base64 } from "effect/encoding"
import { HttpIncomingMessage, HttpServerRequest, Multipart } from "effect/http"
import { upload } from "../XLimits.ts"
import type * as XRules from "../XRules.ts"

/**
 * An append request as X's simulator reads it (https://docs.x.com/x-api/media/append-media-upload): a form
 * with `segment_index` and the segment binary in `media`, or JSON with `media` in base64, read into what
 * `XRules.appendUpload` checks; undefined when the body is neither. Sizes are bounded before anything is
 * kept: a chunk over X's limit (`XLimits.upload.maxChunkBytes`, raw or base64 as X counts it) is
 * `tooLarge`, and a body is read no further than the chunk and a little room around it.
 */
export type Append = Omit<XRules.Append, "mediaId">

const tooLarge: Append = { tooLarge: true, segmentIndex: undefined, mediaBytes: undefined, otherFields: [] }

/** Room around the chunk for the form's boundaries and headers, or JSON's quotes and `segment_index`. */
const envelopeBytes = 64 * 1024
const maxBodyBytes = upload.maxChunkBytes + envelopeBytes

const others = (keys: ReadonlyArray<string>) => keys.filter((key) => key !== "media" && key !== "segment_index")

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
          else fields[part.key] = ""
        }))
    const otherFields = others(Object.keys(fields))
    return { tooLarge: false, segmentIndex: fields["segment_index"], mediaBytes: media, otherFields } satisfies Append
  }).pipe(
    Effect.provideService(Multipart.MaxFileSize, ByteSize.bytes(upload.maxChunkBytes)),
    Effect.provideService(Multipart.MaxFieldSize, ByteSize.kibibytes(1)),
    Effect.provideService(Multipart.MaxParts, 8),
    Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(maxBodyBytes)),
    Effect.catch((error) =>
      Effect.succeed(error.reason._tag === "FileTooLarge" || error.reason._tag === "BodyTooLarge" ? tooLarge : undefined)
    )
  )

const JsonAppend = Schema.fromJsonString(Schema.Record(Schema.String, Schema.Unknown))

const fromJson = (request: HttpServerRequest.HttpServerRequest) =>
  request.text.pipe(
    Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(maxBodyBytes)),
    Effect.map((text) => {
      const body = Option.getOrUndefined(Schema.decodeUnknownOption(JsonAppend)(text))
      if (body === undefined) return undefined
      const media = body["media"]
      if (typeof media === "string" && media.length > upload.maxChunkBytes) return tooLarge
      return {
        tooLarge: false,
        segmentIndex: body["segment_index"],
        mediaBytes: typeof media === "string" ? Result.getOrUndefined(Base64.decode(media))?.length : undefined,
        otherFields: others(Object.keys(body))
      } satisfies Append
    }),
    // Reading stops at the bound: the body was larger than any chunk X takes.
    Effect.catch(() => Effect.succeed(tooLarge))
  )

export const read: Effect.Effect<Append | undefined, never, HttpServerRequest.HttpServerRequest> = Effect.flatMap(
  HttpServerRequest.HttpServerRequest,
  (request) => {
    const declared = Number(request.headers["content-length"] ?? 0)
    if (declared > maxBodyBytes) return Effect.succeed(tooLarge)
    const type = (request.headers["content-type"] ?? "").toLowerCase()
    return type.startsWith("multipart/form-data")
      ? fromForm(request)
      : type.startsWith("application/json")
      ? fromJson(request)
      : Effect.succeed(undefined)
  }
)
