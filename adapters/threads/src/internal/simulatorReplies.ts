import { Simulator, type SimulatorState } from "@herald/adapter-kit"
import { Effect } from "effect"
import { HttpRouter } from "effect/http"
import { newestFirst, pageCursor, pageOffset, pick, refuse, shortcode, threadsTime, unsupported, type WireReply } from "./simulatorGraph.ts"

/**
 * The Threads simulator's replies: people's replies (the state's comments) and the account's reply posts in
 * Threads' wire shape, and `GET /{media-id}/conversation`, which lists every one under a post
 * (https://developers.facebook.com/documentation/threads/retrieve-and-manage-replies/replies-and-conversations).
 */
export const make = ({ baseUrl, state }: { readonly baseUrl: string; readonly state: SimulatorState.SimulatorState }) => {
  const authenticated = Simulator.authenticated(state, refuse)

  /** What a reply answers: a comment's parent comment or post, a reply post's post. */
  const parentOf = (id: string): string | undefined => {
    const comment = state.comments.get(id)
    return comment !== undefined ? comment.replyTo ?? comment.postId : state.posts.get(id)?.replyTo
  }

  /** The top-level post a reply hangs under, however deep. */
  const rootOf = (id: string): string => {
    let current = id
    for (let parent = parentOf(current); parent !== undefined; parent = parentOf(current)) current = parent
    return current
  }

  /** Whether `id` is a reply somewhere under `mediaId`. */
  const isUnder = (id: string, mediaId: string): boolean => {
    for (let parent = parentOf(id); parent !== undefined; parent = parentOf(parent)) if (parent === mediaId) return true
    return false
  }

  /** A reply in Threads' wire shape (the fields of the replies and conversation edges). */
  const wire = (account: SimulatorState.SimulatedAccount, reply: WireReply): Record<string, unknown> => ({
    id: reply.id,
    text: reply.text,
    username: reply.username,
    ...(reply.permalink === null ? {} : { permalink: reply.permalink }),
    timestamp: threadsTime(reply.at),
    media_product_type: "THREADS",
    media_type: "TEXT_POST",
    shortcode: shortcode(reply.id),
    has_replies: state.commentsAfter(account.id, 0).some((comment) => parentOf(comment.id) === reply.id),
    is_quote_post: false,
    is_reply: true,
    root_post: { id: rootOf(reply.id) },
    replied_to: { id: parentOf(reply.id) },
    is_reply_owned_by_me: reply.ownedByMe,
    hide_status: "NOT_HUSHED"
  })

  const replyWire = (account: SimulatorState.SimulatedAccount, comment: SimulatorState.SimulatedComment) =>
    wire(account, {
      id: comment.id,
      text: comment.text,
      username: comment.author.username,
      ownedByMe: comment.author.id === account.id,
      permalink: comment.permalink,
      at: comment.createdAt
    })

  const replyPostWire = (account: SimulatorState.SimulatedAccount, post: SimulatorState.SimulatedPost) =>
    wire(account, { id: post.id, text: post.text, username: account.username, ownedByMe: true, permalink: post.url, at: post.createdAt })

  /**
   * `GET /{media-id}/conversation`: every reply under a post of the account, flattened, newest first unless
   * `reverse=false`, in pages of `limit` (25 by default) with `after` cursors and a `next` link while more remain.
   */
  const conversation = authenticated((account) =>
    Effect.gen(function*() {
      const { id: mediaId = "" } = yield* HttpRouter.params
      const query = yield* Simulator.query
      const post = state.posts.get(mediaId)
      if (post === undefined || post.accountId !== account.id) return unsupported(mediaId)
      const replies = [
        ...state.commentsAfter(account.id, 0).filter((comment) => isUnder(comment.id, mediaId)).map((comment) => ({
          id: comment.id,
          wire: () => replyWire(account, comment)
        })),
        ...state.postsOf(account.id).filter((reply) => isUnder(reply.id, mediaId)).map((reply) => ({
          id: reply.id,
          wire: () => replyPostWire(account, reply)
        }))
      ].sort(newestFirst)
      if (query["reverse"] === "false") replies.reverse()
      const limit = Math.min(Number(query["limit"] ?? 25) || 25, 100)
      const offset = pageOffset(query["after"])
      const page = replies.slice(offset, offset + limit)
      const end = offset + page.length
      const next = new URL(`${baseUrl}/v1.0/${mediaId}/conversation`)
      for (const [key, value] of Object.entries({ ...query, after: pageCursor(end) })) next.searchParams.set(key, value)
      return Simulator.json({
        data: page.map((reply) => pick(reply.wire(), query["fields"])),
        paging: {
          cursors: { before: pageCursor(offset), after: pageCursor(end) },
          ...(end < replies.length ? { next: next.toString() } : {})
        }
      })
    })
  )

  return { replyWire, conversation }
}
