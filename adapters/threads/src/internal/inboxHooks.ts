import { type Adapter, type AdapterConfig, PublishError } from "@herald/adapter-kit"
import { Effect } from "effect"
import type * as ThreadsClient from "../ThreadsClient.ts"
import { replyChecks, unusable } from "./containers.ts"
import * as Inbox from "./inbox.ts"
import * as Request from "./request.ts"
import * as Webhook from "./webhook.ts"

/**
 * The inbox hooks: replies to the account's recent posts read since the cursor (`./inbox.ts`), answered
 * with a reply container; Threads offers no direct messages.
 */

const network = "threads"

export const make = (client: ThreadsClient.ThreadsClient, config: AdapterConfig.AdapterConfig): Adapter.InboxHooks => {
  /**
   * A post's replies that are new since the cursor, reading its conversation newest first until a reply
   * older than the cursor (or the page bound), answered oldest first. Without a cursor only the first page
   * is read: its newest reply is what the first cursor needs.
   */
  const newReplies = Effect.fnUntraced(function*(account: Adapter.Account, postId: string, since: Inbox.Cursor | undefined) {
    const found: Array<ThreadsClient.Reply> = []
    let after: string | undefined
    for (let page = 0; page < Inbox.inboxBounds.pagesPerPost; page++) {
      const answer = yield* client.conversation(account.accessToken, postId, Inbox.inboxBounds.pageSize, after)
      if (since === undefined) return answer.replies
      found.push(...answer.replies.filter((reply) => Inbox.isNew(since, reply)))
      if (answer.after === undefined || answer.replies.some((reply) => Inbox.isOlder(since, reply))) break
      after = answer.after
    }
    return found.reverse()
  })

  return {
    /** Threads announces replies; the accounts it names are read at once, polling stays the safety net. */
    webhook: Webhook.make(config.clientSecret),

    fetch: Effect.fnUntraced(function*({ account, cursor }) {
      const since = cursor === null ? undefined : Inbox.decodeCursor(cursor)
      const posts = yield* client.recentThreads(account.accessToken, Inbox.inboxBounds.posts)
      const perPost = yield* Effect.forEach(
        posts,
        (post) => Effect.map(newReplies(account, post.id, since), (replies) => replies.map((reply) => ({ post, reply }))),
        { concurrency: 3 }
      )
      const found = perPost.flat()
      const next = Inbox.advance(since ?? Inbox.start, found.map(({ reply }) => reply))
      // A first fetch (or one with a cursor from elsewhere) only learns where "now" is.
      const comments = since === undefined
        ? []
        : found
          .map(({ post, reply }) => Inbox.toComment(account, post.id, reply))
          // Stable, so replies of one post in the same second keep the order Threads listed them in.
          .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      return { comments, messages: [], cursor: Inbox.encodeCursor(next) }
    }),

    /** A reply is a TEXT container with `reply_to_id`, published like a post; it counts against 1,000 replies a day. */
    replyToComment: Effect.fnUntraced(function*({ account, comment, text }) {
      const { accessToken, networkAccountId } = account
      const containerId = yield* client.createContainer(accessToken, networkAccountId, Request.reply(text, comment.id))
      for (let check = 1;; check++) {
        const container = yield* client.container(accessToken, containerId)
        if (container.status === "FINISHED") break
        if (container.status !== "IN_PROGRESS") return yield* Effect.fail(unusable(container, "the reply"))
        // An unpublished container expires on its own: trying again later makes a new one, never a second reply.
        if (check >= replyChecks) return yield* Effect.fail(PublishError.transient(network, "Threads is still preparing the reply"))
        yield* Effect.sleep("1 second")
      }
      const id = yield* client.publish(accessToken, networkAccountId, containerId)
      // The reply is out: a link that cannot be read now must not fail it, or a retry would reply twice.
      const permalink = yield* Effect.orElseSucceed(client.permalink(accessToken, id), () => undefined)
      return { id, permalink: permalink ?? null }
    }),

    sendMessage: () =>
      Effect.fail(PublishError.rejected(network, "The Threads API does not offer direct messages, so Herald cannot send one"))
  }
}
