import { assert, describe, it } from "@effect/vitest"
import { Option } from "effect"
import * as Inbox from "../../src/internal/inbox.ts"

const second = (iso: string) => Date.parse(iso)

describe("inbox cursor", () => {
  it("moves to the newest second and remembers what it returned in it", () => {
    const t1 = second("2024-05-01T10:00:00Z")
    const t2 = second("2024-05-01T10:00:01Z")
    const cursor = Inbox.advance(Inbox.start, [{ id: "a", at: t1 }, { id: "b", at: t2 }, { id: "c", at: t2 }])
    assert.deepStrictEqual(cursor, { at: t2, seen: ["b", "c"] })
    assert.isFalse(Inbox.isNewer(cursor, "b", t2))
    assert.isTrue(Inbox.isNewer(cursor, "d", t2), "another item of the same second is still news")
    assert.isFalse(Inbox.isNewer(cursor, "e", t1))
    // Nothing new: the same cursor; more of the same second: added to it.
    assert.deepStrictEqual(Inbox.advance(cursor, []), cursor)
    assert.deepStrictEqual(Inbox.advance(cursor, [{ id: "d", at: t2 }]), { at: t2, seen: ["b", "c", "d"] })
  })

  it("round-trips through its text and refuses any other text", () => {
    const cursor = { at: second("2024-05-01T10:00:00Z"), seen: ["1_2"] }
    assert.deepStrictEqual(Inbox.decodeCursor(Inbox.encodeCursor(cursor)), Option.some(cursor))
    assert.isTrue(Option.isNone(Inbox.decodeCursor("latest")))
  })

  it("reads Graph times in both forms", () => {
    assert.strictEqual(Inbox.millisOf("2024-05-01T10:00:00+0000"), second("2024-05-01T10:00:00Z"))
    assert.strictEqual(Inbox.millisOf(1714557600), second("2024-05-01T10:00:00Z"))
  })
})

describe("inbox items", () => {
  it("marks the Page's own messages as outgoing and counts attachments", () => {
    const message = Inbox.toMessage("1", "t_9", {
      id: "m_1",
      created_time: "2024-05-01T10:00:00+0000",
      from: { id: "1", name: "Herald Page" },
      attachments: { data: [{}, {}] }
    })
    assert.isTrue(message.outgoing)
    assert.strictEqual(message.attachments, 2)
    assert.strictEqual(message.text, "")
  })

  it("keeps a comment whose author Facebook hides, with an empty id", () => {
    const comment = Inbox.toComment("1_2", { id: "2_3", created_time: "2024-05-01T10:00:00+0000", parent: { id: "2_1" } })
    assert.deepStrictEqual([comment.author.id, comment.replyTo, comment.permalink], ["", "2_1", null])
  })
})
