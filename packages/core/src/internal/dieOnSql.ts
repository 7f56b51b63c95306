import { Effect } from "effect"
import { SqlError } from "effect/sql"

// The database failing is no answer a caller can act on: at a service's boundary it becomes a defect, which every
// surface already answers (a storage fault as 503 or 507, anything else as a 500 with a request id). Services
// that work in the background and retry until the database answers (Publisher, TokenRefresh, the webhook
// sender) keep it typed.

type Sqlless<T> = T extends Effect.Effect<infer A, infer E, infer R> ? Effect.Effect<A, Exclude<E, SqlError.SqlError>, R>
  : T extends (...args: infer P) => Effect.Effect<infer A, infer E, infer R>
    ? (...args: P) => Effect.Effect<A, Exclude<E, SqlError.SqlError>, R>
  : T

/** The service's methods as its callers see them: the same, without `SqlError`. */
export type Service<S> = { readonly [K in keyof S]: Sqlless<S[K]> }

/** One effect whose SqlError dies (as `Effect.catchTag("SqlError", Effect.die)` did at each handler). */
export const effect = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, SqlError.SqlError>, R> =>
  Effect.catchIf(self, SqlError.isSqlError, Effect.die) as Effect.Effect<A, Exclude<E, SqlError.SqlError>, R>

/** Every method (and effect-valued field) of a service, with its SqlError dying; other fields as they are. */
export const service = <S extends object>(methods: S): Service<S> => {
  const wrapped: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(methods)) {
    wrapped[name] = Effect.isEffect(value)
      ? effect(value)
      : typeof value === "function"
      ? (...args: ReadonlyArray<unknown>) => {
        const result: unknown = value(...args)
        return Effect.isEffect(result) ? effect(result) : result
      }
      : value
  }
  return wrapped as Service<S>
}
