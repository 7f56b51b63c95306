import { type Adapter, type AdapterConfig, PublishError } from "@herald/adapter-kit"
import { Clock, Effect, Option } from "effect"
import type * as LinkedInClient from "../LinkedInClient.ts"
import * as Errors from "./errors.ts"
import * as InboxCursor from "./inboxCursor.ts"
import * as Request from "./request.ts"

/**
 * The inbox hooks: the comments on the member's recent posts and the replies in their newest threads, read
 * within bounds and kept when newer than the cursor (`./inboxCursor.ts`), and a reply under a comment.
 * LinkedIn offers members no direct messages.
 */

export const noDirectMessages =
  "LinkedIn's API does not offer direct messages: its messaging API is open to approved partners only"

/**
 * What one inbox poll reads, so a poll costs a bounded number of calls against LinkedIn's daily, unpublished
 * quotas: the comments on the member's most recent posts (up to `inboxCommentPages` pages of
 * `inboxCommentsPerPage` each), and the replies under the `inboxThreads` newest first-level comments that
 * have any (one page each). Comments on older posts, and replies in older threads, are not read.
 */
export const inboxPosts = 10
export const inboxCommentsPerPage = 100
export const inboxCommentPages = 3
export const inboxThreads = 20

export const make = (client: LinkedInClient.LinkedInClient, config: AdapterConfig.AdapterConfig): Adapter.InboxHooks => {
  /** Every comment on a post (or reply to a comment), page after page, up to `pages` pages. */
  const readComments = Effect.fn("LinkedInAdapter.readComments")(function*(
    account: Adapter.Account,
    target: string,
    pages: number
  ) {
    const comments: Array<LinkedInClient.Comment> = []
    for (let page = 0; page < pages; page++) {
      const start = page * inboxCommentsPerPage
      const answer = yield* client.comments(account.accessToken, { target, start, count: inboxCommentsPerPage })
      comments.push(...answer.elements)
      const total = answer.paging?.total
      if (answer.elements.length < inboxCommentsPerPage || (total !== undefined && start + inboxCommentsPerPage >= total)) break
    }
    return comments
  })

  /**
   * A first-level comment whose replies are worth a call: it has some, or LinkedIn did not say (the
   * summary is optional), in which case Herald looks.
   */
  const mayHaveReplies = (comment: LinkedInClient.Comment): boolean => {
    if (comment.parentComment !== undefined) return false
    const summary = comment.commentsSummary
    return summary === undefined || (summary.aggregatedTotalComments ?? summary.totalFirstLevelComments ?? 1) > 0
  }

  /**
   * The Comments API names a comment's author only by URN (`urn:li:person:{id}`, or an organization's);
   * names of other members need LinkedIn's restricted profile APIs, so the URN stands for the username. A
   * person's id is the one OpenID's `sub` gives, so the member's own comments carry their account id.
   */
  const author = (account: Adapter.Account, actorUrn: string): Adapter.Person => {
    const id = Request.personIdOf(actorUrn) ?? actorUrn
    return id === account.networkAccountId
      ? { id, username: account.username, name: null }
      : { id, username: actorUrn, name: null }
  }

  const inboxComment = (account: Adapter.Account, postUrn: string, comment: LinkedInClient.Comment): Adapter.InboxComment => ({
    id: comment.commentUrn,
    // The post Herald listed: `object` may name the post's activity (`urn:li:activity:…`) instead.
    postId: postUrn,
    replyTo: comment.parentComment ?? null,
    author: author(account, comment.actor),
    text: comment.message?.text ?? "",
    permalink: Request.commentPermalink(config.webBaseUrl, postUrn, comment.commentUrn),
    createdAt: new Date(comment.created.time).toISOString()
  })

  /** Every comment within the inbox's bounds, each once, oldest first, with the post it is on. */
  const readInbox = Effect.fn("LinkedInAdapter.readInbox")(function*(account: Adapter.Account) {
    const posts = yield* client.postsByAuthor(account.accessToken, Request.personUrn(account.networkAccountId), inboxPosts)
    const onPosts = yield* Effect.forEach(
      posts.elements,
      (post) => Effect.map(readComments(account, post.id, inboxCommentPages), (comments) => ({ postUrn: post.id, comments })),
      { concurrency: 4 }
    )
    const threads = onPosts
      .flatMap(({ comments, postUrn }) => comments.filter(mayHaveReplies).map((comment) => ({ postUrn, comment })))
      .sort((a, b) => b.comment.created.time - a.comment.created.time)
      .slice(0, inboxThreads)
    const inThreads = yield* Effect.forEach(
      threads,
      ({ comment, postUrn }) => Effect.map(readComments(account, comment.commentUrn, 1), (comments) => ({ postUrn, comments })),
      { concurrency: 4 }
    )
    const byId = new Map<string, { readonly id: string; readonly time: number; readonly comment: Adapter.InboxComment }>()
    for (const { comments, postUrn } of [...onPosts, ...inThreads]) {
      for (const comment of comments) {
        byId.set(comment.commentUrn, {
          id: comment.commentUrn,
          time: comment.created.time,
          comment: inboxComment(account, postUrn, comment)
        })
      }
    }
    return [...byId.values()].sort((a, b) => a.time - b.time)
  })

  /**
   * LinkedIn has no feed of a member's incoming comments (and webhooks only for organization pages), so a
   * poll lists the comments on the member's recent posts and the replies in their newest threads, and
   * keeps what is newer than the cursor (see `internal/inboxCursor.ts`). The first poll (or one with a
   * cursor Herald did not make) answers no comments and a cursor of now, by Herald's clock, moved past
   * what LinkedIn already has: a comment stamped by a clock ahead of Herald's, or in the same millisecond,
   * is not news either.
   */
  const fetch = Effect.fn("LinkedInAdapter.inbox.fetch")(function*(input: {
    readonly account: Adapter.Account
    readonly cursor: string | null
  }): Effect.fn.Return<Adapter.InboxPage, PublishError.PublishError> {
    const since = input.cursor === null ? Option.none() : InboxCursor.decode(input.cursor)
    const read = yield* readInbox(input.account)
    if (Option.isNone(since)) {
      const now = InboxCursor.at(yield* Clock.currentTimeMillis)
      return { comments: [], messages: [], cursor: InboxCursor.encode(InboxCursor.advance(now, read)) }
    }
    const fresh = read.filter((item) => InboxCursor.isNew(since.value, item))
    return {
      comments: fresh.map((item) => item.comment),
      messages: [],
      cursor: InboxCursor.encode(InboxCursor.advance(since.value, fresh))
    }
  })

  /**
   * A reply under the comment, as the member. LinkedIn threads comments two levels deep, so an answer to a
   * reply goes under that reply's first-level comment.
   */
  const replyToComment = Effect.fn("LinkedInAdapter.inbox.replyToComment")(function*(input: {
    readonly account: Adapter.Account
    readonly comment: Adapter.InboxComment
    readonly text: string
  }) {
    const { account, comment } = input
    const parentComment = comment.replyTo ?? comment.id
    const id = yield* client.createComment(account.accessToken, {
      target: parentComment,
      postUrn: comment.postId,
      body: Request.reply({ personId: account.networkAccountId, postUrn: comment.postId, parentComment, text: input.text })
    })
    return { id, permalink: Request.commentPermalink(config.webBaseUrl, comment.postId, id) }
  })

  return {
    // Up to 51 calls a read against daily quotas LinkedIn does not publish: every 10 minutes.
    pollEveryMs: 10 * 60 * 1000,
    fetch,
    replyToComment,
    // LinkedIn's messaging API is open to approved partners only; members' messages cannot be read or sent.
    sendMessage: () => Effect.fail(PublishError.rejected(Errors.network, noDirectMessages))
  }
}
