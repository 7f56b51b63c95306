import { type Adapter, Simulator, type SimulatorState } from "@herald/adapter-kit"
import { Effect, Result } from "effect"
import { HttpRouter } from "effect/http"
import * as XRules from "../XRules.ts"
import {
  body,
  type Context,
  dmListing,
  type Listed,
  listing,
  MessageRequest,
  newestFirst,
  problem,
  tweetListing,
  unauthorized
} from "./simulatorWire.ts"

/**
 * X's simulator's inbox reads and direct messages: `/2/users/{id}/tweets` and `/2/users/{id}/mentions` serve
 * the state's posts and comments as X's tweets and replies, `/2/dm_events` and
 * `/2/dm_conversations/{id}/messages` its messages.
 */
export const make = ({ state, triggered }: Context) => {
  const authenticated = Simulator.authenticated(state, unauthorized)

  const accountPerson = (id: string): Adapter.Person => {
    const account = state.accounts.get(id)
    return { id, username: account?.username ?? id, name: account?.displayName ?? null }
  }

  /** Who wrote a post or a comment (the parent of a reply). */
  const authorOf = (id: string) => state.posts.get(id)?.accountId ?? state.comments.get(id)?.author.id

  /** The first post of a reply chain: X's `conversation_id`. */
  const conversationOf = (id: string) => {
    let post = state.posts.get(id)
    while (post?.replyTo !== undefined && state.posts.has(post.replyTo)) post = state.posts.get(post.replyTo)
    return post?.id ?? id
  }

  const postListed = (post: SimulatorState.SimulatedPost): Listed => ({
    id: post.id,
    user: accountPerson(post.accountId),
    wire: {
      id: post.id,
      text: post.text,
      edit_history_tweet_ids: [post.id],
      author_id: post.accountId,
      created_at: new Date(post.createdAt).toISOString(),
      conversation_id: conversationOf(post.id),
      in_reply_to_user_id: post.replyTo === undefined ? undefined : authorOf(post.replyTo),
      referenced_tweets: post.replyTo === undefined ? undefined : [{ type: "replied_to", id: post.replyTo }]
    }
  })

  /** A comment is a reply: to the comment it answers, or to the post it is on. */
  const commentListed = (comment: SimulatorState.SimulatedComment): Listed => {
    const parent = comment.replyTo ?? comment.postId
    return {
      id: comment.id,
      user: comment.author,
      wire: {
        id: comment.id,
        text: comment.text,
        edit_history_tweet_ids: [comment.id],
        author_id: comment.author.id,
        created_at: comment.createdAt,
        conversation_id: conversationOf(comment.postId),
        in_reply_to_user_id: authorOf(parent),
        referenced_tweets: [{ type: "replied_to", id: parent }]
      }
    }
  }

  const messageListed = (message: SimulatorState.SimulatedMessage): Listed => ({
    id: message.id,
    user: message.from,
    wire: {
      id: message.id,
      event_type: "MessageCreate",
      text: message.text,
      sender_id: message.from.id,
      dm_conversation_id: message.conversationId,
      created_at: message.createdAt,
      attachments: message.attachments === 0
        ? undefined
        : { media_keys: Array.from({ length: message.attachments }, (_, index) => `3_${message.id}${index}`) }
    }
  })

  /** The user's posts, replies included: its published posts and its answers to comments. */
  const timeline = authenticated(() =>
    Effect.gen(function*() {
      const id = (yield* HttpRouter.params)["id"] ?? ""
      const answers = state.commentsAfter(id, 0).filter((comment) => comment.author.id === id)
      const items = [...state.postsOf(id).map(postListed), ...answers.map(commentListed)].sort(newestFirst)
      return listing(items, yield* Simulator.query, tweetListing)
    })
  )

  /** Replies by others on the user's posts and under them: every one mentions the user. */
  const mentions = authenticated(() =>
    Effect.gen(function*() {
      const id = (yield* HttpRouter.params)["id"] ?? ""
      const received = state.commentsAfter(id, 0).filter((comment) => comment.author.id !== id)
      return listing(received.map(commentListed).sort(newestFirst), yield* Simulator.query, tweetListing)
    })
  )

  /** The caller's messages, sent and received, newest first. */
  const dmEvents = authenticated((account) =>
    Effect.gen(function*() {
      const query = yield* Simulator.query
      if (query["event_types"] !== undefined && !query["event_types"].split(",").includes("MessageCreate")) {
        return Simulator.json({ meta: { result_count: 0 } })
      }
      const items = state.messagesAfter(account.id, 0).map(messageListed).sort(newestFirst)
      return listing(items, query, dmListing)
    })
  )

  /**
   * A message in one of the caller's conversations. The sandbox's conversation ids are the state's; X's
   * one-to-one ids read `{smaller_id}-{larger_id}`, which the adapter passes along without reading.
   */
  const sendMessage = authenticated((account) =>
    Effect.gen(function*() {
      const conversationId = (yield* HttpRouter.params)["id"] ?? ""
      const read = yield* body(XRules.sendMessage, MessageRequest)
      if (Result.isFailure(read)) return read.failure
      if (state.conversationAccount(conversationId) !== account.id) {
        return problem(404, "Not Found Error", `Could not find DM conversation: [${conversationId}].`, "resource-not-found")
      }
      const text = read.success.text ?? ""
      const trigger = triggered(text, account.id)
      if (trigger !== undefined) return trigger
      const sent = state.addMessage({
        accountId: account.id,
        from: { username: account.username },
        text,
        conversationId,
        outgoing: true
      })
      return Simulator.json({ data: { dm_conversation_id: conversationId, dm_event_id: sent.id } }, 201)
    })
  )

  return { timeline, mentions, dmEvents, sendMessage }
}
