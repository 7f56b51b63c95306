import { type Adapter, PublishError } from "@herald/adapter-kit"
import { Clock, Effect, Option, Schema } from "effect"
import type * as InstagramClient from "../InstagramClient.ts"
import * as Webhook from "./webhook.ts"

// The inbox through the API. Instagram pushes comments and messages only by webhook, and its notifications
// (`./webhook.ts`) only tell Herald which account to read now; each fetch, whether woken or at its polling
// turn, reads the comments of the account's recent media
// (https://developers.facebook.com/docs/instagram-api/guides/comment-moderation) and its recently active
// conversations (https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/conversations-api).

const network = "instagram"

/** Comments are read on the account's newest media only: older posts rarely get new ones, and each costs a call. */
const mediaPerFetch = 10
/** One page of top-level comments per media (each with the first page of its replies). */
const commentsPerMedia = 50
/** The most recently active conversations read per fetch; Instagram gives each one's 20 newest messages. */
const conversationsPerFetch = 20
/**
 * How far before the newest item seen a later item may still turn up. Neither edge can be asked for what
 * came "since" an id, so the cursor is a time (the Graph's, to the second) and the ids seen in the last few
 * minutes: an item made in the same second as the newest one, or shown a little late, is still read, and
 * one already read is recognised and left out.
 */
const overlapSeconds = 300

const Mark = Schema.Struct({
  /** The newest item time seen (Unix seconds). */
  t: Schema.Number,
  /** Ids seen whose time is within `overlapSeconds` of `t`, with that time. */
  seen: Schema.Record(Schema.String, Schema.Number)
})
type Mark = typeof Mark.Type

/** The inbox cursor: one mark for comments, one for messages, as JSON. */
const Cursor = Schema.fromJsonString(Schema.Struct({ comments: Mark, messages: Mark }))
type Cursor = typeof Cursor.Type

interface Timed {
  readonly id: string
  readonly seconds: number
}

const isNew = (mark: Mark, item: Timed) => item.seconds >= mark.t - overlapSeconds && !(item.id in mark.seen)

/** The mark once `items` have been seen: the newest time, and the ids still within the overlap of it. */
const advance = (mark: Mark, items: ReadonlyArray<Timed>): Mark => {
  const t = Math.max(mark.t, ...items.map((item) => item.seconds))
  const seen = Object.fromEntries(
    [...Object.entries(mark.seen), ...items.map((item) => [item.id, item.seconds] as const)]
      .filter(([, seconds]) => seconds >= t - overlapSeconds)
  )
  return { t, seen }
}

const encode = Schema.encodeSync(Cursor)
const decode = Schema.decodeUnknownOption(Cursor)

/**
 * Graph times are ISO 8601 (`2024-05-01T12:00:00+0000`) or, for conversations, sometimes Unix seconds. One
 * that cannot be read counts as the epoch: never news, and never a cursor that cannot be written.
 */
const secondsOf = (time: string | number) => {
  const seconds = typeof time === "number" ? time : Math.floor(Date.parse(time) / 1000)
  return Number.isFinite(seconds) ? seconds : 0
}
const isoOf = (time: string | number) => new Date(secondsOf(time) * 1000).toISOString()

/**
 * Instagram names people by Instagram-scoped ids, which the docs do not promise equal to the `user_id`
 * Herald keeps for the account; usernames are unique, so the account's own items are recognised by either.
 */
const isAccount = (account: Adapter.Account, person: { readonly id: string; readonly username?: string }) =>
  person.id === account.networkAccountId || person.username === account.username

const personOf = (account: Adapter.Account, person: { readonly id: string; readonly username?: string }): Adapter.Person =>
  isAccount(account, person)
    ? { id: account.networkAccountId, username: account.username, name: null }
    : { id: person.id, username: person.username ?? person.id, name: null }

interface Read {
  readonly comments: ReadonlyArray<Adapter.InboxComment & Timed>
  readonly messages: ReadonlyArray<Adapter.InboxMessage & Timed>
  /** False when the account did not grant the messaging permission: messages were not read. */
  readonly messagesRead: boolean
}

export const make = (client: InstagramClient.InstagramClient): Adapter.InboxHooks => {
  const comments = Effect.fnUntraced(function*(account: Adapter.Account) {
    const media = yield* client.recentMedia(account.accessToken, mediaPerFetch)
    // Stories are not listed here and take no comments (answers to a story arrive as messages).
    const commented = media.data.filter((entry) => (entry.comments_count ?? 1) > 0)
    const pages = yield* Effect.forEach(
      commented,
      (entry) => Effect.map(client.comments(account.accessToken, entry.id, commentsPerMedia), (page) => ({ mediaId: entry.id, page })),
      { concurrency: 4 }
    )
    const toComment = (mediaId: string, comment: InstagramClient.GraphComment, replyTo: string | null) => ({
      id: comment.id,
      seconds: secondsOf(comment.timestamp),
      postId: mediaId,
      replyTo,
      author: personOf(account, comment.from ?? { id: comment.username ?? comment.id, username: comment.username ?? "" }),
      text: comment.text ?? "",
      // The API gives no link to a single comment, and Herald never builds links from ids.
      permalink: null,
      createdAt: isoOf(comment.timestamp)
    })
    return pages.flatMap(({ mediaId, page }) =>
      page.data.flatMap((comment) => [
        toComment(mediaId, comment, null),
        ...(comment.replies?.data ?? []).map((reply) => toComment(mediaId, reply, reply.parent_id ?? comment.id))
      ])
    )
  })

  const messages = Effect.fnUntraced(function*(account: Adapter.Account, since: Mark) {
    const conversations = yield* client.conversations(account.accessToken, conversationsPerFetch)
    // `updated_time` is the time of a conversation's last message: quiet ones are not opened.
    const active = conversations.data.filter((conversation) => secondsOf(conversation.updated_time) >= since.t - overlapSeconds)
    const read = yield* Effect.forEach(
      active,
      (conversation) => Effect.map(client.messages(account.accessToken, conversation.id), (list) => ({ conversation, list })),
      { concurrency: 4 }
    )
    return read.flatMap(({ conversation, list }) =>
      list.map((message) => ({
        id: message.id,
        seconds: secondsOf(message.created_time),
        conversationId: conversation.id,
        from: personOf(account, message.from),
        text: message.message ?? "",
        attachments: message.attachments?.data.length ?? 0,
        outgoing: isAccount(account, message.from),
        createdAt: isoOf(message.created_time)
      }))
    )
  })

  const read = Effect.fnUntraced(function*(account: Adapter.Account, since: Mark) {
    const found = yield* comments(account)
    // The comments were read with the same token, so it is valid: a refusal here means the account was
    // connected before Herald asked for `instagram_business_manage_messages`. Its comments still come in.
    const direct = yield* messages(account, since).pipe(
      Effect.map(Option.some),
      Effect.catchIf(
        (error) => error.reason._tag === "NeedsReconnect",
        (error) =>
          Effect.as(
            Effect.logWarning("Instagram refused to list messages; reconnect the account to read them", error.message),
            Option.none()
          )
      )
    )
    return {
      comments: found,
      messages: Option.getOrElse(direct, () => []),
      messagesRead: Option.isSome(direct)
    } satisfies Read
  })

  /**
   * Asks Meta to send the account's webhook notifications (`POST /me/subscribed_apps`, step 3 of
   * https://developers.facebook.com/docs/instagram-platform/webhooks; the guide requires `instagram_business_basic`
   * for every field plus each field's own permission, here the comments and messages ones: all requested at
   * connection). Done on the first fetch, which Herald makes when the account connects or reconnects and
   * repeats only if it failed; the call is idempotent. A refusal fails nothing: the account is still read at its
   * polling turn.
   */
  const subscribe = (account: Adapter.Account) => {
    const notSubscribed = (reason: string) =>
      Effect.logWarning("Instagram did not subscribe the account to webhook notifications; it is read at its polling turn").pipe(
        Effect.annotateLogs({ network, account: account.networkAccountId, fields: Webhook.fields.join(","), reason })
      )
    return client.subscribeApp(account.accessToken, Webhook.fields).pipe(
      Effect.matchEffect({
        onFailure: (error) => notSubscribed(error.message),
        onSuccess: (success) => success ? Effect.void : notSubscribed("Instagram answered success: false")
      })
    )
  }

  const strip = <A extends Timed>({ seconds: _, ...item }: A): Omit<A, "seconds"> => item

  return {
    fetch: ({ account, cursor }) =>
      Effect.gen(function*() {
        const previous = cursor === null ? Option.none<Cursor>() : decode(cursor)
        if (cursor !== null && Option.isNone(previous)) {
          yield* Effect.logWarning("Instagram inbox cursor not understood; starting from now", cursor)
        }
        if (Option.isNone(previous)) {
          // Only a starting point: everything there now is marked seen and nothing is returned. The clock
          // bounds a quiet account's start; the overlap absorbs a skew with Instagram's of a few minutes.
          const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
          const start: Mark = { t: now, seen: {} }
          const there = yield* read(account, start)
          if (cursor === null) yield* subscribe(account)
          return {
            comments: [],
            messages: [],
            cursor: encode({ comments: advance(start, there.comments), messages: advance(start, there.messages) })
          } satisfies Adapter.InboxPage
        }
        const since = previous.value
        const there = yield* read(account, since.messages)
        const comments = there.comments.filter((item) => isNew(since.comments, item))
        const messages = there.messages.filter((item) => isNew(since.messages, item))
        return {
          comments: comments.map(strip),
          messages: messages.map(strip),
          cursor: encode({
            comments: advance(since.comments, comments),
            messages: there.messagesRead ? advance(since.messages, messages) : since.messages
          })
        } satisfies Adapter.InboxPage
      }),

    // Instagram takes replies only on top-level comments and files a reply to a reply under the top-level
    // one (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-comment/replies),
    // so the reply goes there directly.
    replyToComment: ({ account, comment, text }) =>
      Effect.map(
        client.reply(account.accessToken, comment.replyTo ?? comment.id, text),
        (id) => ({ id, permalink: null })
      ),

    // The Send API addresses a person, not a conversation: the conversation's other participant.
    sendMessage: ({ account, conversationId, text }) =>
      Effect.gen(function*() {
        const participants = yield* client.participants(account.accessToken, conversationId)
        const recipient = participants.find((person) => !isAccount(account, person))
        if (recipient === undefined) {
          return yield* PublishError.rejected(network, "the conversation has no one to send the message to")
        }
        const id = yield* client.sendMessage(account.accessToken, account.networkAccountId, recipient.id, text)
        return { id }
      })
  }
}
