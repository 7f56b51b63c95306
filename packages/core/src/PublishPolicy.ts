import type { Adapter, PublishError } from "@herald/adapter-kit"
import { deadlineMs } from "./internal/pacing.ts"
import * as retrySchedule from "./internal/retrySchedule.ts"
import { words } from "./internal/targetRows.ts"

// What sending a target does after each answer, as data (docs/publishing.md, "When a network call fails";
// decisions 0056, 0065, 0074): a pure function from what the loop carries and what one network call answered
// to the next thing to do and the row writes before it. `Publisher` runs the actions and asks again; this
// module does no I/O, so every rule is tested alone and over random answer sequences.

export type Call = "publish" | "poll"

/** Where publishing stands: the first call, or a later one with the adapter's handle. */
export type Step = { readonly call: "publish" } | { readonly call: "poll"; readonly handle: string }

/** What the policy knows of the network and the account it sends to (messages name them). */
export interface Network {
  readonly network: string
  readonly name: string
  /** `@user on Network`. */
  readonly who: string
  /** The adapter can look for a post (`reconcile`). */
  readonly canReconcile: boolean
  /** A later step the adapter names as one that may make the post (decision 0074). */
  readonly makesPost: (handle: string) => boolean
}

export interface Limits extends retrySchedule.Schedule {
  readonly processingLimitMs: number
  readonly pollWaitCapMs: number
}

/** What the loop carries from one answer to the next; `failures` and `faultingSince` are stored on the row. */
export interface State {
  readonly step: Step
  /** Set while a call that may have made the post must be looked for before anything is sent again: what a target that cannot be asked is failed with. */
  readonly lookFirst: string | null
  /** The next try of a later step is asked as resumed (it looks on the network before it makes anything). */
  readonly resumed: boolean
  /** The token was renewed once in this run. */
  readonly refreshed: boolean
  readonly failures: number
  /** The first passing fault of the run; a call that goes through clears it. */
  readonly faultingSince: number | null
  readonly processingSince: number
}

/** What one call answered. */
export type Answer =
  /** `publish` or `poll` went through. */
  | { readonly _tag: "Answered"; readonly step: Adapter.PublishStep }
  /** `publish` or `poll` failed. */
  | { readonly _tag: "Refused"; readonly error: PublishError.PublishError }
  /** The account's pacing held the call back before it was made (a rate limit met by another call). */
  | { readonly _tag: "Blocked" }
  /** `reconcile`: the post is there, is not, cannot be told, or the look failed in passing. */
  | { readonly _tag: "Found"; readonly published: Adapter.Published }
  | { readonly _tag: "Absent" }
  | { readonly _tag: "Unknown" }
  | { readonly _tag: "Passing"; readonly error: PublishError.PublishError }
  /** The account's next free turn, asked for by `TakeTurn` (`why` is the action's). */
  | { readonly _tag: "Turn"; readonly at: number; readonly waitingSince: number; readonly why: string }
  /** The token renewal's answer. */
  | { readonly _tag: "Refreshed" }
  | { readonly _tag: "RefreshRefused"; readonly reason: string }
  | { readonly _tag: "NoToken" }

/** A row write made before the action. */
export type Write =
  /** A call went through: the retry time starts afresh. */
  | { readonly _tag: "Progressed" }
  /** The call a restart must look for (`null`: none). */
  | { readonly _tag: "Mark"; readonly call: Call | null }
  /** The adapter's handle for the next step (the call is done). */
  | { readonly _tag: "Handle"; readonly handle: string }

export type Action =
  /** Carry on at the time already set: look first (`lookFirst`) or make the step's call. */
  | { readonly _tag: "Go" }
  /** Carry on after `ms` (a network processing the post). */
  | { readonly _tag: "Sleep"; readonly ms: number }
  /** Carry on at `until` (the account's turn). */
  | { readonly _tag: "Wait"; readonly until: number }
  /** A passing fault: draw the `failures`-th wait, store it with the rest on the row (`call` kept for a restart), carry on after it. */
  | {
    readonly _tag: "Backoff"
    /** When the fault was met: the wait is drawn from here. */
    readonly at: number
    readonly failures: number
    readonly faultingSince: number
    readonly call: Call | null
    readonly lateReason: string
  }
  /** Claim the account's next free turn after `blockedForMs` (the network's reset), answered with `Turn`. */
  | { readonly _tag: "TakeTurn"; readonly blockedForMs: number | undefined; readonly why: string }
  /** Renew the token and read the account again, answered with `Refreshed`, `RefreshRefused` or `NoToken`. */
  | { readonly _tag: "Refresh" }
  | { readonly _tag: "Succeed"; readonly published: Adapter.Published }
  /** End the target failed; `needsReconnect` marks the account first, with that reason. */
  | { readonly _tag: "Fail"; readonly message: string; readonly needsReconnect?: string }

export interface Decision {
  readonly state: State
  readonly writes: ReadonlyArray<Write>
  readonly action: Action
}

/** The step may itself make the post: `publish`, or a later step the adapter names. */
export const makesPost = (network: Network, step: Step) => step.call === "publish" || network.makesPost(step.handle)

/** The state a send starts in, from the target's row: a call still set was cut off mid-call. */
export const start = (
  network: Network,
  row: {
    readonly handle: string | null
    readonly call: Call | null
    readonly failedAttempts: number
    readonly faultingSince: number | null
  },
  now: number
): State => {
  const step: Step = row.handle === null ? { call: "publish" } : { call: "poll", handle: row.handle }
  return {
    step,
    lookFirst: row.call !== null && makesPost(network, step) ? "Herald stopped while the post was being sent" : null,
    // Any other interrupted `poll` is asked again, resumed: adapters keep their steps safe to repeat.
    resumed: row.call === "poll",
    refreshed: false,
    failures: row.failedAttempts,
    faultingSince: row.faultingSince,
    processingSince: now
  }
}

/** What the loop does next when it carries on: look for the post first, or make the step's call. */
export const next = (state: State): "Reconcile" | Call => state.lookFirst !== null ? "Reconcile" : state.step.call

/** The target's end when the network cannot be asked whether a post arrived. A PublishError's message already starts with its network: said once. */
const unknownOutcome = (network: Network, detail: string) =>
  `${network.network}: ${detail.startsWith(`${network.network}: `) ? detail.slice(network.network.length + 2) : detail}. ${network.name} cannot be asked whether the post arrived, so Herald did not ` +
  `send it again; it may have been posted: check ${network.who} before retrying`

const decision = (state: State, action: Action, writes: ReadonlyArray<Write> = []): Decision => ({ state, writes, action })
const fail = (state: State, message: string, writes: ReadonlyArray<Write> = [], needsReconnect?: string): Decision =>
  decision(state, needsReconnect === undefined ? { _tag: "Fail", message } : { _tag: "Fail", message, needsReconnect }, writes)

/**
 * A passing fault: the target fails once the run has faulted for `retryForMs` (`gaveUp` says why; `null` for a
 * lost answer, which always gets its look first), else waits on the schedule with `call` kept for a restart.
 */
const backoff = (
  network: Network,
  limits: Limits,
  state: State,
  now: number,
  message: string,
  gaveUp: string | null,
  call: Call | null,
  writes: ReadonlyArray<Write> = []
): Decision => {
  const failures = state.failures + 1
  const faultingSince = state.faultingSince ?? now
  const after = { ...state, failures, faultingSince }
  if (gaveUp !== null && retrySchedule.spent(limits, faultingSince, now)) return fail(after, gaveUp, writes)
  const lateReason = `${network.network} failing since ${new Date(faultingSince).toISOString()} (${message}); retrying`
  return decision(after, { _tag: "Backoff", at: now, failures, faultingSince, call, lateReason }, writes)
}

const givenUp = (limits: Limits, message: string) => `${message} (Herald kept trying for ${words(limits.retryForMs)} and gave up)`
const reconnect = (network: Network, message: string) => `${message}; ${network.who} needs reconnecting, then retry the post`

/** The next thing to do after `answer`, at `now`. */
export const decide = (network: Network, limits: Limits, state: State, answer: Answer, now: number): Decision => {
  const { name, who } = network
  switch (answer._tag) {
    case "Found":
      return decision(state, { _tag: "Succeed", published: answer.published })
    case "Unknown":
      return fail(state, unknownOutcome(network, state.lookFirst ?? ""))
    case "Passing": {
      const message = answer.error.message
      return backoff(
        network,
        limits,
        state,
        now,
        message,
        `${state.lookFirst}; Herald could not ask ${name} whether the post arrived for ${words(limits.retryForMs)} ` +
          `(${message}), so it did not send it again; it may have been posted: check ${who} before retrying`,
        state.step.call
      )
    }
    case "Absent":
      // Not there: sent again as a first try, unless the run has faulted for its whole retry time.
      if (state.faultingSince !== null && retrySchedule.spent(limits, state.faultingSince, now)) {
        return fail(state, `${givenUp(limits, state.lookFirst ?? "")}; ${name} does not have the post: retry it later`)
      }
      return decision({ ...state, lookFirst: null, resumed: false }, { _tag: "Go" }, [{ _tag: "Mark", call: null }])
    case "Blocked":
      return decision(state, { _tag: "TakeTurn", blockedForMs: undefined, why: `${network.network}: ${who} is over ${name}'s rate limit` })
    case "Turn":
      // Waiting is not failing: only the deadline since the first wait ends it.
      return answer.at - answer.waitingSince > deadlineMs
        ? fail(
          state,
          `${answer.why}; Herald waited ${words(now - answer.waitingSince)} for the limit to lift and stopped trying: retry the post later`
        )
        : decision(state, { _tag: "Wait", until: answer.at })
    case "Refreshed":
      return decision(state, { _tag: "Go" })
    case "RefreshRefused":
      return fail(state, reconnect(network, `${network.network}: the access token expired and could not be renewed (${answer.reason})`))
    case "NoToken":
      return fail(state, `${network.network}: ${who} has no usable token; reconnect it and retry`)
    case "Answered":
      return answered(network, limits, state, answer.step, now)
    case "Refused":
      return refused(network, limits, state, answer.error, now)
  }
}

/** A call that went through: the next passing fault starts a new retry time. */
const answered = (network: Network, limits: Limits, state: State, step: Adapter.PublishStep, now: number): Decision => {
  const writes: Array<Write> = state.faultingSince === null ? [] : [{ _tag: "Progressed" }]
  const after: State = { ...state, resumed: false, ...(state.faultingSince === null ? {} : { faultingSince: null, failures: 0 }) }
  if (step._tag === "Published") return decision(after, { _tag: "Succeed", published: step.published }, writes)
  writes.push({ _tag: "Handle", handle: step.handle })
  if (now - state.processingSince > limits.processingLimitMs) {
    return fail(
      after,
      `${network.network}: ${network.name} was still processing the post after ${words(now - state.processingSince)}; it may appear later: check ${network.who} before retrying`,
      writes
    )
  }
  return decision(
    { ...after, step: { call: "poll", handle: step.handle } },
    { _tag: "Sleep", ms: Math.min(step.checkAfterMs, limits.pollWaitCapMs) },
    writes
  )
}

const refused = (network: Network, limits: Limits, state: State, error: PublishError.PublishError, now: number): Decision => {
  const { message, reason } = error
  const call = state.step.call
  const mayPost = makesPost(network, state.step)
  if (reason._tag === "OutcomeUnknown") {
    if (mayPost) {
      if (!network.canReconcile) return fail(state, unknownOutcome(network, message))
      // Looked for on the next turn of the loop, as after a crash, however late.
      return backoff(network, limits, { ...state, lookFirst: message }, now, message, null, call)
    }
    // A later step's answer was lost (a reply of a thread, a first comment): asked again as a resumed step,
    // which looks on the network before it makes anything again, as after a crash. A step that was itself
    // such a look is given up only after its retry time; a lost answer always gets its look.
    return backoff(
      network,
      limits,
      { ...state, resumed: true },
      now,
      message,
      state.resumed
        ? `${message}; Herald could not tell for ${words(limits.retryForMs)} whether it went through, so it ` +
          `did not send it again: check ${network.who} before retrying`
        : null,
      "poll"
    )
  }
  // Every other answer means the call did not go through: safe to make again. A rate limit blocks the account
  // until the network's reset and takes its next turn after it; it does not count toward the retry time.
  if (reason._tag === "RateLimited") {
    return decision(state, { _tag: "TakeTurn", blockedForMs: reason.retryAfterMs, why: message })
  }
  // A later step that failed in passing may have made its part all the same (a reply answered 503 after it was
  // made): its next try looks first, as after a lost answer.
  const resumed = state.resumed || (reason._tag === "Transient" && call === "poll")
  // A step still looking first stays marked, so a restart looks too; so does a step that may make the post
  // and failed in passing on a network that can be asked, so a restart before the wait is stored looks.
  const stillLooking = resumed && call === "poll" ? "poll" : null
  const looking = mayPost && network.canReconcile
  const writes: ReadonlyArray<Write> = [{ _tag: "Mark", call: reason._tag === "Transient" && looking ? call : stillLooking }]
  const after = { ...state, resumed }
  switch (reason._tag) {
    case "Rejected":
      return fail(after, message, writes)
    case "NeedsReconnect":
      return fail(after, reconnect(network, message), writes, message)
    case "AuthExpired":
      return state.refreshed
        ? fail(after, reconnect(network, message), writes, message)
        : decision({ ...after, refreshed: true }, { _tag: "Refresh" }, writes)
    case "Transient":
      // A call that may make the post and failed in passing may still have reached the network (a 5xx after
      // the post was made): the next try looks first.
      return backoff(
        network,
        limits,
        looking ? { ...after, lookFirst: after.lookFirst ?? message } : after,
        now,
        message,
        stillLooking === "poll" && !looking
          ? `${message}; Herald could not tell for ${words(limits.retryForMs)} whether the step went through, so it did not send it again: check ${network.who} before retrying`
          : givenUp(limits, message),
        looking ? call : stillLooking,
        writes
      )
  }
}
