import { Effect, Option, Schema } from "effect"
import { Envelope, InboxApi } from "@herald/api"
import { Inbox } from "@herald/core"
import { Bounded, Inbox as InboxItems } from "@herald/domain"
import { define, domainFailures, fail, type ToolFailure } from "./Tool.ts"

/**
 * The inbox through MCP (docs/inbox.md): one `list_inbox` with a `kind` (comments, conversations, or one
 * conversation's messages), since the three share their filters and paging, and the two answers, each the
 * twin of its REST call and answered with the same object.
 */

const kinds = ["comments", "conversations", "messages"] as const

const ListInboxInput = Schema.Struct({
  kind: Schema.Literals(kinds).annotate({
    description: "comments: comments on the accounts' posts, newest first; conversations: direct-message " +
      "conversations, the most recent first; messages: one conversation's messages, newest first (give conversationId)"
  }),
  accountId: Schema.optionalKey(Bounded.Id.annotate({ description: "Only this account's comments or conversations (an id from list_accounts)" })),
  platform: Schema.optionalKey(Bounded.Word.annotate({ description: "Only the comments or conversations of this network's accounts (a network key)" })),
  conversationId: Schema.optionalKey(Bounded.Id.annotate({ description: "With kind messages: the conversation (cnv_…) whose messages to list" })),
  limit: Schema.optionalKey(
    Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 })).annotate({ description: "Items per page, 1 to 100 (20 by default)" })
  ),
  cursor: Schema.optionalKey(Bounded.Line.annotate({ description: "nextCursor of the previous page, for the next one" }))
})

// How an answer goes out, said once for both answering tools (docs/inbox.md, "Answers are stored before they are sent").
const howAnswersGo = "It is written on the network at once, as the account. It is stored before it is sent, and the " +
  "same text to the same item within 24 hours, while the first is still sending or unknown, is not sent again: the " +
  "first is answered. status says where it stands: sent; sending (the network was called, its outcome not recorded " +
  "yet); unknown (Herald cannot tell whether the network took it: check there before writing it again); failed. A " +
  "network's refusal, or an account that needs reconnecting, is refused as conflict with the network's reason."

type InboxError = Inbox.InboxNotFound | Inbox.InboxSendFailed

const answered = <A, R>(effect: Effect.Effect<A, InboxError, R>): Effect.Effect<{ readonly data: A }, ToolFailure, R> =>
  effect.pipe(
    Effect.map((data) => ({ data })),
    domainFailures
  )

const page = <A>(result: { readonly items: ReadonlyArray<A>; readonly next: Option.Option<{ readonly at: Date; readonly id: string }> }) => ({
  data: result.items,
  nextCursor: InboxApi.encodeCursor(Option.getOrUndefined(result.next))
})

export const make = Effect.gen(function*() {
  const inbox = yield* Inbox.Inbox
  return [
    define({
      name: "list_inbox",
      title: "List the inbox",
      description: "The inbox of the workspace's accounts on the networks that have one (list_networks: capabilities." +
        "inbox), a page at a time. kind comments: comments on the accounts' posts (id for reply_to_comment; reply is " +
        "the id of the comment one answers; outgoing: true for the account's own; postId when the post is Herald's; " +
        "read). kind conversations: direct-message conversations (id for send_message; unread: received messages " +
        "nobody has read). kind messages: one conversation's messages, with conversationId. Filter comments and " +
        "conversations by accountId or platform. Pass nextCursor back as cursor for the next page.",
      input: ListInboxInput,
      output: Envelope.Page(Schema.Union([InboxItems.Comment, InboxItems.Conversation, InboxItems.Message])),
      readOnly: true,
      idempotent: true,
      run: (input, caller) =>
        Effect.gen(function*() {
          const bounds = InboxApi.parsePage({ limit: input.limit === undefined ? undefined : String(input.limit), cursor: input.cursor })
          if ("problem" in bounds) return yield* fail("invalid", { message: bounds.problem }, [{ field: "cursor", message: bounds.problem }])
          const filter = { accountId: input.accountId, platform: input.platform }
          if (input.kind !== "messages") {
            if (input.conversationId !== undefined) {
              const message = "conversationId goes only with kind messages"
              return yield* fail("invalid", { message }, [{ field: "conversationId", message }])
            }
            return input.kind === "comments"
              ? page(yield* Effect.orDie(inbox.comments(caller.workspaceId, bounds, filter)))
              : page(yield* Effect.orDie(inbox.conversations(caller.workspaceId, bounds, filter)))
          }
          if (input.conversationId === undefined) {
            const message = "kind messages needs conversationId: a conversation's id from kind conversations"
            return yield* fail("invalid", { message }, [{ field: "conversationId", message }])
          }
          if (input.accountId !== undefined || input.platform !== undefined) {
            const message = "accountId and platform filter comments and conversations; a conversation's messages are all its account's"
            return yield* fail("invalid", { message }, [{ field: input.accountId !== undefined ? "accountId" : "platform", message }])
          }
          return yield* inbox.messages(caller.workspaceId, input.conversationId, bounds).pipe(
            Effect.map(page),
            domainFailures
          )
        })
    }),
    define({
      name: "reply_to_comment",
      title: "Reply to a comment",
      description: "Replies to a comment (an id from list_inbox, kind comments) on the network, under it, as the " +
        `account the comment came to; answers the reply as a comment. ${howAnswersGo} An unknown comment is not_found.`,
      input: Schema.Struct({
        commentId: Bounded.Id.annotate({ description: "The comment to answer (an id from list_inbox, kind comments)" }),
        ...InboxApi.Reply.fields
      }),
      output: Envelope.Data(InboxItems.Comment),
      openWorld: true,
      run: (input, caller) => answered(inbox.replyToComment(caller.workspaceId, input.commentId, input.text))
    }),
    define({
      name: "send_message",
      title: "Send a direct message",
      description: "Sends a direct message in a conversation (an id from list_inbox, kind conversations), as the " +
        `conversation's account; answers the message (message.sent is announced). ${howAnswersGo} An unknown ` +
        "conversation is not_found. Herald answers conversations only: it does not start them.",
      input: Schema.Struct({
        conversationId: Bounded.Id.annotate({ description: "The conversation to write in (an id from list_inbox, kind conversations)" }),
        ...InboxApi.Reply.fields
      }),
      output: Envelope.Data(InboxItems.Message),
      openWorld: true,
      run: (input, caller) => answered(inbox.sendMessage(caller.workspaceId, input.conversationId, input.text))
    })
  ]
})
