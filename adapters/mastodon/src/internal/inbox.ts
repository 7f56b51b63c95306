import { type Adapter, PublishError } from "@herald/adapter-kit"
import { Effect } from "effect"
import type { Account, MastodonClient, Notification, Status } from "../MastodonClient.ts"
import * as Html from "./html.ts"
import { compareIds, localId } from "./request.ts"

/**
 * The inbox on Mastodon: mentions (`GET /api/v1/notifications?types[]=mention`,
 * https://docs.joinmastodon.org/methods/notifications/) are comments, a reply to one of the account's
 * statuses being a mention of it; direct conversations (`GET /api/v1/conversations`,
 * https://docs.joinmastodon.org/methods/conversations/) are messages. A direct status also arrives as a
 * mention, so mentions with `direct` visibility are left to the conversations. Herald's cursor is the
 * newest notification id and the newest direct status id it has seen (`<n> <m>`; `-` for none yet).
 */

const network = "mastodon"

interface Cursor {
  readonly notification: string | undefined
  readonly direct: string | undefined
}

const encodeCursor = (cursor: Cursor): string => `${cursor.notification ?? "-"} ${cursor.direct ?? "-"}`

/** Undefined for a cursor this adapter did not write: the fetch then starts from now, as for a new account. */
const decodeCursor = (value: string): Cursor | undefined => {
  const [notification, direct, ...rest] = value.split(" ")
  const id = (part: string | undefined) => (part !== undefined && /^\d+$/.test(part) ? part : undefined)
  if (rest.length > 0 || notification === undefined || direct === undefined) return undefined
  if ((notification !== "-" && id(notification) === undefined) || (direct !== "-" && id(direct) === undefined)) return undefined
  return { notification: id(notification), direct: id(direct) }
}

const newest = (ids: ReadonlyArray<string | undefined>): string | undefined =>
  ids.reduce<string | undefined>((best, id) => (id === undefined ? best : best === undefined || compareIds(id, best) > 0 ? id : best), undefined)

const isAfter = (id: string, since: string | undefined) => since === undefined || compareIds(id, since) > 0

const personOf = (account: Account): Adapter.Person => ({
  id: account.id,
  username: account.acct,
  name: account.display_name === undefined || account.display_name === "" ? null : account.display_name
})

/** A mention as a comment: on the status it answers (itself when it answers none). */
const toComment = (notification: Notification & { readonly status: Status }): Adapter.InboxComment => ({
  id: notification.status.id,
  postId: notification.status.in_reply_to_id ?? notification.status.id,
  replyTo: null,
  author: personOf(notification.account),
  text: Html.toText(notification.status.content),
  permalink: notification.status.url ?? null,
  createdAt: notification.status.created_at
})

/** `@acct` of each account not already named at the start of the text, so the reply reaches them. */
const addressed = (accts: ReadonlyArray<string>, text: string) => {
  const missing = accts.filter((acct) => !text.includes(`@${acct}`))
  return missing.length === 0 ? text : `${missing.map((acct) => `@${acct}`).join(" ")} ${text}`
}

export const make = (input: {
  readonly client: MastodonClient
  readonly base: (account: Adapter.Account) => string
  readonly key: (parts: ReadonlyArray<string>) => string
}): Adapter.InboxHooks => {
  const { base, client } = input
  return {
    fetch: Effect.fnUntraced(function*({ account, cursor }) {
      const since = cursor === null ? undefined : decodeCursor(cursor)
      const mentions = yield* client.mentions(base(account), account.accessToken, since?.notification)
      const conversations = yield* client.conversations(base(account), account.accessToken)
      const directs = conversations.flatMap((conversation) =>
        conversation.last_status == null ? [] : [{ conversation, status: conversation.last_status }]
      )
      const next = encodeCursor({
        notification: newest([since?.notification, ...mentions.map((notification) => notification.id)]),
        direct: newest([since?.direct, ...directs.map((entry) => entry.status.id)])
      })
      // A first fetch (or one with a cursor from elsewhere) only learns where "now" is.
      if (since === undefined) return { comments: [], messages: [], cursor: next }
      const comments = mentions
        .flatMap((notification) =>
          notification.type === "mention" && notification.status != null && notification.status.visibility !== "direct" &&
            isAfter(notification.id, since.notification)
            ? [toComment({ ...notification, status: notification.status })]
            : []
        )
        .reverse()
      const own = localId(account.networkAccountId)
      // A conversation with news may have more than its last status since the last read: the direct statuses
      // it answers (its ancestors) that are newer than the cursor come too.
      const fresh = directs.filter((entry) => isAfter(entry.status.id, since.direct))
      const before = yield* Effect.forEach(fresh, ({ conversation, status }) =>
        Effect.map(client.context(base(account), account.accessToken, status.id), (context) =>
          context.ancestors
            .filter((above) => above.visibility === "direct" && isAfter(above.id, since.direct))
            .map((above) => ({ conversation, status: above }))))
      const messages = [...fresh, ...before.flat()]
        .sort((a, b) => compareIds(a.status.id, b.status.id))
        .map(({ conversation, status }): Adapter.InboxMessage => ({
          id: status.id,
          conversationId: conversation.id,
          from: personOf(status.account),
          text: Html.toText(status.content),
          attachments: status.media_attachments?.length ?? 0,
          outgoing: status.account.id === own,
          createdAt: status.created_at
        }))
      return { comments, messages, cursor: next }
    }),

    /** A reply status under the comment, as visible as the comment and naming its author, so they are told. */
    replyToComment: Effect.fnUntraced(function*({ account, comment, text }) {
      const answered = yield* client.status(base(account), account.accessToken, comment.id)
      const body = addressed([answered.account.acct], text)
      const made = yield* client.createStatus(
        base(account),
        account.accessToken,
        { status: body, in_reply_to_id: answered.id, visibility: answered.visibility },
        input.key([account.networkAccountId, "reply", answered.id, text])
      )
      return { id: made.id, permalink: made.url ?? null }
    }),

    /** A direct status to the conversation's people, answering its last status (Mastodon threads them so). */
    sendMessage: Effect.fnUntraced(function*({ account, conversationId, text }) {
      const conversations = yield* client.conversations(base(account), account.accessToken)
      const conversation = conversations.find((entry) => entry.id === conversationId)
      if (conversation === undefined) {
        return yield* Effect.fail(PublishError.rejected(network, "The conversation is gone from Mastodon, so it cannot be answered"))
      }
      const made = yield* client.createStatus(
        base(account),
        account.accessToken,
        {
          status: addressed(conversation.accounts.map((person) => person.acct), text),
          visibility: "direct",
          ...(conversation.last_status == null ? {} : { in_reply_to_id: conversation.last_status.id })
        },
        input.key([account.networkAccountId, "message", conversationId, conversation.last_status?.id ?? "", text])
      )
      return { id: made.id }
    })
  }
}

