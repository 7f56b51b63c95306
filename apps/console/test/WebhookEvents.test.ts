import { assert, describe, it } from "@effect/vitest"
import { Webhook } from "../../../packages/domain/src/index.ts"
import { describeEvents, eventGroups, eventKinds } from "../src/pages/webhooks/events.ts"

// The webhook event picker's list against the service's own: the API takes events as plain strings (no enum
// in its OpenAPI document), so the console keeps one list, and this says when it falls behind.
describe("the console's webhook events", () => {
  it("are exactly the events the service knows, in its order", () => {
    assert.deepStrictEqual([...eventKinds], [...Webhook.EventKinds])
  })

  it("are grouped by kind, every event once, with a name for every kind", () => {
    assert.deepStrictEqual(eventGroups.flatMap((group) => group.events), [...Webhook.EventKinds])
    assert.deepStrictEqual(eventGroups.map((group) => group.kind), ["post", "account", "member", "comment", "message", "webhook"])
    for (const group of eventGroups) {
      assert.notStrictEqual(group.name, group.kind, `the kind ${group.kind} has no name for people`)
      for (const event of group.events) assert.isTrue(event.startsWith(`${group.kind}.`))
    }
  })

  it("summarise a selection: all, a few by name, many shortened", () => {
    assert.strictEqual(describeEvents([]), "All events")
    assert.strictEqual(describeEvents(["post.published", "post.failed"]), "post.published, post.failed")
    assert.strictEqual(describeEvents(["a.1", "a.2", "a.3", "a.4", "a.5"]), "a.1, a.2 and 3 more")
  })
})
