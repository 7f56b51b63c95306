import { SimulatorRules } from "@herald/adapter-kit"
import { upload } from "../XLimits.ts"
import { enumOf, field, jsonObject, onlyFields, parameter, pattern, schema } from "./ruleChecks.ts"

/**
 * X's rules on media: the one-shot upload, the chunked upload's initialize, append, finalize and status,
 * and alt text.
 */

const mediaCategories = ["tweet_image", "tweet_video", "tweet_gif", "dm_image", "dm_video", "dm_gif", "subtitles"]

/** `POST /2/media/upload`, the one-shot upload, over its JSON body (`media` base64). */
export const uploadMedia = SimulatorRules.call<unknown>("POST /2/media/upload", [
  jsonObject("/2/media/upload"),
  {
    rule: "only the fields MediaUploadRequest lists (additional_owners, media, media_category)",
    source: schema("MediaUploadRequest"),
    check: onlyFields("", ["additional_owners", "media", "media_category"])
  },
  {
    rule: "media required, base64 in a JSON body",
    source: `${schema("MediaUploadRequest")}/properties/media`,
    check: (body) => {
      const media = field(body, "media")
      return typeof media === "string" && media !== "" && /^[A-Za-z0-9+/]*={0,2}$/.test(media) && media.length % 4 === 0
        ? undefined
        : "media is required, base64-encoded in a JSON body."
    }
  },
  {
    rule: `media_category required, one of ${mediaCategories.join(", ")}`,
    source: `${schema("MediaUploadRequest")}/properties/media_category`,
    check: (body) => {
      const category = field(body, "media_category")
      return category === undefined ? "media_category is required." : enumOf("media_category", category, mediaCategories)
    }
  }
])

const initializeCategories = ["amplify_video", ...mediaCategories]
const mediaTypes = [
  "video/mp4",
  "video/webm",
  "video/mp2t",
  "video/quicktime",
  "text/srt",
  "text/vtt",
  "image/jpeg",
  "image/gif",
  "image/bmp",
  "image/png",
  "image/webp",
  "image/pjpeg",
  "image/tiff",
  "model/gltf-binary",
  "model/vnd.usdz+zip"
]

/** `POST /2/media/upload/initialize` over its JSON body. */
export const initializeUpload = SimulatorRules.call<unknown>("POST /2/media/upload/initialize", [
  jsonObject("/2/media/upload/initialize"),
  {
    rule: "only the fields InitializeMediaUploadRequest lists",
    source: schema("InitializeMediaUploadRequest"),
    check: onlyFields("", ["additional_owners", "media_category", "media_type", "shared", "total_bytes"])
  },
  {
    rule: "media_type one of the 15 types the schema lists (video/mp4, image/jpeg, …)",
    source: `${schema("InitializeMediaUploadRequest")}/properties/media_type`,
    check: (body) => enumOf("media_type", field(body, "media_type"), mediaTypes)
  },
  {
    rule: `media_category one of ${initializeCategories.join(", ")}`,
    source: `${schema("InitializeMediaUploadRequest")}/properties/media_category`,
    check: (body) => enumOf("media_category", field(body, "media_category"), initializeCategories)
  },
  {
    rule: `total_bytes an integer from 0 to ${upload.maxTotalBytes}`,
    source: `${schema("InitializeMediaUploadRequest")}/properties/total_bytes`,
    check: (body) => {
      const total = field(body, "total_bytes")
      return total === undefined || (Number.isInteger(total) && (total as number) >= 0 && (total as number) <= upload.maxTotalBytes)
        ? undefined
        : `total_bytes must be an integer from 0 to ${upload.maxTotalBytes}.`
    }
  }
])

/** What the simulator reads of an append: the form's or JSON's fields, counted, not kept. */
export interface Append {
  /** The body was larger than any chunk X takes, and was read no further. */
  readonly tooLarge: boolean
  readonly mediaId: string
  readonly segmentIndex: unknown
  /** The bytes of `media`; undefined when the body carries none. */
  readonly mediaBytes: number | undefined
  /** Fields other than `media` and `segment_index`. */
  readonly otherFields: ReadonlyArray<string>
}

/** `POST /2/media/upload/{id}/append`, a form (`media` binary) or JSON (`media` base64). */
export const appendUpload = SimulatorRules.call<Append>("POST /2/media/upload/{id}/append", [
  {
    rule: `a chunk of at most ${upload.maxChunkBytes} bytes, raw or base64`,
    source: "https://developer.x.com/en/docs/twitter-api/v1/media/upload-media/api-reference/post-media-upload-append",
    check: (append) => append.tooLarge ? `The media segment must be at most ${upload.maxChunkBytes} bytes.` : undefined
  },
  {
    rule: "the media id in the path 1 to 19 digits",
    source: parameter("/2/media/upload/{id}/append", "post", "id"),
    check: (append) => pattern("id", append.mediaId)
  },
  {
    rule: "only media and segment_index (AppendMediaUploadRequest)",
    source: schema("AppendMediaUploadRequest"),
    check: (append) => append.otherFields[0] === undefined ? undefined : `${append.otherFields[0]} is not a known parameter.`
  },
  {
    rule: "media required and not empty",
    source: `${schema("AppendMediaUploadRequest")}/properties/media`,
    check: (append) => append.mediaBytes === undefined || append.mediaBytes === 0 ? "media is required." : undefined
  },
  {
    rule: `segment_index required, an integer from 0 to ${upload.maxSegments - 1}`,
    source: `${schema("AppendMediaUploadRequest")}/properties/segment_index`,
    check: ({ segmentIndex }) => {
      const index = typeof segmentIndex === "string" && /^[0-9]+$/.test(segmentIndex) ? Number(segmentIndex) : segmentIndex
      return Number.isInteger(index) && (index as number) >= 0 && (index as number) < upload.maxSegments
        ? undefined
        : `segment_index must be an integer from 0 to ${upload.maxSegments - 1}.`
    }
  }
])

/** `POST /2/media/upload/{id}/finalize` over the id in its path. */
export const finalizeUpload = SimulatorRules.call<string>("POST /2/media/upload/{id}/finalize", [{
  rule: "the media id in the path 1 to 19 digits",
  source: parameter("/2/media/upload/{id}/finalize", "post", "id"),
  check: (mediaId) => pattern("id", mediaId)
}])

/** `GET /2/media/upload`, an upload's status, over its query. */
export const uploadStatus = SimulatorRules.call<Readonly<Record<string, string>>>("GET /2/media/upload", [
  {
    rule: "media_id required, 1 to 19 digits",
    source: parameter("/2/media/upload", "get", "media_id"),
    check: (query) => query["media_id"] === undefined ? "media_id is required." : pattern("media_id", query["media_id"])
  },
  {
    rule: "command, when given, STATUS",
    source: parameter("/2/media/upload", "get", "command"),
    check: (query) => enumOf("command", query["command"], ["STATUS"])
  }
])

/** `POST /2/media/metadata` over its JSON body. */
export const mediaMetadata = SimulatorRules.call<unknown>("POST /2/media/metadata", [
  jsonObject("/2/media/metadata"),
  {
    rule: "id required, 1 to 19 digits",
    source: `${schema("CreateMediaMetadataRequest")}/properties/id`,
    check: (body) => field(body, "id") === undefined ? "id is required." : pattern("id", field(body, "id"))
  },
  {
    rule: "metadata.alt_text an object with text, a string",
    source: schema("CreateMediaMetadataMetadataAltText"),
    check: (body) => {
      const altText = field(body, "metadata", "alt_text")
      if (altText === undefined) return undefined
      return typeof field(altText, "text") === "string" ? undefined : "metadata.alt_text.text is required."
    }
  },
  {
    rule: "metadata.alt_text.text of at most 1,000 characters",
    source: `${schema("CreateMediaMetadataMetadataAltText")}/properties/text`,
    check: (body) => {
      const text = field(body, "metadata", "alt_text", "text")
      return typeof text === "string" && Array.from(text).length > 1_000
        ? "alt_text.text must be at most 1000 characters."
        : undefined
    }
  }
])
