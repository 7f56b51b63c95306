/** Timestamps leave Herald as ISO 8601 UTC with milliseconds, whatever form the driver gave them in. */
export const iso = (value: Date | string): string =>
  (value instanceof Date ? value : new Date(value)).toISOString()

export const isoOrNull = (value: Date | string | null): string | null => value === null ? null : iso(value)
