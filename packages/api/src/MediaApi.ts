import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Bounded } from "@herald/domain"
import { InvalidResponse, NotFoundResponse, TooLargeResponse } from "./ApiError.ts"
import { Data } from "./Envelope.ts"
import * as QueryInteger from "./internal/queryInteger.ts"

/**
 * A smaller JPEG copy of a photo, made at upload because the photo breaks an installed network's
 * `maxPhotoBytes` (`GET /api/v1/networks`); that network is sent the copy instead of the photo.
 */
export class FittedCopy extends Schema.Class<FittedCopy>("FittedCopy")({
  /** The byte limit it was made for. */
  maxBytes: Schema.Int,
  /** `{base_url}/media/<id>.fit<maxBytes>.jpg` (a copy small enough for several limits is one file). */
  url: Schema.String,
  bytes: Schema.Int,
  width: Schema.Int,
  height: Schema.Int,
  /** The JPEG quality it was encoded at; below 80 means a smaller size was needed too, or instead. */
  quality: Schema.Int
}) {}

export class MediaObject extends Schema.Class<MediaObject>("MediaObject")({
  /** Use it in a post's `mediaIds`. */
  id: Schema.String,
  kind: Schema.Literals(["image", "video"]),
  /** `{base_url}/media/<id>.<extension>`: public, so networks can fetch it. */
  url: Schema.String,
  /** A JPEG at most 320 px on its longest side, for photos; null for videos. */
  previewUrl: Schema.NullOr(Schema.String),
  /** `image/jpeg` for every photo (they are converted), else the video's own type. */
  mimeType: Schema.String,
  /** Size of the stored file. */
  bytes: Schema.Int,
  width: Schema.NullOr(Schema.Int),
  height: Schema.NullOr(Schema.Int),
  /** Null for photos, and for a video whose header does not say. */
  durationMs: Schema.NullOr(Schema.Int),
  /** A description for people who cannot see it, sent to the networks that take alt text; null when none. */
  alt: Schema.NullOr(Schema.String),
  /** Copies fitted to networks' photo byte limits, smallest limit first; empty for videos and small photos. */
  fitted: Schema.Array(FittedCopy),
  createdAt: Schema.String
}) {}

/** The longest alt text, in characters; kept equal to `Media.maxAltLength` in the core. */
export const maxAltLength = 1_500

/** `PATCH /api/v1/media/:id`: `alt` sets the alt text; null or an empty string removes it. */
export const UpdateMedia = Schema.Struct({
  alt: Schema.NullOr(Bounded.Note)
})

/** The types an upload may declare; the bytes must match (checked by their signature). */
export const uploadTypes = ["image/jpeg", "image/png", "image/webp", "video/mp4", "video/quicktime"] as const

/**
 * The largest body read at all: the video limit. The core refuses photos over their own, smaller limit
 * from `Content-Length` and again while counting. Kept equal to `Media.defaultLimits.video` in the core, which
 * this package does not depend on.
 */
export const maxUploadBytes = 512 * 1024 * 1024

// Whole non-negative numbers that fit the database's integer columns.
const count = (description: string) =>
  Schema.optional(QueryInteger.number({ minimum: 0, maximum: 2 ** 31 - 1, description }))

export class MediaApi extends HttpApiGroup.make("media").add(
  HttpApiEndpoint.post("upload", "/media", {
    payload: HttpApiSchema.StreamUint8Array({ contentType: [...uploadTypes], maxBytes: maxUploadBytes }),
    query: {
      durationMs: count("Video length in milliseconds; read from the file's MP4/MOV header when absent"),
      width: count("Video width in pixels; read from the file when absent"),
      height: count("Video height in pixels; read from the file when absent"),
      alt: Schema.optional(Bounded.Note.annotate({
        description: `Alt text: a description of the photo or video for people who cannot see it, at most ${maxAltLength} ` +
          "characters; sent to the networks that take alt text"
      }))
    },
    success: Data(MediaObject),
    error: [InvalidResponse, TooLargeResponse]
  }).annotateMerge(OpenApi.annotations({
    summary: "Upload one photo or video as the raw request body",
    description: "Send the file's bytes with its `Content-Type` (JPEG, PNG or WebP photos up to 30 MB, " +
      "converted to JPEG with their orientation applied and metadata removed; MP4 or MOV videos up to 512 MB, " +
      "stored unchanged). The bytes must match the type. Videos' `durationMs`, `width` and `height` may be " +
      "given as query parameters; otherwise they are read from the file's header. `alt` sets the alt text. " +
      "A photo whose JPEG is larger than an installed network's photo byte limit also gets a copy fitted to " +
      "that limit (`fitted`), which that network is sent."
  })),
  HttpApiEndpoint.patch("update", "/media/:id", {
    params: { id: Bounded.Id },
    payload: UpdateMedia,
    success: Data(MediaObject),
    error: [InvalidResponse, NotFoundResponse]
  }).annotate(
    OpenApi.Summary,
    `Set (or, with null, remove) a photo's or video's alt text, at most ${maxAltLength} characters; posts already ` +
      "published keep what was sent"
  )
).annotateMerge(OpenApi.annotations({
  title: "Media",
  description: "Upload photos and videos to attach to posts by their ids."
})) {}

/** The API's view of a stored file (REST and the `upload_image` tool): links under the public address. */
export const toMediaObject = (publicUrl: string, stored: {
  readonly id: string
  readonly kind: "image" | "video"
  readonly file: string
  readonly previewFile: string | null
  readonly mimeType: string
  readonly bytes: number
  readonly width: number | null
  readonly height: number | null
  readonly durationMs: number | null
  readonly alt: string | null
  readonly fitted: ReadonlyArray<{
    readonly maxBytes: number
    readonly file: string
    readonly bytes: number
    readonly width: number
    readonly height: number
    readonly quality: number
  }>
  readonly createdAt: string
}) =>
  new MediaObject({
    id: stored.id,
    kind: stored.kind,
    url: `${publicUrl}/media/${stored.file}`,
    previewUrl: stored.previewFile === null ? null : `${publicUrl}/media/${stored.previewFile}`,
    mimeType: stored.mimeType,
    bytes: stored.bytes,
    width: stored.width,
    height: stored.height,
    durationMs: stored.durationMs,
    alt: stored.alt,
    fitted: stored.fitted.map((copy) =>
      new FittedCopy({
        maxBytes: copy.maxBytes,
        url: `${publicUrl}/media/${copy.file}`,
        bytes: copy.bytes,
        width: copy.width,
        height: copy.height,
        quality: copy.quality
      })
    ),
    createdAt: stored.createdAt
  })
