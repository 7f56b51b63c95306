import { type Cause, Data, Effect } from "effect"
import { SqlError } from "effect/sql"

// One error per service, its reason the error as it was (decision 0088): `PostsError` with `reason` one of
// `PostInvalid | PostNotFound | PostConflict | PostForbidden`, the shape of Effect's own `SqlError` and
// `AiError`, so `Effect.catchReason("PostsError", "PostNotFound", ...)` handles one reason and a service's
// signature names one error. The reasons keep their tags, messages and fields: ErrorShape still decides a
// code by the reason's tag, and what crosses a process boundary still names the reason.

/** One of a service's reasons to refuse: a tagged error with its message. */
export interface Reason {
  readonly _tag: string
  readonly message: string
}

/** A service's one error: its tag (`PostsError`) and why (`reason`, one of the service's reasons). */
export interface ServiceError<Tag extends string, R extends Reason = Reason> extends Cause.YieldableError {
  readonly _tag: Tag
  readonly reason: R
}

/** A reason's class: a `Schema.TaggedError`, whose `identifier` is its tag. */
interface ReasonClass {
  readonly identifier: string
  readonly prototype: Reason
}

type ReasonOfClasses<Classes extends ReadonlyArray<ReasonClass>> = Classes[number]["prototype"]

/** A service error's class, generic in the reasons it carries (`PostsError<PostNotFound>` for `get`). */
export interface ServiceErrorClass<Tag extends string, Classes extends ReadonlyArray<ReasonClass>> {
  new<R extends ReasonOfClasses<Classes> = ReasonOfClasses<Classes>>(args: { readonly reason: R }): ServiceError<Tag, R>
  readonly tag: Tag
  /** The classes of the reasons, whose errors `service` wraps. */
  readonly reasons: Classes
}

/**
 * The class of a service's error, from its tag and its reasons' classes:
 * `class PostsError<R extends PostsReason = PostsReason> extends ServiceError.Class("PostsError", [PostInvalid, ...])<R> {}`.
 */
export const Class = <const Tag extends string, const Classes extends ReadonlyArray<ReasonClass>>(
  tag: Tag,
  reasons: Classes
): ServiceErrorClass<Tag, Classes> => {
  class Base extends Data.TaggedError(tag)<{ readonly reason: Reason; readonly message: string }> {
    static readonly tag = tag
    static readonly reasons = reasons
    constructor(args: { readonly reason: Reason }) {
      super({ reason: args.reason, message: args.reason.message })
    }
  }
  return Base as unknown as ServiceErrorClass<Tag, Classes>
}

/** Whether an error is some service's error: a tag and a tagged reason. */
export const isServiceError = (error: unknown): error is ServiceError<string> =>
  typeof error === "object" && error !== null && "_tag" in error && typeof error._tag === "string" &&
  "reason" in error && typeof error.reason === "object" && error.reason !== null && "_tag" in error.reason &&
  typeof error.reason._tag === "string"

/** The error a surface answers: a service error's reason, or the error itself. */
export const reasonOf = (error: unknown): unknown => isServiceError(error) ? error.reason : error

type Wrapped<E, Tag extends string, Reasons extends Reason> =
  | Exclude<E, SqlError.SqlError | Reasons>
  | ([Extract<E, Reasons>] extends [never] ? never : ServiceError<Tag, Extract<E, Reasons>>)

type WrappedMethod<T, Tag extends string, Reasons extends Reason> = T extends Effect.Effect<infer A, infer E, infer R>
  ? Effect.Effect<A, Wrapped<E, Tag, Reasons>, R>
  : T extends (...args: infer P) => Effect.Effect<infer A, infer E, infer R>
    ? (...args: P) => Effect.Effect<A, Wrapped<E, Tag, Reasons>, R>
  : T

/** A service's methods as its callers see them: each reason in the service's error, SqlError gone (it dies). */
export type Service<S, Tag extends string, Reasons extends Reason> = {
  readonly [K in keyof S]: WrappedMethod<S[K], Tag, Reasons>
}

const hasTagIn = (tags: ReadonlySet<string>) => (error: unknown): error is Reason =>
  typeof error === "object" && error !== null && "_tag" in error && typeof error._tag === "string" && tags.has(error._tag)

/**
 * A service's boundary: every method (and effect-valued field) fails with the service's error for each of its
 * reasons, and dies on SqlError (the database failing is no answer a caller can act on: every surface answers
 * a defect as a 500, a 503 or a 507). Errors of other services pass as they are.
 */
export const service = <Tag extends string, const Classes extends ReadonlyArray<ReasonClass>>(
  ErrorClass: ServiceErrorClass<Tag, Classes>
) => {
  type Reasons = ReasonOfClasses<Classes>
  const isReason = hasTagIn(new Set(ErrorClass.reasons.map((reason) => reason.identifier)))
  const wrap = (self: Effect.Effect<unknown, unknown, unknown>) =>
    Effect.catch(self, (error) =>
      SqlError.isSqlError(error)
        ? Effect.die(error)
        : Effect.fail(isReason(error) ? new ErrorClass({ reason: error as Reasons }) : error))
  return <S extends object>(methods: S): Service<S, Tag, Reasons> => {
    const wrapped: Record<string, unknown> = {}
    for (const [name, value] of Object.entries(methods)) {
      wrapped[name] = Effect.isEffect(value)
        ? wrap(value)
        : typeof value === "function"
        ? (...args: ReadonlyArray<unknown>) => {
          const result: unknown = value(...args)
          return Effect.isEffect(result) ? wrap(result) : result
        }
        : value
    }
    return wrapped as Service<S, Tag, Reasons>
  }
}
