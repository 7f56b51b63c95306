import { type Adapter, type AdapterConfig, PublishError } from "@herald/adapter-kit"
import { Effect, Option, type Redacted } from "effect"
import type * as FacebookClient from "../FacebookClient.ts"
import * as Inbox from "./inbox.ts"
import * as Request from "./request.ts"
import * as Webhook from "./webhook.ts"

/**
 * The Page's inbox hooks: comments on its latest posts and its Messenger conversations read since the
 * cursor (`./inbox.ts`), the app installed on the Page for its webhook, a reply and a message sent.
 */

const network = "facebook"

// How much one inbox poll reads (the core polls every minute): comments on the Page's 10 latest posts,
// up to 3 pages of 50 comments each; the 25 most recently active conversations, 20 messages each (all
// Meta serves). Comments on older posts, and more than that per poll, are not seen.
const postsRead = 10
const commentPagesRead = 3
const conversationsRead = 25

/** The Page webhook fields the inbox reads: comments (`feed`) and Messenger (`messages`). */
const webhookFields = ["feed", "messages"] as const

export const make = (client: FacebookClient.FacebookClient, config: AdapterConfig.AdapterConfig): Adapter.InboxHooks => {
  /** A post's comments newer than the cursor, reading further pages (newest first) while they may hold more. */
  const newComments = Effect.fnUntraced(function*(token: Redacted.Redacted<string>, postId: string, since: Inbox.Cursor, pages: number) {
    const found: Array<Adapter.InboxComment> = []
    let after: string | undefined
    for (let page = 0; page < pages; page++) {
      const answer = yield* client.comments(token, postId, after)
      for (const comment of answer.data) {
        if (Inbox.isNewer(since, comment.id, Inbox.millisOf(comment.created_time))) found.push(Inbox.toComment(postId, comment))
      }
      const oldest = answer.data.at(-1)
      after = answer.paging?.next === undefined ? undefined : answer.paging.cursors?.after
      if (after === undefined || oldest === undefined || Inbox.millisOf(oldest.created_time) < since.at) break
    }
    // Oldest first, so that the sort by time (to the second) keeps the order within one second.
    return found.reverse()
  })

  /**
   * Messages newer than the cursor in the conversations active since it (`updated_time` is the last
   * message's time). Without a cursor only the newest conversation matters: it says where "now" is.
   */
  const newMessages = Effect.fnUntraced(function*(account: Adapter.Account, since: Inbox.Cursor, first: boolean) {
    const { accessToken, networkAccountId } = account
    const conversations = (yield* client.conversations(accessToken, networkAccountId, conversationsRead)).data
    const latest = Math.max(...conversations.map((conversation) => Inbox.millisOf(conversation.updated_time)))
    const active = conversations.filter((conversation) =>
      Inbox.millisOf(conversation.updated_time) >= (first ? latest : since.at)
    )
    const perConversation = yield* Effect.forEach(active, (conversation) =>
      Effect.map(client.messages(accessToken, conversation.id), (messages) =>
        messages
          .filter((message) => Inbox.isNewer(since, message.id, Inbox.millisOf(message.created_time)))
          .map((message) => Inbox.toMessage(networkAccountId, conversation.id, message))
          .reverse()), { concurrency: 4 })
    return perConversation.flat()
  })

  /**
   * Subscribes the app to the Page's webhook fields, without which Meta sends it no notifications for that
   * Page (https://developers.facebook.com/docs/pages-api/webhooks-for-pages). Never fails: polling reads
   * the inbox all the same, so a refusal is only logged.
   */
  const subscribe = (account: Adapter.Account) =>
    Effect.gen(function*() {
      const refusal = yield* client.subscribeApp(account.accessToken, account.networkAccountId, webhookFields).pipe(
        Effect.map((success) => success ? undefined : "Facebook answered success: false"),
        Effect.catch((error) => Effect.succeed(error.message))
      )
      if (refusal === undefined) return
      yield* Effect.logWarning("Facebook did not subscribe the app to the Page's webhooks; polling still reads the inbox").pipe(
        Effect.annotateLogs({ network, page: account.networkAccountId, fields: webhookFields.join(","), reason: refusal })
      )
    })

  const byTime = <A extends { readonly createdAt: string }>(items: ReadonlyArray<A>) =>
    [...items].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt))

  return {
    // Meta's Page webhooks (fields `feed` and `messages`) only say which Page has news, within seconds;
    // the poll below still reads it, and remains the fallback when no webhook is set up.
    webhook: Webhook.make(config.clientSecret),
    // Polling: the Graph API reads comments per post and messages per conversation. A cursor this
    // adapter did not write counts as none, so the inbox starts afresh instead of failing for good.
    fetch: ({ account, cursor }) =>
      Effect.gen(function*() {
        // The first fetch (no cursor: the account was just connected, or that fetch failed) also installs
        // the app on the Page for the webhook; later ones do not repeat it.
        if (cursor === null) yield* subscribe(account)
        const given = cursor === null ? Option.none<Inbox.Cursor>() : Inbox.decodeCursor(cursor)
        const first = Option.isNone(given)
        const since = Option.getOrElse(given, () => Inbox.start)
        const { accessToken, networkAccountId } = account
        const posts = (yield* client.recentPosts(accessToken, networkAccountId, postsRead)).data
        const [comments, messages] = yield* Effect.all([
          Effect.map(
            Effect.forEach(posts, (post) => newComments(accessToken, post.id, since, first ? 1 : commentPagesRead), { concurrency: 4 }),
            (lists) => byTime(lists.flat())
          ),
          Effect.map(newMessages(account, since, first), byTime)
        ])
        const items = [...comments, ...messages].map((item) => ({ id: item.id, at: Date.parse(item.createdAt) }))
        const next = Inbox.encodeCursor(Inbox.advance(since, items))
        // The first poll only finds where "now" is: what the Page had before Herald is not news.
        return first ? { comments: [], messages: [], cursor: next } : { comments, messages, cursor: next }
      }),
    // `POST /{comment-id}/comments`, the same call as a first comment; the reply is then the Page's own.
    replyToComment: ({ account, comment, text }) =>
      Effect.gen(function*() {
        const id = yield* client.comment(account.accessToken, comment.id, text)
        const permalink = yield* client.permalink(account.accessToken, id).pipe(
          Effect.map((link): string | null => Request.absoluteUrl(config.webBaseUrl, link)),
          Effect.catch((error) =>
            Effect.as(Effect.logWarning("Facebook took the reply but did not give its link", error.message), null)
          )
        )
        return { id, permalink }
      }),
    // The Send API names a person (their Page-scoped id), not a conversation: look the person up first.
    sendMessage: ({ account, conversationId, text }) =>
      Effect.gen(function*() {
        const participants = yield* client.participants(account.accessToken, conversationId)
        const person = participants.find((participant) => participant.id !== account.networkAccountId)
        if (person === undefined) {
          return yield* PublishError.rejected(network, "the Facebook conversation has no one but the Page in it")
        }
        const id = yield* client.sendMessage(account.accessToken, account.networkAccountId, person.id, text)
        return { id }
      })
  }
}
