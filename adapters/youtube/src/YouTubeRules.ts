import { SimulatorRules } from "@herald/adapter-kit"
import { limits } from "./YouTubeLimits.ts"

/**
 * What YouTube refuses of the requests Herald makes, as the simulator holds it: one table, each rule with the
 * page that states it and Google's answer (`{ error: { code, message, errors: [{ message, domain, reason }],
 * status } }`). Transcribed from the YouTube Data API v3 reference pages and the resumable upload guide,
 * read 2026-12-03 in stored copies of developers.google.com (the pages carry no version; one copy of
 * comments.insert says "last updated 2024-04-26" at its foot). The reasons are those of each method's
 * "Errors" table; the media checks (`badContent`, `uploadTooLarge`) and the parameter checks (`required`,
 * `unknownPart`) are answered by Google's API front end, which no page tabulates: their words follow what
 * Google's front end answers for every API.
 */

export interface Answer {
  readonly status: number
  readonly reason: string
  readonly domain: string
  /** The `error.status` Google adds: INVALID_ARGUMENT, PERMISSION_DENIED, … */
  readonly statusText: string
}

/** A rule with Google's answer to a request that breaks it. */
export type Rule<Input> = SimulatorRules.Rule<Input> & { readonly answer: Answer }

export type Call<Input> = SimulatorRules.Call<Input, Rule<Input>>

const call = <Input>(name: string, rules: ReadonlyArray<Rule<Input>>): Call<Input> => SimulatorRules.call(name, rules)

const docs = "https://developers.google.com/youtube/v3/docs"
const resumable = "https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol"

const badRequest = (reason: string, domain = "youtube.video"): Answer => ({ status: 400, reason, domain, statusText: "INVALID_ARGUMENT" })
const tooLarge: Answer = { status: 413, reason: "uploadTooLarge", domain: "global", statusText: "FAILED_PRECONDITION" }

/** A request's query, as every call's rules read it. */
export interface Query {
  readonly query: Readonly<Record<string, string | undefined>>
}

/** `part` is required, and each of its comma-separated names is one the method lists. */
const parts = <Input extends Query>(method: string, names: ReadonlyArray<string>): ReadonlyArray<Rule<Input>> => [
  {
    rule: "`part` is given",
    source: `${docs}/${method}#parameters`,
    answer: badRequest("required", "global"),
    check: ({ query }) => (query["part"] ?? "") === "" ? "Required parameter: part" : undefined
  },
  {
    rule: `each \`part\` is one of ${names.join(", ")}`,
    source: `${docs}/${method}#parameters`,
    answer: badRequest("unknownPart", "youtube.part"),
    check: ({ query }) => {
      const unknown = (query["part"] ?? "").split(",").find((part) => part !== "" && !names.includes(part.trim()))
      return unknown === undefined ? undefined : `'${unknown}'`
    }
  }
]

/** A list call needs one of its filters. */
const filter = <Input extends Query>(method: string, names: ReadonlyArray<string>): Rule<Input> => ({
  rule: `one of the filters ${names.join(", ")} is given`,
  source: `${docs}/${method}#parameters`,
  answer: badRequest("missingRequiredParameter", "youtube.parameter"),
  check: ({ query }) =>
    names.some((name) => query[name] !== undefined) ? undefined : `No filter selected. Expected one of: ${names.join(", ")}`
})

/** A media type without its parameters (`image/png; charset=binary` is `image/png`). */
const mediaType = (value: string | undefined) => (value ?? "").split(";")[0]!.trim().toLowerCase()

const unsupported = (type: string, accepted: ReadonlyArray<string>) =>
  `Media type '${type}' is not supported. Valid media types: [${accepted.join(", ")}]`

/** `videos.insert` as the resumable session's start reads it: the query, the upload headers, the video resource. */
export interface Insert extends Query {
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly body: unknown
}

const videos = `${docs}/videos`
const insertPage = `${docs}/videos/insert`
const isObject = (value: unknown) => typeof value === "object" && value !== null && !Array.isArray(value)
const angle = /[<>]/

/** A rule on a field of the video resource, which may be absent unless `required`; a body that is no object has its own rule. */
const field = (
  path: string,
  rule: string,
  source: string,
  answer: Answer,
  message: string,
  accepts: (value: unknown) => boolean,
  required = false
): Rule<Insert> => ({
  rule: `\`${path}\` ${rule}`,
  source,
  answer,
  check: ({ body }) => {
    if (!isObject(body)) return undefined
    const value = SimulatorRules.at(body, path)
    if (value === undefined) return required ? message : undefined
    return accepts(value) ? undefined : message
  }
})

const invalidTitle = badRequest("invalidTitle")
const titleMessage = "The request metadata specifies an invalid or empty video title."
const invalidDescription = badRequest("invalidDescription")
const descriptionMessage = "The request metadata specifies an invalid video description."
const isString = (value: unknown): value is string => typeof value === "string"

/**
 * How YouTube counts `snippet.tags` against its 500: the tags joined by commas, a tag with a space counted
 * with the quotation marks the server wraps it in.
 */
export const tagsLength = (tags: ReadonlyArray<string>) =>
  tags.reduce((total, tag) => total + [...tag].length + (tag.includes(" ") ? 2 : 0), Math.max(tags.length - 1, 0))

/**
 * The categories a video can be put in (`assignable`) as videoCategories.list answers them for the United
 * States; the list varies a little by region, and the sandbox holds this one.
 */
export const assignableCategories = ["1", "2", "10", "15", "17", "19", "20", "22", "23", "24", "25", "26", "27", "28", "29"]

const videoTypes = ["video/*", "application/octet-stream"]

/** The parts of a video resource, which videos.insert and videos.list both name. */
const videoParts = [
  "contentDetails",
  "fileDetails",
  "id",
  "liveStreamingDetails",
  "localizations",
  "paidProductPlacementDetails",
  "player",
  "processingDetails",
  "recordingDetails",
  "snippet",
  "statistics",
  "status",
  "suggestions",
  "topicDetails"
]

export const insertVideo = call<Insert>("POST /upload/youtube/v3/videos (videos.insert)", [
  ...parts<Insert>("videos/insert", videoParts),
  {
    rule: "the body is a video resource (a JSON object)",
    source: `${insertPage}#request-body`,
    answer: badRequest("parseError", "global"),
    check: ({ body }) => isObject(body) ? undefined : "Parse Error"
  },
  field("snippet.title", "is given, a string that is not blank", `${videos}#snippet.title`, invalidTitle, titleMessage, (value) =>
    isString(value) && value.trim() !== "", true),
  field("snippet.title", "is at most 100 characters", `${videos}#snippet.title`, invalidTitle, titleMessage, (value) =>
    !isString(value) || [...value].length <= limits.forms.post.title.max),
  field("snippet.title", "has no < or >", `${videos}#snippet.title`, invalidTitle, titleMessage, (value) =>
    !isString(value) || !angle.test(value)),
  field(
    "snippet.description",
    `is a string of at most ${limits.forms.post.text.max} bytes in UTF-8`,
    `${videos}#snippet.description`,
    invalidDescription,
    descriptionMessage,
    (value) => isString(value) && Buffer.byteLength(value) <= limits.forms.post.text.max
  ),
  field("snippet.description", "has no < or >", `${videos}#snippet.description`, invalidDescription, descriptionMessage, (value) =>
    !isString(value) || !angle.test(value)),
  field(
    "snippet.tags",
    "is a list of strings of at most 500 characters in all (commas between them count, and quotes around a tag with a space)",
    `${videos}#snippet.tags[]`,
    badRequest("invalidTags"),
    "The request metadata specifies invalid video keywords.",
    (value) => Array.isArray(value) && value.every(isString) && tagsLength(value) <= 500
  ),
  field(
    "snippet.categoryId",
    "is the id of a category videos can be put in (videoCategories.list, assignable)",
    `${videos}#snippet.categoryId`,
    badRequest("invalidCategoryId"),
    "The snippet.categoryId property specifies an invalid category ID. Use the videoCategories.list method to retrieve supported categories.",
    (value) => isString(value) && assignableCategories.includes(value)
  ),
  field(
    "status.privacyStatus",
    "is public, private or unlisted",
    `${videos}#status.privacyStatus`,
    { status: 403, reason: "forbiddenPrivacySetting", domain: "youtube.video", statusText: "PERMISSION_DENIED" },
    "The request attempts to set an invalid privacy setting for the video.",
    (value) => value === "public" || value === "private" || value === "unlisted"
  ),
  field(
    "status.selfDeclaredMadeForKids",
    "is a boolean",
    `${videos}#status.selfDeclaredMadeForKids`,
    badRequest("invalidVideoMetadata"),
    "The request metadata is invalid.",
    (value) => typeof value === "boolean"
  ),
  {
    rule: "`X-Upload-Content-Type`, when sent, is video/* or application/octet-stream",
    source: insertPage,
    answer: badRequest("badContent", "global"),
    check: ({ headers }) => {
      const type = mediaType(headers["x-upload-content-type"])
      return type === "" || type.startsWith("video/") || type === "application/octet-stream" ? undefined : unsupported(type, videoTypes)
    }
  },
  {
    rule: "`X-Upload-Content-Length` is the video's size, a whole number of bytes above zero",
    source: `${resumable}#Start_Resumable_Session`,
    answer: badRequest("mediaBodyRequired"),
    check: ({ headers }) => /^[1-9]\d*$/.test(headers["x-upload-content-length"] ?? "") ? undefined : "The request does not include the video content."
  },
  {
    rule: `\`X-Upload-Content-Length\` is at most ${limits.forms.post.media.maxVideoBytes} bytes (256 GB)`,
    source: insertPage,
    answer: tooLarge,
    check: ({ headers }) =>
      Number(headers["x-upload-content-length"] ?? 0) > limits.forms.post.media.maxVideoBytes
        ? `Media larger than: ${limits.forms.post.media.maxVideoBytes}`
        : undefined
  }
])

/** A `PUT` to a resumable session: its `Content-Range`, the bytes its body carried, and the announced size. */
export interface Upload {
  readonly contentRange: string | undefined
  readonly bytes: number
  readonly announced: number
}

/** Whether a `Content-Range` only asks where the upload stands (`bytes *\/{total}`). */
export const isProbe = (contentRange: string | undefined) => contentRange?.startsWith("bytes */") ?? false

export const uploadBytes = call<Upload>("PUT {session URI} (the upload)", [
  {
    rule: "`Content-Range`, when sent, is `bytes */{total}` or `bytes {first}-{last}/{total}`, its total the announced size and its range the body's bytes",
    source: `${resumable}#Upload_Video_File`,
    answer: badRequest("badRequest", "global"),
    check: ({ contentRange, bytes, announced }) => {
      if (contentRange === undefined) return undefined
      const match = /^bytes (?:\*|(\d+)-(\d+))\/(\d+)$/.exec(contentRange.trim())
      const fits = match !== null && Number(match[3]) === announced &&
        (match[1] === undefined || Number(match[2]) - Number(match[1]) + 1 === bytes)
      return fits ? undefined : "Failed to parse Content-Range header."
    }
  },
  {
    rule: "the body carries the announced `X-Upload-Content-Length` bytes (the sandbox takes an upload in one request)",
    source: `${resumable}#Upload_Video_File`,
    answer: badRequest("badContent", "global"),
    check: ({ contentRange, bytes, announced }) =>
      isProbe(contentRange) || bytes === announced ? undefined : `Expected ${announced} bytes, got ${bytes}.`
  }
])

/** `thumbnails.set`: its query, the image's media type and its size (at least the bound, when over it). */
export interface Thumbnail extends Query {
  readonly contentType: string | undefined
  readonly bytes: number
}

const thumbnailPage = `${docs}/thumbnails/set`
const imageTypes = ["image/jpeg", "image/png", "application/octet-stream"]

/** The largest thumbnail thumbnails.set takes: "Maximum file size: 2MB". */
export const maxThumbnailBytes = 2 * 1024 * 1024

export const setThumbnail = call<Thumbnail>("POST /upload/youtube/v3/thumbnails/set (thumbnails.set)", [
  {
    rule: "`videoId` is given",
    source: `${thumbnailPage}#parameters`,
    answer: badRequest("required", "global"),
    check: ({ query }) => (query["videoId"] ?? "") === "" ? "Required parameter: videoId" : undefined
  },
  {
    rule: "the body holds the image",
    source: `${thumbnailPage}#errors`,
    answer: badRequest("mediaBodyRequired", "youtube.thumbnail"),
    check: ({ bytes }) => bytes > 0 ? undefined : "The request does not include the image content."
  },
  {
    rule: "the image is image/jpeg, image/png or application/octet-stream",
    source: thumbnailPage,
    answer: badRequest("badContent", "global"),
    check: ({ contentType }) => {
      const type = mediaType(contentType)
      return imageTypes.includes(type) ? undefined : unsupported(type, imageTypes)
    }
  },
  {
    rule: `the image is at most 2 MB (${maxThumbnailBytes} bytes)`,
    source: thumbnailPage,
    answer: tooLarge,
    check: ({ bytes }) => bytes > maxThumbnailBytes ? `Media larger than: ${maxThumbnailBytes}` : undefined
  }
])

/** `comments.insert`: its query and the comment resource. */
export interface CommentInsert extends Query {
  readonly body: unknown
}

const commentsInsert = `${docs}/comments/insert`

/** The longest reply the sandbox takes; the page names the error (`commentTextTooLong`) but no number. */
export const maxCommentCharacters = 10_000

export const insertComment = call<CommentInsert>("POST /youtube/v3/comments (comments.insert)", [
  ...parts<CommentInsert>("comments/insert", ["id", "snippet"]),
  {
    rule: "`snippet.parentId` is given",
    source: `${commentsInsert}#request-body`,
    answer: badRequest("parentIdMissing", "youtube.comment"),
    check: ({ body }) => isString(SimulatorRules.at(body, "snippet.parentId")) ? undefined : "No parent ID specified."
  },
  {
    rule: "`snippet.textOriginal` is given and not blank",
    source: `${commentsInsert}#errors`,
    answer: badRequest("commentTextRequired", "youtube.comment"),
    check: ({ body }) => {
      const text = SimulatorRules.at(body, "snippet.textOriginal")
      return isString(text) && text.trim() !== "" ? undefined : "The comment resource must contain a snippet.textOriginal property."
    }
  },
  {
    rule: `\`snippet.textOriginal\` is at most ${maxCommentCharacters} characters`,
    source: `${commentsInsert}#errors`,
    answer: badRequest("commentTextTooLong", "youtube.comment"),
    check: ({ body }) => {
      const text = SimulatorRules.at(body, "snippet.textOriginal")
      return isString(text) && [...text].length > maxCommentCharacters ? "The comment text is too long." : undefined
    }
  }
])

const list = (name: string, method: string, names: ReadonlyArray<string>, filters: ReadonlyArray<string>) =>
  call<Query>(`GET /youtube/v3/${name} (${name}.list)`, [...parts<Query>(method, names), filter<Query>(method, filters)])

export const listChannels = list("channels", "channels/list", [
  "auditDetails",
  "brandingSettings",
  "contentDetails",
  "contentOwnerDetails",
  "id",
  "localizations",
  "snippet",
  "statistics",
  "status",
  "topicDetails"
], ["categoryId", "forHandle", "forUsername", "id", "managedByMe", "mine"])

export const listVideos = list("videos", "videos/list", videoParts, ["chart", "id", "myRated"])

export const listPlaylistItems = list("playlistItems", "playlistItems/list", ["contentDetails", "id", "snippet", "status"], [
  "id",
  "playlistId"
])

export const listCommentThreads = list("commentThreads", "commentThreads/list", ["id", "replies", "snippet"], [
  "allThreadsRelatedToChannelId",
  "channelId",
  "id",
  "videoId"
])

export const listComments = list("comments", "comments/list", ["id", "snippet"], ["id", "parentId"])

/** Every call the simulator checks, in the order the README shows them. */
export const rules: SimulatorRules.Table = [
  insertVideo,
  uploadBytes,
  setThumbnail,
  insertComment,
  listChannels,
  listVideos,
  listPlaylistItems,
  listCommentThreads,
  listComments
]
