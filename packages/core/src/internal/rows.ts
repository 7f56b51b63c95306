import { Effect, Schema, SchemaTransformation } from "effect"

/** Timestamps leave Herald as ISO 8601 UTC with milliseconds, whatever form the driver gave them in. */
export const iso = (value: Date | string): string =>
  (value instanceof Date ? value : new Date(value)).toISOString()

export const isoOrNull = (value: Date | string | null): string | null => value === null ? null : iso(value)

/** A timestamp column as a driver gives it (a Date, or its text), decoded as `iso` writes it. */
export const Timestamp = Schema.Union([Schema.Date, Schema.String]).pipe(
  Schema.decodeTo(Schema.String, SchemaTransformation.transform<string, Date | string>({ decode: iso, encode: (value) => value }))
)

/**
 * A row that is not what its schema says (a column renamed or gone, a driver's other type) is a bug, not an
 * answer: its SchemaError dies where the rows are read (`SqlSchema`'s decoders fail with it), as SqlError does
 * at a service's boundary.
 */
export const dieOnBadRow = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, Schema.SchemaError>, R> =>
  Effect.catchIf(self, Schema.isSchemaError, Effect.die) as Effect.Effect<A, Exclude<E, Schema.SchemaError>, R>
