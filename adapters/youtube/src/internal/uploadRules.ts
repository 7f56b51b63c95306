import { badRequest, call, docs, mediaType, type Query, resumable, tooLarge, unsupported } from "./rules.ts"

/** The rules on media bytes: the resumable upload's `PUT` of the video and `thumbnails.set`'s image. */

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
