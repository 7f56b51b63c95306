import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import type { Answer } from "../src/WebhookHttp.ts"
import * as WebhookPolicy from "../src/WebhookPolicy.ts"

const minute = 60_000
// The default schedule: 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h.
const schedule = [1, 5, 30, 120, 360, 720, 1_440].map((minutes) => minutes * minute)

const status = (code: number): Answer => ({ _tag: "Answered", status: code, bodyStart: "", durationMs: 12 })
const timedOut: Answer = { _tag: "Failed", error: "timed out after 10 s", durationMs: 10_000 }
const refused: Answer = { _tag: "Failed", error: "connection refused", durationMs: 3 }

const attempt = (fields: Partial<WebhookPolicy.Attempt> = {}): WebhookPolicy.Attempt => ({
  number: 1,
  attemptsBefore: 0,
  once: false,
  manual: false,
  ...fields
})

describe("WebhookPolicy", () => {
  describe("an attempt's answer", () => {
    it("a 2xx is delivered and ends the message, at any step, and resets the endpoint's count", () => {
      for (const code of [200, 204, 299]) {
        for (const number of [1, 2, 8]) {
          assert.deepStrictEqual(WebhookPolicy.decide(schedule, attempt({ number }), status(code), 1_000), {
            result: "delivered",
            next: { _tag: "Done" },
            outcome: "succeeded",
            keep: true
          })
        }
      }
    })

    it("any other status fails and is retried after the schedule's wait from the attempt's end; a 3xx is not followed", () => {
      for (const code of [301, 400, 410, 500, 503]) {
        const decided = WebhookPolicy.decide(schedule, attempt(), status(code), 1_000)
        assert.strictEqual(decided.result, "failed")
        assert.deepStrictEqual(decided.next, { _tag: "Retry", at: 1_000 + minute })
      }
    })

    it("no answer (a timeout, a refused connection) is unreachable and retried the same way", () => {
      for (const answer of [timedOut, refused]) {
        const decided = WebhookPolicy.decide(schedule, attempt({ number: 3 }), answer, 0)
        assert.strictEqual(decided.result, "unreachable")
        assert.deepStrictEqual(decided.next, { _tag: "Retry", at: 30 * minute })
      }
    })

    it("the last retry that fails gives up; the count only moves at the first retry", () => {
      const steps = schedule.length + 1
      const decided = Array.from({ length: steps }, (_, index) => WebhookPolicy.decide(schedule, attempt({ number: index + 1 }), status(500), 0))
      assert.deepStrictEqual(decided.map((one) => one.next._tag), ["Retry", "Retry", "Retry", "Retry", "Retry", "Retry", "Retry", "GiveUp"])
      assert.deepStrictEqual(decided.map((one) => one.outcome), ["failed", "event failed", "failed", "failed", "failed", "failed", "failed", "failed"])
    })

    it("after its endpoint is switched on again, a message's schedule starts from the first wait", () => {
      const decided = WebhookPolicy.decide(schedule, attempt({ number: 9, attemptsBefore: 8 }), refused, 0)
      assert.deepStrictEqual(decided.next, { _tag: "Retry", at: minute })
      assert.strictEqual(WebhookPolicy.decide(schedule, attempt({ number: 10, attemptsBefore: 8 }), refused, 0).outcome, "event failed")
    })

    it("a test event has one attempt: failed, it gives up, counts its event, and is never kept for a switched-off endpoint", () => {
      assert.deepStrictEqual(WebhookPolicy.decide(schedule, attempt({ once: true }), status(500), 0), {
        result: "failed",
        next: { _tag: "GiveUp" },
        outcome: "event failed",
        keep: false
      })
      assert.deepStrictEqual(WebhookPolicy.decide(schedule, attempt({ once: true }), status(200), 0).next, { _tag: "Done" })
    })

    it("a redelivery by hand that fails leaves the message where it was and does not count; one that succeeds ends it", () => {
      const failed = WebhookPolicy.decide(schedule, attempt({ number: 2, manual: true }), timedOut, 0)
      assert.deepStrictEqual(failed.next, { _tag: "Stay" })
      assert.strictEqual(failed.outcome, "failed")
      const delivered = WebhookPolicy.decide(schedule, attempt({ number: 2, manual: true }), status(200), 0)
      assert.deepStrictEqual(delivered.next, { _tag: "Done" })
      assert.strictEqual(delivered.outcome, "succeeded")
    })

    it("with no retries configured, the first failure gives up and counts its event", () => {
      assert.deepStrictEqual(WebhookPolicy.decide([], attempt(), refused, 0).next, { _tag: "GiveUp" })
      assert.strictEqual(WebhookPolicy.decide([], attempt(), refused, 0).outcome, "event failed")
    })
  })

  describe("over random runs of failures", () => {
    const failure = fc.oneof(
      fc.integer({ min: 100, max: 599 }).filter((code) => code < 200 || code >= 300).map(status),
      fc.constantFrom(timedOut, refused)
    )
    const runs = fc.record({
      schedule: fc.array(fc.nat(48 * 60 * minute), { maxLength: 10 }),
      attemptsBefore: fc.nat(20),
      once: fc.boolean(),
      start: fc.nat(1_000_000),
      // Each attempt's answer, and how late after its due time it ends (a claim's wait, a slow receiver).
      answers: fc.array(fc.tuple(failure, fc.nat(10 * 60_000)), { minLength: 12, maxLength: 12 })
    })

    /** The decisions a message's attempts get, each made when the one before had it due, until one does not retry. */
    const run = (sequence: typeof runs extends fc.Arbitrary<infer Run> ? Run : never) => {
      const decisions: Array<{ readonly ended: number; readonly decision: WebhookPolicy.Decision }> = []
      let due = sequence.start
      for (const [index, [answer, late]] of sequence.answers.entries()) {
        const ended = due + late
        const decision = WebhookPolicy.decide(
          sequence.schedule,
          { number: sequence.attemptsBefore + index + 1, attemptsBefore: sequence.attemptsBefore, once: sequence.once, manual: false },
          answer,
          ended
        )
        decisions.push({ ended, decision })
        if (decision.next._tag !== "Retry") break
        due = decision.next.at
      }
      return decisions
    }

    it("a retry is never due before the attempt it follows ended, so retry times never go backwards", () => {
      fc.assert(fc.property(runs, (sequence) => {
        let last = -Infinity
        for (const { decision, ended } of run(sequence)) {
          if (decision.next._tag !== "Retry") continue
          assert.isAtLeast(decision.next.at, ended)
          assert.isAtLeast(decision.next.at, last)
          last = decision.next.at
        }
      }), { numRuns: 1_000 })
    })

    it("every run of failures gives up after exactly the schedule's attempts, and counts its event once", () => {
      fc.assert(fc.property(runs, (sequence) => {
        const decisions = run(sequence)
        const steps = sequence.once ? 1 : sequence.schedule.length + 1
        assert.strictEqual(decisions.length, steps)
        assert.deepStrictEqual(decisions.at(-1)!.decision.next, { _tag: "GiveUp" })
        assert.strictEqual(decisions.filter(({ decision }) => decision.outcome === "event failed").length, 1)
      }), { numRuns: 1_000 })
    })

    it("a redelivery by hand never moves a message on failure, never counts, and never starts a schedule", () => {
      fc.assert(fc.property(runs, fc.nat(30), (sequence, number) => {
        for (const [answer, late] of sequence.answers) {
          const decision = WebhookPolicy.decide(
            sequence.schedule,
            { number: sequence.attemptsBefore + number + 1, attemptsBefore: sequence.attemptsBefore, once: sequence.once, manual: true },
            answer,
            late
          )
          assert.deepStrictEqual(decision.next, { _tag: "Stay" })
          assert.strictEqual(decision.outcome, "failed")
        }
      }), { numRuns: 500 })
    })
  })
})
