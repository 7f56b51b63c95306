import { Simulator, type SimulatorState } from "@herald/adapter-kit"
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import * as LinkedInRules from "../LinkedInRules.ts"
import * as LittleText from "./littleText.ts"
import * as Request from "./request.ts"
import { body, CommentRequest, defaultCount, failure, forbidden, maxCount, pathParam, wholeNumber, wireComment } from "./simulatorRest.ts"

/**
 * The LinkedIn simulator's Comments API (`/rest/socialActions/{post or comment}/comments`,
 * https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/comments-api): listing a
 * post's comments or a comment's replies, and commenting, which goes into the post owner's inbox.
 */
export const make = ({ state, triggered }: {
  readonly state: SimulatorState.SimulatorState
  readonly triggered: (text: string, accountId: string) => HttpServerResponse.HttpServerResponse | undefined
}) => {
  /**
   * The path's target: a post, or a comment (`urn:li:comment:(post,id)`) for its replies. Answers the post
   * and the comment, or LinkedIn's 404 when either is unknown.
   */
  const commentTarget = (target: string) => {
    const reference = Request.parseCommentUrn(target)
    const post = state.posts.get(reference?.postUrn ?? target)
    const parent = reference === undefined ? undefined : state.comments.get(reference.commentId)
    if (post === undefined || (reference !== undefined && parent?.postId !== post.id)) {
      return { _tag: "Missing" as const, response: failure(404, `${target} not found`, { code: "NOT_FOUND" }) }
    }
    return { _tag: "Found" as const, post, parent }
  }

  /** `GET /rest/socialActions/{post or comment}/comments`: first-level comments of a post, or a comment's replies. */
  const listComments = (account: SimulatorState.SimulatedAccount) =>
    Effect.gen(function*() {
      const target = commentTarget(yield* pathParam("target"))
      if (target._tag === "Missing") return target.response
      if (target.post.accountId !== account.id) return forbidden("socialActions.comments.FINDER")
      const query = yield* Simulator.query
      const start = wholeNumber(query["start"], 0)
      const count = wholeNumber(query["count"], defaultCount)
      if (start === undefined || count === undefined) {
        return failure(400, "start and count must be whole numbers", { code: "ILLEGAL_ARGUMENT" })
      }
      const onPost = state.commentsAfter(account.id, 0).filter((comment) => comment.postId === target.post.id)
      const parentId = target.parent?.id ?? null
      const listed = onPost.filter((comment) => comment.replyTo === parentId)
      const page = Math.min(count, maxCount)
      return Simulator.json({
        paging: { start, count: page, total: listed.length, links: [] },
        elements: listed.slice(start, start + page).map((comment) =>
          wireComment(comment, onPost.filter((reply) => reply.replyTo === comment.id).length)
        )
      })
    })

  /**
   * `POST /rest/socialActions/{post or comment}/comments`: a comment on a post, or a reply to a first-level
   * comment, which names it again in `parentComment`. It goes into the post owner's inbox.
   */
  const createComment = (account: SimulatorState.SimulatedAccount) =>
    Effect.gen(function*() {
      const path = yield* pathParam("target")
      const decoded = yield* body(LinkedInRules.createComment, account, CommentRequest)
      if (decoded._tag === "Refused") return decoded.response
      const comment = decoded.value
      const target = commentTarget(path)
      if (target._tag === "Missing") return target.response
      if (comment.object !== target.post.id) {
        return failure(400, `object must be the post ${target.post.id}`, { code: "ILLEGAL_ARGUMENT" })
      }
      if (comment.parentComment !== (target.parent === undefined ? undefined : path)) {
        return failure(400, "parentComment must name the comment in the path, and only then", { code: "ILLEGAL_ARGUMENT" })
      }
      if (target.parent !== undefined && target.parent.replyTo !== null) {
        return failure(400, "Replies are two levels deep: reply to the first-level comment", { code: "ILLEGAL_ARGUMENT" })
      }
      const text = LittleText.read(comment.message.text)
      const refused = triggered(text, account.id)
      if (refused !== undefined) return refused
      const stored = state.addComment({
        accountId: target.post.accountId,
        author: { id: account.id, username: account.username },
        text,
        postId: target.post.id,
        replyTo: target.parent?.id
      })
      const created = wireComment(stored, 0)
      return HttpServerResponse.jsonUnsafe(created, {
        status: 201,
        headers: { "x-restli-id": encodeURIComponent(created.commentUrn) }
      })
    })

  return { listComments, createComment }
}
