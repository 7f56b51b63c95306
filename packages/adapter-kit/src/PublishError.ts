import { Effect, Schema } from "effect"

// Every way a network call can fail, as a closed set of reasons. Each adapter maps its network's error
// answers onto these in one table (its `internal/errors.ts`); the publishing engine decides from the reason
// alone whether to retry, refresh, mark the account, or fail the target.

/** Over the network's rate limit; try again after `retryAfterMs`. */
export class RateLimited extends Schema.TaggedClass<RateLimited>()("RateLimited", {
  message: Schema.String,
  retryAfterMs: Schema.Number
}) {}

/** A passing fault (5xx, timeout, a network that says "try later"): retry with backoff. */
export class Transient extends Schema.TaggedClass<Transient>()("Transient", {
  message: Schema.String
}) {}

/** The network refused the content for good; `message` is its reason in words a person can act on. */
export class Rejected extends Schema.TaggedClass<Rejected>()("Rejected", {
  message: Schema.String
}) {}

/** The access token expired: refresh it, then try once more. */
export class AuthExpired extends Schema.TaggedClass<AuthExpired>()("AuthExpired", {
  message: Schema.String
}) {}

/** The grant is gone (revoked, password changed, refresh refused): the account must be connected again. */
export class NeedsReconnect extends Schema.TaggedClass<NeedsReconnect>()("NeedsReconnect", {
  message: Schema.String
}) {}

/** The call may or may not have gone through and the network cannot tell: never resend blindly. */
export class OutcomeUnknown extends Schema.TaggedClass<OutcomeUnknown>()("OutcomeUnknown", {
  message: Schema.String
}) {}

export const Reason = Schema.Union([RateLimited, Transient, Rejected, AuthExpired, NeedsReconnect, OutcomeUnknown])
export type Reason = typeof Reason.Type

/** A network call that failed, with the network and the reason. */
export class PublishError extends Schema.TaggedError<PublishError>()("PublishError", {
  network: Schema.String,
  reason: Reason
}) {
  override get message() {
    return `${this.network}: ${this.reason.message}`
  }

  /** Whether trying the same call again later can succeed. */
  get retryable(): boolean {
    return this.reason._tag === "RateLimited" || this.reason._tag === "Transient"
  }

  /** How long to wait before a retry, when the network said. */
  get retryAfterMs(): number | undefined {
    return this.reason._tag === "RateLimited" ? this.reason.retryAfterMs : undefined
  }
}

/** Shorthands for adapters: `PublishError.rejected("x", "duplicate content")`. */
export const rateLimited = (network: string, message: string, retryAfterMs: number) =>
  new PublishError({ network, reason: new RateLimited({ message, retryAfterMs }) })
export const transient = (network: string, message: string) =>
  new PublishError({ network, reason: new Transient({ message }) })
export const rejected = (network: string, message: string) =>
  new PublishError({ network, reason: new Rejected({ message }) })
export const authExpired = (network: string, message: string) =>
  new PublishError({ network, reason: new AuthExpired({ message }) })
export const needsReconnect = (network: string, message: string) =>
  new PublishError({ network, reason: new NeedsReconnect({ message }) })
export const outcomeUnknown = (network: string, message: string) =>
  new PublishError({ network, reason: new OutcomeUnknown({ message }) })

/**
 * A look on the network before a step makes something again (its last try was cut off, `resumed`). A look
 * that fails in passing (or on an expired token) keeps its reason: the engine keeps the step `resumed` until
 * a try of it succeeds, so it tries the look again on its retry schedule (decision 0065). A look refused for
 * good leaves the outcome unknown: nobody can tell whether the step would make a second one.
 */
export const lookingFirst = <A, R>(
  network: string,
  what: string,
  look: Effect.Effect<A, PublishError, R>
): Effect.Effect<A, PublishError, R> =>
  Effect.mapError(look, (error) =>
    error.reason._tag === "OutcomeUnknown" || error.retryable || error.reason._tag === "AuthExpired"
      ? error
      : outcomeUnknown(network, `could not look for ${what} an interrupted try may have made (${error.reason.message}); check the account before retrying`))

/**
 * A part made after the post is out (a first comment): the network refusing it for good must not fail a post
 * that is out, so that refusal is logged with `warning` (and answers `undefined`); a passing fault or a lost
 * answer still fails the step, which the engine tries again (looking first, after a lost answer).
 */
export const refusalLogged = <A, R>(warning: string, part: Effect.Effect<A, PublishError, R>): Effect.Effect<A | undefined, PublishError, R> =>
  Effect.catchIf(
    part,
    (error) => !error.retryable && error.reason._tag !== "OutcomeUnknown",
    (error) => Effect.as(Effect.logWarning(warning, error.message), undefined)
  )

/**
 * A look for a post that has no text to be found by (media alone, a link alone): any other such post of the
 * account would match, so Herald must not guess; the outcome is unknown. `name` is the network's name for
 * people, `where` what the person checks ("the Page").
 */
export const nothingToLookFor = (network: string, name: string, where = "the account") =>
  outcomeUnknown(network, `${name} cannot tell whether this post went out (it has no text to look for); check ${where} before retrying`)

/** The reasons, by tag: what an adapter's error table maps each network answer to. */
export type ReasonTag = Reason["_tag"]

/**
 * The error for a reason named by its tag, so an error table can be data: `retryAfterMs` is used only for
 * `RateLimited`.
 */
export const of = (network: string, reason: ReasonTag, message: string, retryAfterMs: number): PublishError => {
  switch (reason) {
    case "RateLimited":
      return rateLimited(network, message, retryAfterMs)
    case "Transient":
      return transient(network, message)
    case "Rejected":
      return rejected(network, message)
    case "AuthExpired":
      return authExpired(network, message)
    case "NeedsReconnect":
      return needsReconnect(network, message)
    case "OutcomeUnknown":
      return outcomeUnknown(network, message)
  }
}
