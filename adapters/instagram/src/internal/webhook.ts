import { type Adapter, type AdapterConfig, SignedWebhook } from "@herald/adapter-kit"
import { Option, type Redacted, Schema } from "effect"

// Instagram's webhooks as Meta documents them for Business Login for Instagram
// (https://developers.facebook.com/docs/instagram-platform/webhooks): a verification `GET` that echoes
// `hub.challenge` when `hub.verify_token` is the one set in the App Dashboard, and `POST` notifications signed
// `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>` keyed with the app secret. For an app on
// Instagram Login that is the Instagram app secret, which is the adapter's client secret.

/** The verify token to enter in the App Dashboard (see the README): the kit's, derived from the app secret. */
export const verifyToken = (secret: Redacted.Redacted<string>): string => SignedWebhook.verifyToken("instagram", secret)

/**
 * Fields whose news the inbox reads, and so the ones the inbox subscribes each account to. `comments` are on
 * the account's media; `messages` normally arrive in an entry's `messaging` list, but the Graph webhook
 * reference also files them as a change. Not news: `live_comments` (live media is not among the media the
 * inbox reads), `mentions` (on other people's media), `story_insights` and the rest.
 */
export const fields = ["comments", "messages"] as const
const inboxFields: ReadonlySet<string> = new Set(fields)

/**
 * One entry per account (`id` is "the Instagram professional account ID of your app user", the `user_id`
 * the adapter keeps as `networkAccountId`). Meta's examples show the change both in a `changes` list and,
 * for Business Login, as `field` on the entry itself: both are read.
 */
const Entry = Schema.Struct({
  id: Schema.String,
  field: Schema.optionalKey(Schema.String),
  changes: Schema.optionalKey(Schema.Array(Schema.Struct({ field: Schema.String }))),
  // A messaging event is news only when it carries a message (reads, reactions and postbacks add none).
  messaging: Schema.optionalKey(Schema.Array(Schema.Struct({ message: Schema.optionalKey(Schema.Unknown) })))
})
type Entry = typeof Entry.Type

const Notification = Schema.fromJsonString(Schema.Struct({ object: Schema.String, entry: Schema.Array(Entry) }))
const decode = Schema.decodeUnknownOption(Notification)

const hasNews = (entry: Entry) =>
  (entry.field !== undefined && inboxFields.has(entry.field)) ||
  (entry.changes ?? []).some((change) => inboxFields.has(change.field)) ||
  (entry.messaging ?? []).some((event) => event.message !== undefined)


export const make = (config: AdapterConfig.AdapterConfig): Adapter.NetworkWebhook =>
  SignedWebhook.meta({
    network: "instagram",
    appSecret: config.clientSecret,
    accounts: (text) =>
      Option.map(
        decode(text),
        // Another object (a Page's, if the app's Facebook webhooks point here) names no Instagram account.
        (notification) => notification.object === "instagram" ? notification.entry.filter(hasNews).map((entry) => entry.id) : []
      )
  })
