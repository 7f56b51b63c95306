import { type Adapter, SignedWebhook } from "@herald/adapter-kit"
import { Effect, Option, type Redacted, Schema } from "effect"

/**
 * X's webhooks (the v2 Webhooks API, carrying Account Activity or X Activity events) as Herald's
 * `NetworkWebhook`. Both checks X makes use one primitive, an HMAC-SHA256 keyed with the app's secret,
 * base64 and prefixed with `sha256=` (https://docs.x.com/x-api/webhooks/quickstart):
 * - the Challenge-Response Check: a `GET ?crc_token=…`, at registration, hourly and on `PUT /2/webhooks/{id}`,
 *   answered `{"response_token":"sha256=<HMAC of the crc_token>"}`; a webhook that fails it stops receiving;
 * - every event `POST` is signed in `x-twitter-webhooks-signature` over the raw body.
 * Pure but for the HMAC: the adapter hands in the secret.
 */

/** The header X signs each delivery in; Herald's server hands headers over lower-cased. */
const signatureHeader = "x-twitter-webhooks-signature"

const sign = (secret: Redacted.Redacted<string>, message: string | Uint8Array) =>
  `sha256=${SignedWebhook.hmac(secret, message, "base64")}`

/**
 * What a `crc_token` from X looks like. X calls it opaque (`?crc_token=challenge_string`,
 * https://docs.x.com/x-api/webhooks/quickstart, read 2026-12-01); the ones it sends are base64 of a UUID,
 * 48 characters (`crc_token=M2RkODJkZmMtYjlkYi00NmQ4LTk0MGUtM2JjYzkwM2Q4MjQ0&nonce=…`, an X CRC request
 * logged on 2026-01-27). The CRC and the deliveries are signed with the same key, so answering any string
 * would sign a delivery body of the asker's choice: up to 128 characters of base64 (either alphabet) leaves
 * room for X and none for a JSON object, which needs `{`, `"` and `:`.
 */
const crcTokenShape = /^[A-Za-z0-9_\-+/=]{1,128}$/

/** Nor a bare JSON value (`123`, `true`, `null`), which nothing reads as an event but costs nothing to refuse. */
const AnyJson = Schema.fromJsonString(Schema.Unknown)
const parsesAsJson = (token: string) => Option.isSome(Schema.decodeUnknownOption(AnyJson)(token))

/**
 * The CRC answer, for a `crc_token` of X's shape only; a `GET` without one, or with another, is not X's
 * check, and Herald answers it 400 without signing anything.
 */
export const handshake = (secret: Redacted.Redacted<string>) => (query: Readonly<Record<string, string>>) =>
  Option.map(
    Option.filter(
      Option.fromUndefinedOr(query["crc_token"]),
      (token) => crcTokenShape.test(token) && !parsesAsJson(token)
    ),
    (token) => ({ status: 200, body: JSON.stringify({ response_token: sign(secret, token) }) })
  )

/**
 * The parts of an event that say whether the inbox has news, in either of the two shapes X delivers to a
 * v2 webhook; everything else (likes, follows, blocks, typing, read receipts, deletes, revokes, profile
 * updates, replay job notices) is left undecoded and reads as none.
 * - Account Activity (https://docs.x.com/x-api/account-activity/introduction): `for_user_id` names the
 *   subscribed user, with posts in the v1.1 shape under `tweet_create_events` and DMs under
 *   `direct_message_events`. X marks it deprecated in favour of:
 * - X Activity (https://docs.x.com/x-api/activity/event-payloads): `{"data":{"event_type","filter":{"user_id"}}}`.
 */
const Activity = Schema.Struct({
  for_user_id: Schema.optional(Schema.String),
  tweet_create_events: Schema.optional(Schema.Array(Schema.Struct({
    in_reply_to_status_id_str: Schema.optional(Schema.NullOr(Schema.String))
  }))),
  direct_message_events: Schema.optional(Schema.Array(Schema.Struct({ type: Schema.optional(Schema.String) }))),
  data: Schema.optional(Schema.Struct({
    event_type: Schema.optional(Schema.String),
    filter: Schema.optional(Schema.Struct({ user_id: Schema.optional(Schema.String) }))
  }))
})
type Activity = typeof Activity.Type

const ActivityJson = Schema.fromJsonString(Activity)

/**
 * Whether an Account Activity event is something the inbox reads: a reply (the inbox's comments are
 * replies, to the account or by it to someone else; a post that only mentions it is not one), or a direct
 * message sent or received.
 */
const isInboxNews = (activity: Activity) =>
  (activity.tweet_create_events ?? []).some((tweet) => typeof tweet.in_reply_to_status_id_str === "string") ||
  (activity.direct_message_events ?? []).some((event) => event.type === "message_create")

/**
 * The X Activity events the inbox reads. A mention may be a reply (X's sample shows no reply field to tell),
 * so each one has the account read; encrypted chat (`chat.*`) is not in the DM listing the inbox reads.
 */
const activityNews: ReadonlySet<string> = new Set(["post.mention.create", "dm.received", "dm.sent"])

const rejected = (message: string) => ({ _tag: "WebhookRejected" as const, message })

/**
 * The account with news: the subscribed user an event is for (`for_user_id`, or X Activity's
 * `filter.user_id`), one per delivery; two subscribed users in one conversation get one delivery each. It is
 * the X user id, the account's `networkAccountId` (from `GET /2/users/me`).
 */
export const receive = (secret: Redacted.Redacted<string>): Adapter.NetworkWebhook["receive"] => ({ body, headers }) => {
  const given = headers[signatureHeader]
  if (given === undefined || !SignedWebhook.sameSecret(given, sign(secret, body))) {
    return Effect.fail(rejected(`${signatureHeader} does not match the body`))
  }
  return Schema.decodeUnknownEffect(ActivityJson)(Buffer.from(body).toString("utf8")).pipe(
    Effect.map((activity): ReadonlyArray<string> => {
      if (activity.for_user_id !== undefined) return isInboxNews(activity) ? [activity.for_user_id] : []
      const userId = activity.data?.filter?.user_id
      const type = activity.data?.event_type
      return userId !== undefined && type !== undefined && activityNews.has(type) ? [userId] : []
    }),
    Effect.mapError(() => rejected("the body is not an X webhook event"))
  )
}
