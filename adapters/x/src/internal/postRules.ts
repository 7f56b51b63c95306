import { SimulatorRules, TextCounter } from "@herald/adapter-kit"
import { field, isObject, jsonObject, onlyFields, pattern, schema, wrongType } from "./ruleChecks.ts"

/**
 * X's rules on a post (`POST /2/tweets`): the fields it takes, its text as X counts it, its media and the
 * post it replies to.
 */

const tweetFields = [
  "card_uri",
  "community_id",
  "direct_message_deep_link",
  "edit_options",
  "for_super_followers_only",
  "geo",
  "made_with_ai",
  "media",
  "nullcast",
  "paid_partnership",
  "poll",
  "quote_tweet_id",
  "reply",
  "reply_settings",
  "share_with_followers",
  "text"
]

/** The longest text X takes, weighted as X's twitter-text counts it (a link 23, CJK and emoji 2). */
export const maxWeightedLength = 280

/** The one rule X answers with 403 Forbidden, `Your Tweet text is too long.`, rather than an invalid request. */
export const tooLong: SimulatorRules.Rule<unknown> = {
  rule: `text of at most ${maxWeightedLength} weighted characters (a link 23, CJK and emoji 2)`,
  source: "https://docs.x.com/resources/fundamentals/counting-characters",
  check: (body) => {
    const text = field(body, "text")
    return typeof text === "string" && TextCounter.count(text, "x-weighted") > maxWeightedLength
      ? "Your Tweet text is too long."
      : undefined
  }
}

/** `POST /2/tweets` over its JSON body. */
export const createPost = SimulatorRules.call<unknown>("POST /2/tweets", [
  jsonObject("/2/tweets"),
  {
    rule: "only the fields CreatePostsRequest lists",
    source: schema("CreatePostsRequest"),
    check: onlyFields("", tweetFields)
  },
  {
    rule: "text a string",
    source: `${schema("CreatePostsRequest")}/properties/text`,
    check: (body) => wrongType("text", field(body, "text"), "string")
  },
  {
    rule: "text, unless media is provided",
    source: `${schema("CreatePostsRequest")}/properties/text`,
    check: (body) => {
      const text = field(body, "text")
      return (typeof text !== "string" || text.trim() === "") && field(body, "media") === undefined
        ? "Text or media is required."
        : undefined
    }
  },
  tooLong,
  {
    rule: "media an object with media_ids and only the fields CreatePostsMedia lists",
    source: schema("CreatePostsMedia"),
    check: (body) => {
      const media = field(body, "media")
      if (media === undefined) return undefined
      if (!isObject(media) || media["media_ids"] === undefined) return "media.media_ids is required."
      return onlyFields("media", [
        "call_to_actions",
        "description",
        "embeddable",
        "media_ids",
        "preview_media_id",
        "tagged_user_ids",
        "title"
      ])(media)
    }
  },
  {
    rule: "media.media_ids an array of 1 to 4 ids",
    source: `${schema("CreatePostsMedia")}/properties/media_ids`,
    check: (body) => {
      const ids = field(body, "media", "media_ids")
      if (ids === undefined) return undefined
      return Array.isArray(ids) && ids.length >= 1 && ids.length <= 4
        ? undefined
        : "media.media_ids must hold 1 to 4 items."
    }
  },
  {
    rule: "each of media.media_ids 1 to 19 digits",
    source: `${schema("CreatePostsMedia")}/properties/media_ids/items`,
    check: (body) => {
      const ids = field(body, "media", "media_ids")
      return Array.isArray(ids) ? ids.map((each) => pattern("media.media_ids", each ?? null)).find((message) => message !== undefined) : undefined
    }
  },
  {
    rule: "reply an object with in_reply_to_tweet_id and only the fields CreatePostsReply lists",
    source: schema("CreatePostsReply"),
    check: (body) => {
      const reply = field(body, "reply")
      if (reply === undefined) return undefined
      if (!isObject(reply) || reply["in_reply_to_tweet_id"] === undefined) return "reply.in_reply_to_tweet_id is required."
      return onlyFields("reply", ["auto_populate_reply_metadata", "exclude_reply_user_ids", "in_reply_to_tweet_id"])(reply)
    }
  },
  {
    rule: "reply.in_reply_to_tweet_id 1 to 19 digits",
    source: `${schema("CreatePostsReply")}/properties/in_reply_to_tweet_id`,
    check: (body) => pattern("reply.in_reply_to_tweet_id", field(body, "reply", "in_reply_to_tweet_id"))
  }
])
