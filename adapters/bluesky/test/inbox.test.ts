import { assert, describe, it } from "@effect/vitest"
import type { BlueskyClient } from "../src/index.ts"
import * as Inbox from "../src/internal/inbox.ts"

const notification = (fields: Partial<BlueskyClient.Notification> & { readonly uri: string; readonly indexedAt: string }) =>
  ({
    cid: "bafyreiabc",
    author: { did: "did:plc:reader", handle: "reader.bsky.social", displayName: "Reader" },
    reason: "reply",
    record: { text: "hello" },
    ...fields
  }) as BlueskyClient.Notification

const post = "at://did:plc:me/app.bsky.feed.post/3kroot"

describe("Bluesky inbox", () => {
  it("makes a reply a comment on its thread's root, answering its parent when that is not the root", () => {
    const onPost = Inbox.toComment("https://bsky.app", notification({
      uri: "at://did:plc:reader/app.bsky.feed.post/3kone",
      indexedAt: "2026-11-24T10:00:00.000Z",
      record: { text: "first", createdAt: "2026-11-24T09:59:59.000Z", reply: { root: { uri: post, cid: "c" }, parent: { uri: post, cid: "c" } } }
    }))
    assert.deepStrictEqual(
      [onPost.postId, onPost.replyTo, onPost.author.id, onPost.author.name, onPost.createdAt],
      [post, null, "did:plc:reader", "Reader", "2026-11-24T09:59:59.000Z"]
    )
    assert.strictEqual(onPost.permalink, "https://bsky.app/profile/reader.bsky.social/post/3kone")
    const parent = "at://did:plc:me/app.bsky.feed.post/3kmine"
    const deeper = Inbox.toComment("https://bsky.app", notification({
      uri: "at://did:plc:reader/app.bsky.feed.post/3ktwo",
      indexedAt: "2026-11-24T10:00:00.000Z",
      record: { text: "again", createdAt: "not a date", reply: { root: { uri: post, cid: "c" }, parent: { uri: parent, cid: "c" } } }
    }))
    assert.deepStrictEqual([deeper.postId, deeper.replyTo, deeper.createdAt], [post, parent, "2026-11-24T10:00:00.000Z"])
  })

  it("makes a mention outside any thread a comment on its own post", () => {
    const uri = "at://did:plc:reader/app.bsky.feed.post/3kmention"
    const mention = Inbox.toComment("https://bsky.app", notification({ uri, reason: "mention", indexedAt: "2026-11-24T10:00:00.000Z" }))
    assert.deepStrictEqual([mention.postId, mention.replyTo], [uri, null])
    assert.isTrue(Inbox.inboxReasons.has("mention"))
    assert.isFalse(Inbox.inboxReasons.has("like"))
  })

  it("moves the cursor to the newest instant and keeps what was seen at it, so nothing comes twice", () => {
    const a = notification({ uri: "at://a", indexedAt: "2026-11-24T10:00:00.000Z" })
    const b = notification({ uri: "at://b", indexedAt: "2026-11-24T10:00:01.000Z" })
    const c = notification({ uri: "at://c", indexedAt: "2026-11-24T10:00:01.000Z" })
    const cursor = Inbox.advance(Inbox.start, [b, a])
    assert.deepStrictEqual(cursor, { at: Date.parse(b.indexedAt), uris: ["at://b"] })
    assert.deepStrictEqual([Inbox.isNew(cursor, a), Inbox.isNew(cursor, b), Inbox.isNew(cursor, c)], [false, false, true])
    assert.isTrue(Inbox.isOlder(cursor, a))
    assert.deepStrictEqual(Inbox.decodeCursor(Inbox.encodeCursor(cursor)), cursor)
    assert.isUndefined(Inbox.decodeCursor("1700000000:abc"))
  })
})
