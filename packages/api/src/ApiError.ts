import { Schema, SchemaTransformation } from "effect"
import { HttpApiSchema } from "effect/http-api"

// Every error Herald answers has the reference's shape `{ "error": { "code", "message", "details"? } }`.
// Each code is a class handlers fail with; its schema encodes it into that body with its HTTP status.

const errorBody = <Code extends string>(code: Code) =>
  Schema.Struct({
    error: Schema.Struct({
      code: Schema.Literal(code),
      message: Schema.String,
      details: Schema.optionalKey(Schema.Unknown),
      requestId: Schema.optionalKey(Schema.String)
    })
  })

const fields = {
  message: Schema.String,
  details: Schema.optionalKey(Schema.Unknown)
}

const make = <Self extends { readonly message: string; readonly details?: unknown }, Code extends string>(
  errorClass: Schema.Codec<Self, unknown> & (new(props: { readonly message: string; readonly details?: unknown }) => Self),
  code: Code,
  status: number
) =>
  errorBody(code).pipe(
    Schema.decodeTo(
      Schema.toType(errorClass),
      SchemaTransformation.transform({
        decode: (body) =>
          new errorClass(
            body.error.details === undefined
              ? { message: body.error.message }
              : { message: body.error.message, details: body.error.details }
          ),
        encode: (error) => ({
          error: error.details === undefined
            ? { code, message: error.message }
            : { code, message: error.message, details: error.details }
        })
      })
    ),
    HttpApiSchema.status(status)
  )

export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", fields) {}
export const UnauthorizedResponse = make(Unauthorized, "unauthorized", 401)

/**
 * A valid key whose member's role does not allow the action (a viewer writing, an editor approving). Not in
 * the reference's table, which has no roles on keys: docs/decisions/0006.
 */
export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", fields) {}
export const ForbiddenResponse = make(Forbidden, "forbidden", 403)

export class Invalid extends Schema.TaggedError<Invalid>()("Invalid", fields) {}
export const InvalidResponse = make(Invalid, "invalid", 400)

export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", fields) {}
export const NotFoundResponse = make(NotFound, "not_found", 404)

export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", fields) {}
export const ConflictResponse = make(Conflict, "conflict", 409)

export class TooLarge extends Schema.TaggedError<TooLarge>()("TooLarge", fields) {}
export const TooLargeResponse = make(TooLarge, "too_large", 413)

export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", fields) {}
export const RateLimitedResponse = make(RateLimited, "rate_limited", 429)

/**
 * Error codes in the order of the reference's table, plus `internal` for the unexpected and the storage's faults
 * (`unavailable` 503 with `Retry-After`, `insufficient_storage` 507: docs/decisions/0067-storage-faults.md).
 */
export const codes = [
  "unauthorized",
  "forbidden",
  "invalid",
  "not_found",
  "conflict",
  "too_large",
  "rate_limited",
  "internal",
  "unavailable",
  "insufficient_storage"
] as const
export type Code = typeof codes[number]

/** The body of an error answer, for code that renders one outside an endpoint (router errors, defects). */
export const body = (code: Code, message: string, extra?: { readonly requestId?: string; readonly details?: unknown }) => ({
  error: {
    code,
    message,
    ...(extra?.details === undefined ? {} : { details: extra.details }),
    ...(extra?.requestId === undefined ? {} : { requestId: extra.requestId })
  }
})
