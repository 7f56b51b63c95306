import { SimulatorRules } from "@herald/adapter-kit"
import { limits } from "../YouTubeLimits.ts"
import {
  type Answer,
  badRequest,
  call,
  docs,
  isObject,
  isString,
  mediaType,
  parts,
  type Query,
  resumable,
  type Rule,
  tooLarge,
  unsupported,
  videoParts
} from "./rules.ts"

/**
 * The rules of `videos.insert`, the start of a resumable upload: the video resource (title, description,
 * tags, category, privacy) and the upload headers that announce the file.
 */

/** `videos.insert` as the resumable session's start reads it: the query, the upload headers, the video resource. */
export interface Insert extends Query {
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly body: unknown
}

const videos = `${docs}/videos`
const insertPage = `${docs}/videos/insert`
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
