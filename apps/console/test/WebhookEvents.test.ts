import { assert, describe, it } from "@effect/vitest"
import { Webhook } from "../../../packages/domain/src/index.ts"
import { describeEvents, groupEvents } from "../src/pages/webhooks/events.ts"

// How the console groups and summarises webhook events. Which events there are comes from the API
// (GET /api/v1/webhooks/events, apps/server/test/Webhooks.test.ts checks it answers Webhook.EventKinds), so
// the grouping is tested here with the service's own list and with one the console has never seen.
describe("the console's webhook events", () => {
  it("are grouped by kind, every event once, with a name for every kind the service has", () => {
    const groups = groupEvents(Webhook.EventKinds)
    assert.deepStrictEqual(groups.flatMap((group) => group.events), [...Webhook.EventKinds])
    assert.deepStrictEqual(groups.map((group) => group.kind), ["post", "account", "member", "comment", "message", "webhook"])
    for (const group of groups) {
      assert.notStrictEqual(group.name, group.kind, `the kind ${group.kind} has no name for people`)
      for (const event of group.events) assert.isTrue(event.startsWith(`${group.kind}.`))
    }
  })

  it("keep an event of a kind the console does not know, under the kind's own name, in the API's order", () => {
    assert.deepStrictEqual(groupEvents(["post.created", "invoice.paid", "post.failed"]), [
      { kind: "post", name: "Posts", events: ["post.created", "post.failed"] },
      { kind: "invoice", name: "invoice", events: ["invoice.paid"] }
    ])
  })

  it("summarise a selection: all, a few by name, many shortened", () => {
    assert.strictEqual(describeEvents([]), "All events")
    assert.strictEqual(describeEvents(["post.published", "post.failed"]), "post.published, post.failed")
    assert.strictEqual(describeEvents(["a.1", "a.2", "a.3", "a.4", "a.5"]), "a.1, a.2 and 3 more")
  })
})
