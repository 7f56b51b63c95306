import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { readFileSync } from "node:fs"
import { Post, PostStatus, Webhook } from "../src/index.ts"

const status = fc.constantFrom(...PostStatus.all)
const targetStatus = fc.constantFrom(...Post.TargetStatus.literals)

/** One step a post may be asked to take, with what the step's function needs. */
const step = fc.oneof(
  fc.record({ action: fc.constant("edit" as const), toDraft: fc.boolean(), needsApproval: fc.boolean(), timeHasCome: fc.boolean() }),
  fc.record({ action: fc.constant("submit" as const) }),
  fc.record({ action: fc.constant("approve" as const), at: fc.integer(), now: fc.integer() }),
  fc.record({ action: fc.constant("requestChanges" as const) }),
  fc.record({ action: fc.constant("begin" as const) }),
  fc.record({ action: fc.constant("finish" as const), targets: fc.array(targetStatus, { minLength: 1, maxLength: 5 }) }),
  fc.record({ action: fc.constant("retry" as const) })
)
type Step = typeof step extends fc.Arbitrary<infer A> ? A : never

/** Where the step takes a post in `from`, as core asks: `undefined` when the post cannot take it. */
const next = (from: PostStatus.Status, request: Step): PostStatus.Status | undefined => {
  switch (request.action) {
    case "edit":
      return PostStatus.onPatch(from, request)
    case "submit":
    case "requestChanges":
    case "begin":
      return from === PostStatus.sourceOf(request.action)
        ? PostStatus.table.find((move) => move.action === request.action)!.to
        : undefined
    case "approve":
      return from === PostStatus.sourceOf("approve") ? PostStatus.onApprove(request.at, request.now) : undefined
    case "finish":
      return from === PostStatus.publishing ? PostStatus.onPublishOutcome(request.targets) : undefined
    case "retry":
      return PostStatus.onRetry(from)
  }
}

const created = fc.record({ draft: fc.boolean(), awaitingApproval: fc.boolean(), publishNow: fc.boolean() })

describe("PostStatus", () => {
  it("every move the functions make is in the table, under the action that made it", () => {
    fc.assert(fc.property(created, fc.array(step, { maxLength: 30 }), (timing, steps) => {
      let current = PostStatus.onCreate(timing)
      assert.notInclude(PostStatus.final, current)
      for (const request of steps) {
        const to = next(current, request)
        if (to === undefined) continue
        assert.isTrue(PostStatus.canMove(current, to, request.action), `${request.action}: ${current} -> ${to}`)
        current = to
      }
    }))
  })

  it("no move leaves a final status but a retry's, and a retry leaves nothing else", () => {
    for (const move of PostStatus.table) {
      if (PostStatus.isFinal(move.from)) assert.strictEqual(move.action, "retry", `${move.from} -> ${move.to}`)
      if (move.action === "retry") assert.isTrue(PostStatus.isFinal(move.from))
    }
    fc.assert(fc.property(fc.constantFrom(...PostStatus.final), step, (from, request) => {
      const to = next(from, request)
      if (to !== undefined) assert.strictEqual(request.action, "retry")
    }))
  })

  it("a post is out of reach of edits from the moment it goes out", () => {
    fc.assert(fc.property(status, fc.boolean(), fc.boolean(), fc.boolean(), (from, toDraft, needsApproval, timeHasCome) => {
      const to = PostStatus.onPatch(from, { toDraft, needsApproval, timeHasCome })
      assert.strictEqual(to === undefined, [PostStatus.publishing, ...PostStatus.final].includes(from))
    }))
    assert.isFalse(PostStatus.isDeletable(PostStatus.publishing))
    assert.isTrue(PostStatus.isDeletable(PostStatus.failed))
  })

  it("the targets' outcome is published when none failed, failed when none went out, partial otherwise", () => {
    fc.assert(fc.property(fc.array(targetStatus, { maxLength: 8 }), (targets) => {
      const pending = targets.filter((target) => target === "pending").length
      const failed = targets.filter((target) => target === "failed").length
      const published = targets.filter((target) => target === "published").length
      // The rule the publisher's SQL applies once no target is pending.
      const expected = pending > 0 ? undefined : failed === 0 ? "published" : published === 0 ? "failed" : "partial"
      assert.strictEqual(PostStatus.onPublishOutcome(targets), expected)
    }))
    assert.strictEqual(PostStatus.onPublishOutcome(["published", "failed"]), "partial")
    assert.strictEqual(PostStatus.onPublishOutcome(["failed", "failed"]), "failed")
  })

  it("a new post is a draft, awaiting approval, going out or scheduled, in that precedence", () => {
    assert.strictEqual(PostStatus.onCreate({ draft: true, awaitingApproval: true, publishNow: true }), "draft")
    assert.strictEqual(PostStatus.onCreate({ draft: false, awaitingApproval: true, publishNow: true }), "awaiting_approval")
    assert.strictEqual(PostStatus.onCreate({ draft: false, awaitingApproval: false, publishNow: true }), "publishing")
    assert.strictEqual(PostStatus.onCreate({ draft: false, awaitingApproval: false, publishNow: false }), "scheduled")
  })

  it("approval at or after the time sends the post now; an edit under approval stays under approval", () => {
    assert.strictEqual(PostStatus.onApprove(1000, 1000), "publishing")
    assert.strictEqual(PostStatus.onApprove(1001, 1000), "scheduled")
    assert.strictEqual(
      PostStatus.onPatch("awaiting_approval", { toDraft: false, needsApproval: false, timeHasCome: true }),
      "awaiting_approval"
    )
    assert.strictEqual(PostStatus.onPatch("scheduled", { toDraft: false, needsApproval: false, timeHasCome: true }), "publishing")
  })

  it("every event a move emits is an event kind webhooks know", () => {
    for (const move of PostStatus.table) {
      if (move.event !== undefined) assert.include(Webhook.EventKinds, move.event)
    }
    assert.deepStrictEqual(
      PostStatus.table.filter((move) => move.action === "finish").map((move) => move.event),
      ["post.published", "post.partial", "post.failed"]
    )
  })

  it("imports types only, so the console bundles it without Effect (decision 0085)", () => {
    const source = readFileSync(new URL("../src/PostStatus.ts", import.meta.url), "utf8")
    const imports = source.split("\n").filter((line) => /^import\b/.test(line))
    assert.isAbove(imports.length, 0)
    for (const line of imports) assert.match(line, /^import type /, `a run-time import in PostStatus.ts: ${line}`)
  })

  it("lists the schema's statuses, which are made from it", () => {
    assert.deepStrictEqual(Post.PostStatus.literals, PostStatus.all)
  })
})
