import type { Adapter } from "@herald/adapter-kit"
import { Option, Schema } from "effect"
import type { DmEvents, InboxTimeline, InboxTweet, XUser } from "../XClient.ts"
import { permalink, unescape } from "./request.ts"

/**
 * The inbox read from three listings X offers: the posts mentioning the account (a reply to the account,
 * or under its posts, mentions it), the account's own posts (its answers written in X's app or sent by
 * Herald), and its direct message events. Pure: the cursor, and X's posts and events as Herald's items.
 */

/** The most X gives per page of each listing. */
export const pageSize = 100

/**
 * How many pages one fetch reads from each listing: up to 300 new items of each kind per poll (the core polls
 * an account once a minute). When more arrived, the oldest of them are skipped, never read twice. DM lookups
 * are limited to 15 calls per user in 15 minutes (https://docs.x.com/fundamentals/rate-limits), so a second
 * DM page in a minute makes a later poll wait for the window.
 */
export const maxPages = 3

/**
 * Where each listing stood: the newest id read from it, or null when it was empty (then all of it is new).
 * Ids, because X's ids are time-ordered (snowflakes) and its timelines take `since_id` to answer only what
 * is newer (https://docs.x.com/x-api/users/get-mentions, https://docs.x.com/x-api/users/get-posts).
 * DM events take no `since_id`, only a `pagination_token`, newest first
 * (https://docs.x.com/x-api/direct-messages/lookup/integrate): they are read back until an id not newer
 * than the cursor's.
 */
export interface Cursor {
  readonly mentions: string | null
  readonly posts: string | null
  readonly messages: string | null
}

const CursorJson = Schema.fromJsonString(Schema.Struct({
  mentions: Schema.NullOr(Schema.String),
  posts: Schema.NullOr(Schema.String),
  messages: Schema.NullOr(Schema.String)
}))

export const encodeCursor = (cursor: Cursor): string => Schema.encodeSync(CursorJson)(cursor)

/** The cursor in a string this adapter wrote; undefined for anything else. */
export const decodeCursor = (text: string): Cursor | undefined =>
  Option.getOrUndefined(Schema.decodeUnknownOption(CursorJson)(text))

/** Whether an X id is newer than another: ids are decimal numbers beyond JavaScript's safe integers. */
export const isNewer = (id: string, than: string): boolean => id.length !== than.length ? id.length > than.length : id > than

/** A page of one of the listings: posts or DM events, newest first, with the people they name. */
type Listing = InboxTimeline | DmEvents

/** The newest id of a listing page; X puts it in `meta.newest_id`. */
export const newestId = (page: Listing): string | undefined => page.meta?.newest_id ?? page.data?.[0]?.id

/** A person from an answer's `includes.users`; one X did not include (suspended, deleted) is known by id only. */
const person = (users: ReadonlyMap<string, XUser>, id: string): Adapter.Person => {
  const user = users.get(id)
  return { id, username: user?.username ?? id, name: user?.name ?? null }
}

const usersOf = (pages: ReadonlyArray<Listing>) =>
  new Map(pages.flatMap((page) => page.includes?.users ?? []).map((user) => [user.id, user]))

const byId = <A extends { readonly id: string }>(a: A, b: A) => a.id === b.id ? 0 : isNewer(a.id, b.id) ? 1 : -1

/**
 * A reply as a comment. `conversation_id` is the post that started the conversation: the post commented on
 * (for a Herald thread, its first post, the one Herald knows). A reply straight to that post has no
 * `replyTo`; any other names the post it answers (a comment, or a later post of the account's thread,
 * which the core does not know as a comment and reads as none).
 */
const comment = (tweet: InboxTweet, parent: string, users: ReadonlyMap<string, XUser>, webBaseUrl: string): Adapter.InboxComment => {
  const author = person(users, tweet.author_id)
  const postId = tweet.conversation_id ?? parent
  return {
    id: tweet.id,
    postId,
    replyTo: parent === postId ? null : parent,
    author,
    text: unescape(tweet.text),
    permalink: permalink(webBaseUrl, author.username, tweet.id),
    createdAt: tweet.created_at
  }
}

const repliedTo = (tweet: InboxTweet) => tweet.referenced_tweets?.find((reference) => reference.type === "replied_to")?.id

/** What one fetch read: the pages of each listing since the cursor `from`. */
export interface Read {
  readonly accountId: string
  readonly webBaseUrl: string
  readonly from: Cursor
  readonly mentions: ReadonlyArray<InboxTimeline>
  readonly posts: ReadonlyArray<InboxTimeline>
  readonly messages: ReadonlyArray<DmEvents>
}

/**
 * What the pages read since a cursor hold, oldest first, and the cursor after them. Comments are the
 * replies among the mentions written by others (a post that only tags the account is not a comment), and
 * the account's own replies to someone else (its thread follow-ups and first comments answer itself and
 * are its posts, not answers).
 */
export const page = (read: Read): Adapter.InboxPage => {
  const users = usersOf([...read.mentions, ...read.posts, ...read.messages])
  const replies = (pages: ReadonlyArray<InboxTimeline>, keep: (tweet: InboxTweet) => boolean) =>
    pages.flatMap((page) => page.data ?? []).flatMap((tweet) => {
      const parent = repliedTo(tweet)
      return parent !== undefined && keep(tweet) ? [comment(tweet, parent, users, read.webBaseUrl)] : []
    })
  const comments = [
    ...replies(read.mentions, (tweet) => tweet.author_id !== read.accountId),
    ...replies(
      read.posts,
      (tweet) => tweet.in_reply_to_user_id !== undefined && tweet.in_reply_to_user_id !== read.accountId
    )
  ].sort(byId)
  const since = read.from.messages
  const events = read.messages.flatMap((page) => page.data ?? [])
    .filter((event) => event.event_type === "MessageCreate" && (since === null || isNewer(event.id, since)))
    .sort(byId)
  const messages = events.map((event): Adapter.InboxMessage => ({
    id: event.id,
    conversationId: event.dm_conversation_id,
    from: person(users, event.sender_id),
    text: event.text ?? "",
    attachments: event.attachments?.media_keys?.length ?? 0,
    outgoing: event.sender_id === read.accountId,
    createdAt: event.created_at
  }))
  // Pages come newest first: the first one's newest id is the listing's.
  const newestOf = (pages: ReadonlyArray<InboxTimeline>) => pages[0] === undefined ? undefined : newestId(pages[0])
  return {
    comments,
    messages,
    cursor: encodeCursor({
      mentions: newestOf(read.mentions) ?? read.from.mentions,
      posts: newestOf(read.posts) ?? read.from.posts,
      messages: events.at(-1)?.id ?? since
    })
  }
}
