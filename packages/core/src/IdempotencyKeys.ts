import { Clock, Context, Duration, Effect, Layer, Option, Redacted, Schedule, Schema } from "effect"
import { SqlClient, type SqlError, SqlSchema } from "effect/sql"
import * as DieOnSql from "./internal/dieOnSql.ts"
import { dieOnBadRow, Timestamp } from "./internal/rows.ts"
import { Cipher } from "./Cipher.ts"

export class IdempotencyMismatch extends Schema.TaggedError<IdempotencyMismatch>()("IdempotencyMismatch", {
  message: Schema.String,
  /**
   * Why the key cannot run this request: it came with another request first; the first request never
   * answered (whether it took effect is unknown); or the first request is still running.
   */
  reason: Schema.Literals(["different_request", "abandoned", "in_progress"])
}) {
  /** The key came with another request than the one it was first used for. */
  static differentRequest(key: string) {
    return new IdempotencyMismatch({
      message: `Idempotency-Key "${key}" was used with a different request; use a new key for a new request`,
      reason: "different_request"
    })
  }
}

/** A stored answer to replay. */
export interface Answer {
  readonly statusCode: number
  readonly body: string
  /**
   * The SHA-256 (hex) of a raw request body (an upload), which is too large to be part of the request's
   * hash: a repeat is the same request only when its own body has this digest. Null for JSON requests.
   */
  readonly bodySha256: string | null
}

export type Claim =
  | { readonly _tag: "Claimed" }
  | { readonly _tag: "Replay"; readonly answer: Answer }

// Keys are kept this long; a request still running under a key is waited for this long before a repeat is
// refused as in progress. A claim with no answer after `abandoned` most likely belongs to a process that
// stopped mid-request: its repeat is refused at once, saying so, since the first may or may not have taken
// effect (its changes and its answer are not written in one transaction) and running it again could do it twice.
const keep = Duration.hours(24)
const waitForFirst = Duration.seconds(15)
const abandoned = Duration.minutes(2)

/**
 * `Idempotency-Key` on POST, PATCH and DELETE: the first request with a key claims it (one row, so two
 * concurrent requests cannot both run); its successful answer is stored and replayed to every repeat with
 * the same request within 24 hours. A repeat with another request is `conflict`. An answer that is an error
 * is not stored: the key is released and the request may be sent again.
 */
export class IdempotencyKeys extends Context.Service<IdempotencyKeys, {
  /**
   * Claims the key for the request, or answers the stored answer to replay. `keepFor` (24 hours unless
   * given, at most that) is how long the key stands: a row older than it is as good as gone, and the key
   * is claimed anew, so a key kept a short while can be used again after it.
   */
  claim(
    workspaceId: string,
    key: string,
    requestHash: string,
    keepFor?: Duration.Duration
  ): Effect.Effect<Claim, IdempotencyMismatch>
  complete(workspaceId: string, key: string, answer: Answer): Effect.Effect<void>
  release(workspaceId: string, key: string): Effect.Effect<void>
}>()("@herald/core/IdempotencyKeys") {
  static readonly layer = Layer.effect(
    IdempotencyKeys,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const cipher = yield* Cipher

      // A stored answer may hold a secret (a new API key, a webhook's signing secret): it is sealed under
      // HERALD_SECRET_KEY like every secret at rest, never kept in plain text (issue 28). Rows stored before
      // were plain, and are read as they are until they lapse.
      const sealedPrefix = "sealed:"
      const seal = (body: string) => `${sealedPrefix}${Buffer.from(cipher.seal(Redacted.make(body))).toString("base64")}`
      const unseal = (stored: string) =>
        stored.startsWith(sealedPrefix)
          ? Effect.map(Effect.orDie(cipher.open(Buffer.from(stored.slice(sealedPrefix.length), "base64"))), Redacted.value)
          : Effect.succeed(stored)

      const lookup = SqlSchema.findOneOption({
        Request: Schema.Struct({ workspaceId: Schema.String, key: Schema.String }),
        Result: Schema.Struct({
          requestHash: Schema.String,
          statusCode: Schema.NullOr(Schema.Number),
          responseBody: Schema.NullOr(Schema.String),
          bodySha256: Schema.NullOr(Schema.String),
          createdAt: Timestamp
        }),
        execute: ({ key, workspaceId }) => sql`
            SELECT request_hash, status_code, response_body, body_sha256, created_at FROM idempotency_keys
            WHERE workspace_id = ${workspaceId} AND key = ${key}`
      })

      const claim = Effect.fn("IdempotencyKeys.claim")(function*(
        workspaceId: string,
        key: string,
        requestHash: string,
        keepFor: Duration.Duration = keep
      ) {
        const started = yield* Clock.currentTimeMillis
        while (true) {
          const inserted = yield* sql`
            INSERT INTO idempotency_keys (workspace_id, key, request_hash) VALUES (${workspaceId}, ${key}, ${requestHash})
            ON CONFLICT (workspace_id, key) DO NOTHING RETURNING key`
          if (inserted.length > 0) return { _tag: "Claimed" } as const
          const existing = yield* dieOnBadRow(lookup({ workspaceId, key }))
          if (Option.isNone(existing)) continue
          const createdAt = new Date(Date.parse(existing.value.createdAt))
          const now = yield* Clock.currentTimeMillis
          if (now - createdAt.getTime() > Duration.toMillis(keepFor)) {
            // Expired: removed and claimed again. Only the row seen goes (the database keeps microseconds, the
            // Date milliseconds), should another request have claimed the key anew meanwhile.
            yield* sql`DELETE FROM idempotency_keys WHERE workspace_id = ${workspaceId} AND key = ${key}
              AND created_at < ${new Date(createdAt.getTime() + 1)}`
            continue
          }
          if (existing.value.requestHash !== requestHash) {
            return yield* IdempotencyMismatch.differentRequest(key)
          }
          if (existing.value.statusCode !== null) {
            const { bodySha256, responseBody, statusCode } = existing.value
            return { _tag: "Replay", answer: { statusCode, body: yield* unseal(responseBody ?? ""), bodySha256 } } as const
          }
          if (now - createdAt.getTime() > Duration.toMillis(abandoned)) {
            return yield* new IdempotencyMismatch({
              message: `The request first sent with Idempotency-Key "${key}" never answered (Herald stopped while ` +
                `running it, or it is still running): whether it took effect is unknown; check, then send it again ` +
                `with a new key if it did not`,
              reason: "abandoned"
            })
          }
          if (now - started > Duration.toMillis(waitForFirst)) {
            return yield* new IdempotencyMismatch({
              message: `A request with Idempotency-Key "${key}" is still in progress; try again in a moment`,
              reason: "in_progress"
            })
          }
          yield* Effect.sleep(Duration.millis(50))
        }
      })

      const complete = Effect.fn("IdempotencyKeys.complete")(function*(workspaceId: string, key: string, answer: Answer) {
        yield* sql`UPDATE idempotency_keys SET status_code = ${answer.statusCode}, response_body = ${seal(answer.body)},
          body_sha256 = ${answer.bodySha256} WHERE workspace_id = ${workspaceId} AND key = ${key}`
      })

      const release = Effect.fn("IdempotencyKeys.release")(function*(workspaceId: string, key: string) {
        yield* sql`DELETE FROM idempotency_keys WHERE workspace_id = ${workspaceId} AND key = ${key} AND status_code IS NULL`
      })

      const prune = Effect.flatMap(Clock.currentTimeMillis, (now) =>
        sql`DELETE FROM idempotency_keys WHERE created_at < ${new Date(now - Duration.toMillis(keep))}`).pipe(
          Effect.catchCause((cause) => Effect.logWarning("Old idempotency keys could not be removed", cause))
        )
      yield* Effect.forkScoped(Effect.repeat(prune, Schedule.spaced(Duration.hours(1))))

      return IdempotencyKeys.of(DieOnSql.service({ claim, complete, release }))
    })
  )
}
