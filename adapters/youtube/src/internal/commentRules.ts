import { SimulatorRules } from "@herald/adapter-kit"
import { badRequest, call, docs, isString, parts, type Query } from "./rules.ts"

/** The rules of `comments.insert`, a reply from the inbox. */

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
