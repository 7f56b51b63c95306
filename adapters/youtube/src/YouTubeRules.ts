import type { SimulatorRules } from "@herald/adapter-kit"
import { insertComment } from "./internal/commentRules.ts"
import { listChannels, listComments, listCommentThreads, listPlaylistItems, listVideos } from "./internal/listRules.ts"
import { setThumbnail, uploadBytes } from "./internal/uploadRules.ts"
import { insertVideo } from "./internal/videoRules.ts"

/**
 * What YouTube refuses of the requests Herald makes, as the simulator holds it: one table, each rule with the
 * page that states it and Google's answer (`{ error: { code, message, errors: [{ message, domain, reason }],
 * status } }`). Transcribed from the YouTube Data API v3 reference pages and the resumable upload guide,
 * read 2026-12-03 in stored copies of developers.google.com (the pages carry no version; one copy of
 * comments.insert says "last updated 2024-04-26" at its foot). The reasons are those of each method's
 * "Errors" table; the media checks (`badContent`, `uploadTooLarge`) and the parameter checks (`required`,
 * `unknownPart`) are answered by Google's API front end, which no page tabulates: their words follow what
 * Google's front end answers for every API.
 *
 * The rules are split by call: the video resource (`internal/videoRules.ts`), the bytes of a video or
 * thumbnail (`internal/uploadRules.ts`), replies (`internal/commentRules.ts`) and the list calls
 * (`internal/listRules.ts`), over what they share (`internal/rules.ts`); this table puts them together.
 */

export type { Answer, Call, Query, Rule } from "./internal/rules.ts"
export * from "./internal/commentRules.ts"
export * from "./internal/listRules.ts"
export * from "./internal/uploadRules.ts"
export * from "./internal/videoRules.ts"

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
