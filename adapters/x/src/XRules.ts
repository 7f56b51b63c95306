import { SimulatorRules, TextCounter } from "@herald/adapter-kit"
import { upload } from "./XLimits.ts"

/**
 * What X refuses of the requests Herald makes, as X's simulator holds it. Every request schema rule is read
 * from X's OpenAPI document of the API v2, `specs/openapi.json` of https://github.com/xdevplatform/xdk
 * (version 2.167, the file's last commit 489c3f0 of 2026-07-21; read 2026-12-03), which states what each body
 * may carry (`additionalProperties: false`), its required fields, patterns, counts and enums; the document
 * states no fields as mutually exclusive in `CreatePostsRequest`. The rest comes from X's pages, each named.
 * X answers a broken rule with its problem JSON (`InvalidRequestProblem`: 400, `type`
 * `https://api.x.com/2/problems/invalid-request`), the over-long text with a 403 (`tooLong` below).
 */

const spec = "xdevplatform/xdk specs/openapi.json"
const schema = (name: string) => `${spec} #/components/schemas/${name}`
/** A JSON pointer into the document's paths: `/2/tweets` is `~12~1tweets`. */
const operation = (path: string, method: "get" | "post") => `${spec} #/paths/${path.replaceAll("/", "~1")}/${method}`
const parameter = (path: string, method: "get" | "post", name: string) => `${operation(path, method)}/parameters (${name})`

/** X's ids (`MediaId`, `TweetId`, …): 1 to 19 digits. */
const id = /^[0-9]{1,19}$/

type Json = Readonly<Record<string, unknown>>

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

/** The first field of `value` its schema does not list (`additionalProperties: false`); undefined when none. */
const unlisted = (value: unknown, fields: ReadonlyArray<string>) =>
  isObject(value) ? Object.keys(value).find((key) => !fields.includes(key)) : undefined

const onlyFields = (where: string, fields: ReadonlyArray<string>) => (value: unknown) => {
  const extra = unlisted(value, fields)
  return extra === undefined ? undefined : `${where === "" ? "" : `${where}.`}${extra} is not a known parameter.`
}

const field = (body: unknown, ...path: ReadonlyArray<string>): unknown =>
  path.reduce<unknown>((value, key) => (isObject(value) ? value[key] : undefined), body)

const wrongType = (name: string, value: unknown, type: "string" | "object" | "array" | "integer") => {
  if (value === undefined) return undefined
  const fits = type === "array"
    ? Array.isArray(value)
    : type === "object"
    ? isObject(value)
    : type === "integer"
    ? Number.isInteger(value)
    : typeof value === type
  return fits ? undefined : `${name} must be a${type === "integer" || type === "object" || type === "array" ? "n" : ""} ${type}.`
}

const enumOf = (name: string, value: unknown, values: ReadonlyArray<string>) =>
  value === undefined || values.includes(value as string) ? undefined : `${name} must be one of ${values.join(", ")}.`

const pattern = (name: string, value: unknown) =>
  value === undefined || (typeof value === "string" && id.test(value)) ? undefined : `${name} must match ^[0-9]{1,19}$.`

/** A body that is not a JSON object: each of these calls requires an `application/json` object body. */
const jsonObject = (path: string): SimulatorRules.Rule<unknown> => ({
  rule: "a JSON object body",
  source: `${operation(path, "post")}/requestBody`,
  check: (body) => isObject(body) ? undefined : "The request body is not a JSON object."
})

const tweetFields = [
  "card_uri",
  "community_id",
  "direct_message_deep_link",
  "edit_options",
  "for_super_followers_only",
  "geo",
  "made_with_ai",
  "media",
  "nullcast",
  "paid_partnership",
  "poll",
  "quote_tweet_id",
  "reply",
  "reply_settings",
  "share_with_followers",
  "text"
]

/** The longest text X takes, weighted as X's twitter-text counts it (a link 23, CJK and emoji 2). */
export const maxWeightedLength = 280

/** The one rule X answers with 403 Forbidden, `Your Tweet text is too long.`, rather than an invalid request. */
export const tooLong: SimulatorRules.Rule<unknown> = {
  rule: `text of at most ${maxWeightedLength} weighted characters (a link 23, CJK and emoji 2)`,
  source: "https://docs.x.com/resources/fundamentals/counting-characters",
  check: (body) => {
    const text = field(body, "text")
    return typeof text === "string" && TextCounter.count(text, "x-weighted") > maxWeightedLength
      ? "Your Tweet text is too long."
      : undefined
  }
}

/** `POST /2/tweets` over its JSON body. */
export const createPost = SimulatorRules.call<unknown>("POST /2/tweets", [
  jsonObject("/2/tweets"),
  {
    rule: "only the fields CreatePostsRequest lists",
    source: schema("CreatePostsRequest"),
    check: onlyFields("", tweetFields)
  },
  {
    rule: "text a string",
    source: `${schema("CreatePostsRequest")}/properties/text`,
    check: (body) => wrongType("text", field(body, "text"), "string")
  },
  {
    rule: "text, unless media is provided",
    source: `${schema("CreatePostsRequest")}/properties/text`,
    check: (body) => {
      const text = field(body, "text")
      return (typeof text !== "string" || text.trim() === "") && field(body, "media") === undefined
        ? "Text or media is required."
        : undefined
    }
  },
  tooLong,
  {
    rule: "media an object with media_ids and only the fields CreatePostsMedia lists",
    source: schema("CreatePostsMedia"),
    check: (body) => {
      const media = field(body, "media")
      if (media === undefined) return undefined
      if (!isObject(media) || media["media_ids"] === undefined) return "media.media_ids is required."
      return onlyFields("media", [
        "call_to_actions",
        "description",
        "embeddable",
        "media_ids",
        "preview_media_id",
        "tagged_user_ids",
        "title"
      ])(media)
    }
  },
  {
    rule: "media.media_ids an array of 1 to 4 ids",
    source: `${schema("CreatePostsMedia")}/properties/media_ids`,
    check: (body) => {
      const ids = field(body, "media", "media_ids")
      if (ids === undefined) return undefined
      return Array.isArray(ids) && ids.length >= 1 && ids.length <= 4
        ? undefined
        : "media.media_ids must hold 1 to 4 items."
    }
  },
  {
    rule: "each of media.media_ids 1 to 19 digits",
    source: `${schema("CreatePostsMedia")}/properties/media_ids/items`,
    check: (body) => {
      const ids = field(body, "media", "media_ids")
      return Array.isArray(ids) ? ids.map((each) => pattern("media.media_ids", each ?? null)).find((message) => message !== undefined) : undefined
    }
  },
  {
    rule: "reply an object with in_reply_to_tweet_id and only the fields CreatePostsReply lists",
    source: schema("CreatePostsReply"),
    check: (body) => {
      const reply = field(body, "reply")
      if (reply === undefined) return undefined
      if (!isObject(reply) || reply["in_reply_to_tweet_id"] === undefined) return "reply.in_reply_to_tweet_id is required."
      return onlyFields("reply", ["auto_populate_reply_metadata", "exclude_reply_user_ids", "in_reply_to_tweet_id"])(reply)
    }
  },
  {
    rule: "reply.in_reply_to_tweet_id 1 to 19 digits",
    source: `${schema("CreatePostsReply")}/properties/in_reply_to_tweet_id`,
    check: (body) => pattern("reply.in_reply_to_tweet_id", field(body, "reply", "in_reply_to_tweet_id"))
  }
])

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

/** `POST /2/dm_conversations/{dm_conversation_id}/messages` over its JSON body. */
export const sendMessage = SimulatorRules.call<unknown>("POST /2/dm_conversations/{dm_conversation_id}/messages", [
  jsonObject("/2/dm_conversations/{dm_conversation_id}/messages"),
  {
    rule: "only text and attachments (CreateDirectMessagesByConversationIdRequest)",
    source: schema("CreateDirectMessagesByConversationIdRequest"),
    check: onlyFields("", ["attachments", "text"])
  },
  {
    rule: "at least one of text and attachments",
    source: schema("CreateDirectMessagesByConversationIdRequest"),
    check: (body) =>
      field(body, "text") === undefined && field(body, "attachments") === undefined
        ? "At least one of text, attachments is required."
        : undefined
  },
  {
    rule: "text a string of at least 1 character",
    source: `${schema("CreateDirectMessagesByConversationIdRequest")}/properties/text`,
    check: (body) => {
      const text = field(body, "text")
      return text === undefined || (typeof text === "string" && text.length >= 1) ? undefined : "text must be at least 1 character."
    }
  },
  {
    rule: "attachments an array of objects whose media_id is 1 to 19 digits",
    source: schema("CreateDirectMessagesByConversationIdAttachments"),
    check: (body) => {
      const attachments = field(body, "attachments")
      if (attachments === undefined) return undefined
      if (!Array.isArray(attachments)) return "attachments must be an array."
      return attachments
        .map((each) => onlyFields("attachments", ["media_id"])(each) ?? pattern("attachments.media_id", field(each, "media_id") ?? null))
        .find((message) => message !== undefined)
    }
  }
])

/** Every call X's simulator checks, in the order the README shows them. */
export const rules: SimulatorRules.Table = [
  createPost,
  uploadMedia,
  initializeUpload,
  appendUpload,
  finalizeUpload,
  uploadStatus,
  mediaMetadata,
  sendMessage
]
