import { type Adapter, SignedWebhook } from "@herald/adapter-kit"
import { Option, type Redacted, Schema } from "effect"

/**
 * Threads' webhook (https://developers.facebook.com/docs/threads/webhooks), checked the way Meta checks every
 * Graph webhook (https://developers.facebook.com/docs/graph-api/webhooks/getting-started): a `GET` with
 * `hub.mode=subscribe`, `hub.verify_token` and `hub.challenge` when the callback URL is saved, and each
 * notification `POST`ed with `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>` keyed with the
 * app secret. For a Threads app that is the Threads app secret, the one Herald already holds as the client
 * secret: the notification's `app_id` is the Threads app id.
 *
 * Threads' notifications are not Graph's `entry[]` batches: each carries one `values: { field, value }`, and
 * its `target_id` is a media id for `replies` (the mentioned user only for `mentions`). The account a reply
 * is news for is the owner of the post it hangs under, `value.root_post.owner_id`: the inbox reads exactly
 * the replies to the account's own posts, so a reply under someone else's post is no news for it.
 */

/** Only replies are inbox news: mentions are not read by the inbox, `publish` and `delete` are the account's own. */
const inboxFields: ReadonlySet<string> = new Set(["replies"])

const Change = Schema.Struct({
  field: Schema.String,
  value: Schema.optional(Schema.Struct({
    root_post: Schema.optional(Schema.Struct({ owner_id: Schema.optional(Schema.String) }))
  }))
})

/**
 * Meta's documentation shows `values` as one object; live deliveries have been reported with an array of
 * them (third-party, unconfirmed), so both are read.
 */
const Notification = Schema.fromJsonString(Schema.Struct({ values: Schema.ArrayEnsure(Change) }))

export const make = (appSecret: Redacted.Redacted<string>): Adapter.NetworkWebhook =>
  SignedWebhook.meta({
    network: "threads",
    appSecret,
    accounts: (text) =>
      Option.map(Schema.decodeUnknownOption(Notification)(text), ({ values }) =>
        values.flatMap((change) => {
          const owner = change.value?.root_post?.owner_id
          return inboxFields.has(change.field) && owner !== undefined ? [owner] : []
        }))
  })
