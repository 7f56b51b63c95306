import { assert, describe, it } from "@effect/vitest"
import { PublishError } from "@herald/adapter-kit"
import * as fc from "fast-check"
import * as pacing from "../src/internal/pacing.ts"
import * as PublishPolicy from "../src/PublishPolicy.ts"

const limits: PublishPolicy.Limits = {
  retryForMs: 60_000,
  baseDelayMs: 1_000,
  maxDelayMs: 8_000,
  processingLimitMs: 600_000,
  pollWaitCapMs: 5_000
}

/** A network; later steps whose handle starts with "p" may make the post (as a container's publish). */
const networkOf = (canReconcile: boolean, laterMakesPost = false): PublishPolicy.Network => ({
  network: "net",
  name: "Net",
  who: "@someone on Net",
  canReconcile,
  makesPost: (handle) => laterMakesPost && handle.startsWith("p")
})
const asked = networkOf(true)
const unasked = networkOf(false)

const fresh = (network = asked, row: Partial<Parameters<typeof PublishPolicy.start>[1]> = {}) =>
  PublishPolicy.start(network, { handle: null, call: null, failedAttempts: 0, faultingSince: null, ...row }, 0)
const polling = (network = asked, handle = "q1") => fresh(network, { handle })

const refused = (error: PublishError.PublishError): PublishPolicy.Answer => ({ _tag: "Refused", error })
const published = { id: "1", url: "https://net.example/1" }

describe("PublishPolicy", () => {
  describe("a call's answer", () => {
    it("published: succeeds, and a run that was faulting starts its retry time afresh", () => {
      const calm = PublishPolicy.decide(asked, limits, fresh(), { _tag: "Answered", step: { _tag: "Published", published } }, 10)
      assert.deepStrictEqual(calm.action, { _tag: "Succeed", published })
      assert.deepStrictEqual(calm.writes, [])
      const after = PublishPolicy.decide(asked, limits, { ...fresh(), faultingSince: 5, failures: 3 }, { _tag: "Answered", step: { _tag: "Published", published } }, 10)
      assert.deepStrictEqual(after.writes, [{ _tag: "Progressed" }])
      assert.strictEqual(after.state.faultingSince, null)
      assert.strictEqual(after.state.failures, 0)
    })

    it("processing: stores the handle, polls it after the network's wait (capped), fails past the processing limit", () => {
      const answer: PublishPolicy.Answer = { _tag: "Answered", step: { _tag: "Processing", handle: "q7", checkAfterMs: 30_000 } }
      const going = PublishPolicy.decide(asked, limits, fresh(), answer, 10)
      assert.deepStrictEqual(going.writes, [{ _tag: "Handle", handle: "q7" }])
      assert.deepStrictEqual(going.action, { _tag: "Sleep", ms: limits.pollWaitCapMs })
      assert.deepStrictEqual(going.state.step, { call: "poll", handle: "q7" })
      const late = PublishPolicy.decide(asked, limits, fresh(), answer, limits.processingLimitMs + 1)
      assert.deepStrictEqual(late.writes, [{ _tag: "Handle", handle: "q7" }])
      assert.strictEqual(late.action._tag, "Fail")
      assert.include((late.action as { message: string }).message, "was still processing the post after 10 min")
    })

    it("transient on a network that cannot be asked: tried again as it is, within the retry time, then failed with the reason", () => {
      const first = PublishPolicy.decide(unasked, limits, fresh(unasked), refused(PublishError.transient("net", "503")), 1_000)
      assert.deepStrictEqual(first.writes, [{ _tag: "Mark", call: null }])
      assert.deepStrictEqual(first.action, {
        _tag: "Backoff",
        at: 1_000,
        failures: 1,
        faultingSince: 1_000,
        call: null,
        lateReason: "net failing since 1970-01-01T00:00:01.000Z (net: 503); retrying"
      })
      assert.strictEqual(PublishPolicy.next(first.state), "publish")
      const spent = PublishPolicy.decide(unasked, limits, first.state, refused(PublishError.transient("net", "503")), 1_000 + limits.retryForMs)
      assert.deepStrictEqual(spent.action, { _tag: "Fail", message: "net: 503 (Herald kept trying for 60 s and gave up)" })
    })

    it("transient on the publishing call of a network that can be asked: the call stays marked and the next try looks first", () => {
      const decided = PublishPolicy.decide(asked, limits, fresh(), refused(PublishError.transient("net", "503")), 1_000)
      assert.deepStrictEqual(decided.writes, [{ _tag: "Mark", call: "publish" }])
      assert.strictEqual(decided.action._tag === "Backoff" && decided.action.call, "publish")
      assert.strictEqual(decided.state.lookFirst, "net: 503")
      assert.strictEqual(PublishPolicy.next(decided.state), "Reconcile")
    })

    it("transient on a later step: asked again resumed, marked poll; given up after the retry time saying it could not tell", () => {
      const decided = PublishPolicy.decide(asked, limits, polling(), refused(PublishError.transient("net", "503")), 1_000)
      assert.isTrue(decided.state.resumed)
      assert.deepStrictEqual(decided.writes, [{ _tag: "Mark", call: "poll" }])
      assert.strictEqual(decided.action._tag === "Backoff" && decided.action.call, "poll")
      const spent = PublishPolicy.decide(asked, limits, decided.state, refused(PublishError.transient("net", "503")), 1_000 + limits.retryForMs)
      assert.include((spent.action as { message: string }).message, "could not tell for 60 s whether the step went through")
    })

    it("rate limited: takes the account's turn after the network's reset, and the retry time does not move", () => {
      const faulting = { ...fresh(), failures: 2, faultingSince: 500 }
      const decided = PublishPolicy.decide(asked, limits, faulting, refused(PublishError.rateLimited("net", "slow down", 90_000)), 1_000)
      assert.deepStrictEqual(decided.action, { _tag: "TakeTurn", blockedForMs: 90_000, why: "net: slow down" })
      assert.deepStrictEqual(decided.writes, [])
      assert.deepStrictEqual(decided.state, faulting)
      const blocked = PublishPolicy.decide(asked, limits, faulting, { _tag: "Blocked" }, 1_000)
      assert.deepStrictEqual(blocked.action, { _tag: "TakeTurn", blockedForMs: undefined, why: "net: @someone on Net is over Net's rate limit" })
    })

    it("a turn: waited for, until the 24-hour deadline since the first wait", () => {
      const turn = (at: number): PublishPolicy.Answer => ({ _tag: "Turn", at, waitingSince: 0, why: "net: slow down" })
      assert.deepStrictEqual(PublishPolicy.decide(asked, limits, fresh(), turn(pacing.deadlineMs), 10).action, { _tag: "Wait", until: pacing.deadlineMs })
      assert.deepStrictEqual(PublishPolicy.decide(asked, limits, fresh(), turn(pacing.deadlineMs + 1), pacing.deadlineMs).action, {
        _tag: "Fail",
        message: "net: slow down; Herald waited 24 h for the limit to lift and stopped trying: retry the post later"
      })
    })

    it("token expired: renewed once, then the account needs reconnecting", () => {
      const expired = refused(PublishError.authExpired("net", "token expired"))
      const first = PublishPolicy.decide(asked, limits, fresh(), expired, 10)
      assert.deepStrictEqual(first.action, { _tag: "Refresh" })
      assert.isTrue(first.state.refreshed)
      assert.deepStrictEqual(PublishPolicy.decide(asked, limits, first.state, { _tag: "Refreshed" }, 10).action, { _tag: "Go" })
      assert.deepStrictEqual(PublishPolicy.decide(asked, limits, first.state, expired, 10).action, {
        _tag: "Fail",
        message: "net: token expired; @someone on Net needs reconnecting, then retry the post",
        needsReconnect: "net: token expired"
      })
      assert.deepStrictEqual(PublishPolicy.decide(asked, limits, first.state, { _tag: "RefreshRefused", reason: "invalid_grant" }, 10).action, {
        _tag: "Fail",
        message: "net: the access token expired and could not be renewed (invalid_grant); @someone on Net needs reconnecting, then retry the post"
      })
      assert.deepStrictEqual(PublishPolicy.decide(asked, limits, first.state, { _tag: "NoToken" }, 10).action, {
        _tag: "Fail",
        message: "net: @someone on Net has no usable token; reconnect it and retry"
      })
    })

    it("needs reconnect ends the target and marks the account; rejected ends it with the network's reason", () => {
      assert.deepStrictEqual(PublishPolicy.decide(asked, limits, fresh(), refused(PublishError.needsReconnect("net", "revoked")), 10).action, {
        _tag: "Fail",
        message: "net: revoked; @someone on Net needs reconnecting, then retry the post",
        needsReconnect: "net: revoked"
      })
      assert.deepStrictEqual(PublishPolicy.decide(asked, limits, fresh(), refused(PublishError.rejected("net", "too long")), 10).action, {
        _tag: "Fail",
        message: "net: too long"
      })
    })

    it("outcome unknown on the publishing call: looked up where the network can be asked (even past the retry time), else failed at once", () => {
      const lost = refused(PublishError.outcomeUnknown("net", "the answer was lost"))
      assert.deepStrictEqual(PublishPolicy.decide(unasked, limits, fresh(unasked), lost, 10).action, {
        _tag: "Fail",
        message:
          "net: the answer was lost. Net cannot be asked whether the post arrived, so Herald did not send it again; it may have been posted: check @someone on Net before retrying"
      })
      const spent = { ...fresh(), faultingSince: 0, failures: 9 }
      const decided = PublishPolicy.decide(asked, limits, spent, lost, limits.retryForMs * 10)
      assert.strictEqual(decided.action._tag, "Backoff")
      assert.strictEqual(decided.action._tag === "Backoff" && decided.action.call, "publish")
      assert.strictEqual(PublishPolicy.next(decided.state), "Reconcile")
    })

    it("outcome unknown on a later step: a step that makes the post is looked up; any other is asked again resumed", () => {
      const lost = refused(PublishError.outcomeUnknown("net", "lost"))
      const container = networkOf(true, true)
      assert.strictEqual(PublishPolicy.next(PublishPolicy.decide(container, limits, polling(container, "p1"), lost, 10).state), "Reconcile")
      const reply = PublishPolicy.decide(container, limits, polling(container, "q1"), lost, 10)
      assert.isTrue(reply.state.resumed)
      assert.strictEqual(PublishPolicy.next(reply.state), "poll")
      assert.strictEqual(reply.action._tag === "Backoff" && reply.action.call, "poll")
      // A lost answer always gets its look; a look that lost its answer too is given up after the retry time.
      const again = PublishPolicy.decide(container, limits, reply.state, lost, 10 + limits.retryForMs)
      assert.include((again.action as { message: string }).message, "could not tell for 60 s whether it went through")
    })
  })

  describe("a look's answer", () => {
    const looking = { ...fresh(), lookFirst: "net: lost" }
    it("found: succeeds with the post found", () => {
      assert.deepStrictEqual(PublishPolicy.decide(asked, limits, looking, { _tag: "Found", published }, 10).action, { _tag: "Succeed", published })
    })
    it("absent: the call is cleared and made again as a first try, unless the retry time is spent", () => {
      const decided = PublishPolicy.decide(asked, limits, { ...looking, resumed: true }, { _tag: "Absent" }, 10)
      assert.deepStrictEqual(decided.writes, [{ _tag: "Mark", call: null }])
      assert.strictEqual(decided.state.resumed, false)
      assert.strictEqual(PublishPolicy.next(decided.state), "publish")
      const spent = PublishPolicy.decide(asked, limits, { ...looking, faultingSince: 0 }, { _tag: "Absent" }, limits.retryForMs)
      assert.deepStrictEqual(spent.action, {
        _tag: "Fail",
        message: "net: lost (Herald kept trying for 60 s and gave up); Net does not have the post: retry it later"
      })
    })
    it("cannot tell: failed saying it may have been posted", () => {
      const decided = PublishPolicy.decide(asked, limits, looking, { _tag: "Unknown" }, 10)
      assert.include((decided.action as { message: string }).message, "net: lost. Net cannot be asked whether the post arrived")
    })
    it("failed in passing: looked again on the schedule, the call kept marked; failed after the retry time", () => {
      const passing: PublishPolicy.Answer = { _tag: "Passing", error: PublishError.transient("net", "503") }
      const decided = PublishPolicy.decide(asked, limits, looking, passing, 10)
      assert.strictEqual(decided.action._tag === "Backoff" && decided.action.call, "publish")
      assert.strictEqual(PublishPolicy.next(decided.state), "Reconcile")
      const spent = PublishPolicy.decide(asked, limits, decided.state, passing, 10 + limits.retryForMs)
      assert.include((spent.action as { message: string }).message, "Herald could not ask Net whether the post arrived for 60 s (net: 503)")
    })
  })

  it("a target cut off mid-call looks first when its step may make the post, and is resumed otherwise", () => {
    assert.strictEqual(PublishPolicy.next(fresh(asked, { call: "publish" })), "Reconcile")
    const cut = fresh(networkOf(true, true), { call: "poll", handle: "q1" })
    assert.strictEqual(PublishPolicy.next(cut), "poll")
    assert.isTrue(cut.resumed)
    assert.strictEqual(PublishPolicy.next(fresh(networkOf(true, true), { call: "poll", handle: "p1" })), "Reconcile")
  })

  describe("over random answer sequences", () => {
    const reasons = [
      () => PublishError.transient("net", "503"),
      () => PublishError.rateLimited("net", "slow down", 60_000),
      () => PublishError.rejected("net", "no"),
      () => PublishError.authExpired("net", "expired"),
      () => PublishError.needsReconnect("net", "revoked"),
      () => PublishError.outcomeUnknown("net", "lost")
    ]
    const callAnswers: ReadonlyArray<(choice: number) => PublishPolicy.Answer> = [
      () => ({ _tag: "Answered", step: { _tag: "Published", published } }),
      (choice) => ({ _tag: "Answered", step: { _tag: "Processing", handle: choice % 2 === 0 ? "p1" : "q1", checkAfterMs: choice % 3 * 1_000 } }),
      () => ({ _tag: "Blocked" }),
      ...reasons.map((reason) => () => refused(reason()))
    ]
    const lookAnswers: ReadonlyArray<() => PublishPolicy.Answer> = [
      () => ({ _tag: "Found", published }),
      () => ({ _tag: "Absent" }),
      () => ({ _tag: "Unknown" }),
      () => ({ _tag: "Passing", error: PublishError.transient("net", "503") }),
      () => ({ _tag: "Passing", error: PublishError.authExpired("net", "expired") })
    ]
    const refreshAnswers: ReadonlyArray<PublishPolicy.Answer> = [
      { _tag: "Refreshed" },
      { _tag: "RefreshRefused", reason: "invalid_grant" },
      { _tag: "NoToken" }
    ]

    interface Run {
      readonly network: PublishPolicy.Network
      readonly row: { readonly handle: string | null; readonly call: PublishPolicy.Call | null }
      /** Each answer the network gives, chosen by number; past them, `tail` answers (a network down, a limit that never lifts). */
      readonly choices: ReadonlyArray<number>
    }
    type Tail = "down" | "limited" | undefined

    /** Runs the policy as `Publisher`'s loop does, against the answers, checking the invariants at each decision. */
    const run = ({ choices, network, row }: Run, tail: Tail) => {
      let now = 0
      let state = PublishPolicy.start(network, { ...row, failedAttempts: 0, faultingSince: null }, now)
      let action: PublishPolicy.Action = { _tag: "Go" }
      let rowCall = row.call
      // A call that may have made the post and has not been looked up since, as a restart would find it.
      let mayBeOut = row.call !== null && PublishPolicy.makesPost(network, state.step)
      let refreshes = 0
      let waitingSince: number | undefined
      let answered = 0
      let decisions = 0
      while (action._tag !== "Succeed" && action._tag !== "Fail") {
        if (action._tag === "Sleep" || action._tag === "Wait" || action._tag === "Backoff") {
          now = action._tag === "Sleep" ? now + action.ms : action._tag === "Wait" ? Math.max(now, action.until) : now + limits.maxDelayMs
          action = { _tag: "Go" }
          continue
        }
        const choice = choices[answered]
        if (choice === undefined && tail === undefined) return { ended: undefined, decisions }
        answered++
        let answer: PublishPolicy.Answer
        if (action._tag === "TakeTurn") {
          waitingSince ??= now
          const gap = choice === undefined ? 3_600_000 : (action.blockedForMs ?? 0) + choice % 5 * 60_000
          answer = { _tag: "Turn", at: now + gap, waitingSince, why: action.why }
        } else if (action._tag === "Refresh") {
          answer = choice === undefined ? refreshAnswers[0]! : refreshAnswers[choice % refreshAnswers.length]!
        } else if (PublishPolicy.next(state) === "Reconcile") {
          answer = choice === undefined ? lookAnswers[3]!() : lookAnswers[choice % lookAnswers.length]!()
        } else {
          // The invariant that keeps a post from going out twice.
          assert.isFalse(mayBeOut && PublishPolicy.makesPost(network, state.step), "a call that may have made the post was made again without a look")
          answer = choice !== undefined
            ? callAnswers[choice % callAnswers.length]!(choice)
            : refused(tail === "down" ? PublishError.transient("net", "503") : PublishError.rateLimited("net", "slow down", 3_600_000))
        }
        const before = state
        const decided = PublishPolicy.decide(network, limits, state, answer, now)
        decisions++
        state = decided.state
        action = decided.action
        for (const write of decided.writes) rowCall = write._tag === "Mark" ? write.call : write._tag === "Handle" ? null : rowCall
        if (action._tag === "Backoff") rowCall = action.call
        if (action._tag === "Refresh") refreshes++
        if (action._tag === "Succeed") assert.include(["Answered", "Found"], answer._tag)
        if (answer._tag === "Absent") mayBeOut = false
        if (answer._tag === "Answered") mayBeOut = false
        if (
          answer._tag === "Refused" && PublishPolicy.makesPost(network, before.step) &&
          (answer.error.reason._tag === "OutcomeUnknown" || (answer.error.reason._tag === "Transient" && network.canReconcile))
        ) mayBeOut = true
        if (answer._tag === "Blocked" || answer._tag === "Turn" || (answer._tag === "Refused" && answer.error.reason._tag === "RateLimited")) {
          assert.strictEqual(state.failures, before.failures, "a rate-limited wait counted as a failure")
          assert.strictEqual(state.faultingSince, before.faultingSince, "a rate-limited wait moved the retry time")
        }
        // The row says what a restart must look for whenever the run itself would look first.
        if (state.lookFirst !== null && action._tag !== "Fail" && action._tag !== "Succeed") assert.isNotNull(rowCall)
        assert.isAtMost(refreshes, 1, "the token was renewed twice")
      }
      return { ended: action, decisions: decisions - Math.min(answered, choices.length) }
    }

    const runs = fc.record({
      network: fc.tuple(fc.boolean(), fc.boolean()).map(([canReconcile, later]) => networkOf(canReconcile, later)),
      row: fc.oneof(
        fc.constant({ handle: null, call: null }),
        fc.constant({ handle: null, call: "publish" as const }),
        fc.constantFrom("p1", "q1").map((handle) => ({ handle, call: "poll" as const })),
        fc.constantFrom("p1", "q1").map((handle) => ({ handle, call: null }))
      ),
      choices: fc.array(fc.nat(1_000), { maxLength: 40 })
    })

    it("never makes a call that may have made the post again without a look that found nothing, renews a token at most once, and a rate limit never counts as failing", () => {
      fc.assert(fc.property(runs, (sequence) => void run(sequence, undefined)), { numRuns: 2_000 })
    })

    it("ends, with the network down, within the retry time's tries", () => {
      // A try at most every `maxDelayMs` (the driver's wait); a look and a try per wait, and a renewal.
      const bound = 2 * Math.ceil(limits.retryForMs / limits.maxDelayMs) + 4
      fc.assert(fc.property(runs, (sequence) => {
        const { decisions, ended } = run(sequence, "down")
        assert.include(["Succeed", "Fail"], ended?._tag)
        assert.isAtMost(decisions, bound)
      }), { numRuns: 1_000 })
    })

    it("ends, with a limit that never lifts, at the rate limits' deadline", () => {
      const bound = 2 * Math.ceil(pacing.deadlineMs / 3_600_000) + 2 * Math.ceil(limits.retryForMs / limits.maxDelayMs) + 8
      fc.assert(fc.property(runs, (sequence) => {
        const { decisions, ended } = run(sequence, "limited")
        assert.include(["Succeed", "Fail"], ended?._tag)
        assert.isAtMost(decisions, bound)
      }), { numRuns: 1_000 })
    })
  })
})
