import { type Adapter, SignedWebhook } from "@herald/adapter-kit"
import { Option, type Redacted, Schema } from "effect"

// Meta's webhooks for the Page object, as pure checks over the request Herald hands on
// (https://developers.facebook.com/docs/graph-api/webhooks/getting-started,
// https://developers.facebook.com/docs/pages-api/webhooks-for-pages). Meta first checks the callback URL
// with a `GET` carrying `hub.mode=subscribe`, `hub.verify_token` and `hub.challenge`, and expects the
// challenge back; then it `POST`s notifications signed with `X-Hub-Signature-256: sha256=<hex HMAC-SHA256
// of the raw body, keyed with the app secret>`. A notification only says which Pages have news: the inbox
// is then read by polling as usual, so no payload detail needs to be trusted beyond the Page id.
// The handshake, the signature and the verify token are the kit's (`SignedWebhook`), shared with Instagram
// and Threads.

/**
 * A `feed` change (https://developers.facebook.com/docs/graph-api/webhooks/reference/page/#feed): only a
 * comment being added is inbox news; posts, reactions, shares, edits and removals are not.
 */
const FeedChange = Schema.Struct({ item: Schema.optionalKey(Schema.String), verb: Schema.optionalKey(Schema.String) })

/**
 * The notification, decoded leniently: Meta batches entries (up to 1000, possibly for several Pages) and
 * each field has its own `value` shape, so values are read only for the fields Herald acts on. `entry[].id`
 * is the Page id, the same id the adapter keeps as `networkAccountId` (`GET /me` with the Page token).
 * Messenger events (field `messages`) come in `entry[].messaging`, not in `changes`
 * (https://developers.facebook.com/docs/messenger-platform/webhooks).
 */
const Notification = Schema.Struct({
  object: Schema.String,
  entry: Schema.Array(Schema.Struct({
    id: Schema.String,
    changes: Schema.optionalKey(Schema.Array(Schema.Struct({ field: Schema.String, value: Schema.optionalKey(Schema.Unknown) }))),
    messaging: Schema.optionalKey(Schema.Array(Schema.Struct({ message: Schema.optionalKey(Schema.Unknown) })))
  }))
})
type Entry = typeof Notification.Type["entry"][number]

const NotificationJson = Schema.fromJsonString(Notification)

const isNewComment = (change: NonNullable<Entry["changes"]>[number]): boolean =>
  change.field === "feed" &&
  Option.match(Schema.decodeUnknownOption(FeedChange)(change.value), {
    onNone: () => false,
    onSome: (feed) => feed.item === "comment" && feed.verb === "add"
  })

/** A message received (not a delivery or read receipt, a postback or a reaction, which share `messaging`). */
const hasNews = (entry: Entry): boolean =>
  (entry.changes ?? []).some(isNewComment) || (entry.messaging ?? []).some((event) => event.message !== undefined)

export const make = (appSecret: Redacted.Redacted<string>): Adapter.NetworkWebhook =>
  SignedWebhook.meta({
    network: "facebook",
    appSecret,
    accounts: (text) =>
      Option.map(
        Schema.decodeUnknownOption(NotificationJson)(text),
        // Another object (an Instagram account, say) sent to this URL by mistake names no Page.
        (notification) => notification.object === "page" ? notification.entry.filter(hasNews).map((entry) => entry.id) : []
      )
  })
