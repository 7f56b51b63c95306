import { Schema } from "effect"

/**
 * X's answers as the client decodes them (`XClient` re-exports their types): minimal, lenient schemas of
 * what Herald reads, and what a page of a listing is asked for. The token answer is RFC 6749's
 * (`OAuth2.TokenAnswer`).
 */


export const User = Schema.Struct({
  data: Schema.Struct({
    id: Schema.String,
    username: Schema.String,
    name: Schema.optional(Schema.String),
    profile_image_url: Schema.optional(Schema.String)
  })
})
export type User = typeof User.Type["data"]

export const Tweet = Schema.Struct({ data: Schema.Struct({ id: Schema.String, text: Schema.optional(Schema.String) }) })

const ProcessingInfo = Schema.Struct({
  state: Schema.String,
  check_after_secs: Schema.optional(Schema.Number),
  error: Schema.optional(Schema.Struct({ message: Schema.optional(Schema.String) }))
})
export type ProcessingInfo = typeof ProcessingInfo.Type

export const Media = Schema.Struct({
  data: Schema.Struct({ id: Schema.String, processing_info: Schema.optional(ProcessingInfo) })
})
export type Media = typeof Media.Type["data"]

// An append or a metadata call answers little worth reading, and an append may answer with no body at all.
export const Appended = Schema.UndefinedOr(Schema.Struct({ data: Schema.optional(Schema.Unknown) }))

// Asked for with `tweet.fields=referenced_tweets`: what a reply answers.
const References = Schema.optional(Schema.Array(Schema.Struct({ type: Schema.String, id: Schema.String })))

export const Timeline = Schema.Struct({
  data: Schema.optional(Schema.Array(Schema.Struct({ id: Schema.String, text: Schema.String, referenced_tweets: References })))
})

/** The people an answer's `expansions` name (`author_id`, `sender_id`): `id`, `name` and `username` by default. */
const Includes = Schema.optional(Schema.Struct({
  users: Schema.optional(Schema.Array(Schema.Struct({
    id: Schema.String,
    username: Schema.String,
    name: Schema.optional(Schema.String)
  })))
}))
export type XUser = NonNullable<NonNullable<typeof Includes.Type>["users"]>[number]

const Meta = Schema.optional(Schema.Struct({
  newest_id: Schema.optional(Schema.String),
  next_token: Schema.optional(Schema.String)
}))

/** A post as the inbox asks for it (`tweet.fields` below): who wrote it, when, and what it answers. */
const InboxTweet = Schema.Struct({
  id: Schema.String,
  text: Schema.String,
  author_id: Schema.String,
  created_at: Schema.String,
  conversation_id: Schema.optional(Schema.String),
  in_reply_to_user_id: Schema.optional(Schema.String),
  referenced_tweets: References
})
export type InboxTweet = typeof InboxTweet.Type

export const InboxTimeline = Schema.Struct({ data: Schema.optional(Schema.Array(InboxTweet)), includes: Includes, meta: Meta })
export type InboxTimeline = typeof InboxTimeline.Type

const DmEvent = Schema.Struct({
  id: Schema.String,
  event_type: Schema.String,
  text: Schema.optional(Schema.String),
  sender_id: Schema.String,
  dm_conversation_id: Schema.String,
  created_at: Schema.String,
  attachments: Schema.optional(Schema.Struct({ media_keys: Schema.optional(Schema.Array(Schema.String)) }))
})
export type DmEvent = typeof DmEvent.Type

export const DmEvents = Schema.Struct({ data: Schema.optional(Schema.Array(DmEvent)), includes: Includes, meta: Meta })
export type DmEvents = typeof DmEvents.Type

export const DmSent = Schema.Struct({ data: Schema.Struct({ dm_conversation_id: Schema.String, dm_event_id: Schema.String }) })

/** What a page of a listing is asked for: newer than `sinceId`, from `paginationToken` on. */
export interface PageRequest {
  readonly maxResults: number
  readonly sinceId?: string | undefined
  readonly paginationToken?: string | undefined
}
