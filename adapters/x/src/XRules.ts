import type { SimulatorRules } from "@herald/adapter-kit"
import { appendUpload, finalizeUpload, initializeUpload, mediaMetadata, uploadMedia, uploadStatus } from "./internal/mediaRules.ts"
import { sendMessage } from "./internal/messageRules.ts"
import { createPost } from "./internal/postRules.ts"

/**
 * What X refuses of the requests Herald makes, as X's simulator holds it. Every request schema rule is read
 * from X's OpenAPI document of the API v2, `specs/openapi.json` of https://github.com/xdevplatform/xdk
 * (version 2.167, the file's last commit 489c3f0 of 2026-07-21; read 2026-12-03), which states what each body
 * may carry (`additionalProperties: false`), its required fields, patterns, counts and enums; the document
 * states no fields as mutually exclusive in `CreatePostsRequest`. The rest comes from X's pages, each named.
 * X answers a broken rule with its problem JSON (`InvalidRequestProblem`: 400, `type`
 * `https://api.x.com/2/problems/invalid-request`), the over-long text with a 403 (`tooLong`).
 *
 * The rules are split by what they check: the post and its text (`internal/postRules.ts`), media
 * (`internal/mediaRules.ts`) and direct messages (`internal/messageRules.ts`), over the shared checks of
 * `internal/ruleChecks.ts`; this table puts them together.
 */

export * from "./internal/mediaRules.ts"
export * from "./internal/messageRules.ts"
export * from "./internal/postRules.ts"

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
