import { Option, Schema } from "effect"

// The inbox cursor. LinkedIn's comment listings take only `start` and `count` (no "since", no ids to resume
// from), and each comment carries `created.time`, LinkedIn's own clock in epoch milliseconds. So the cursor is
// the newest creation time Herald has read, with the ids of the comments made in that very millisecond: what
// comes next is newer, or as old but not yet read. A comment therefore comes back at most once, and two
// comments made in the same millisecond on either side of a poll are both read.
// https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/comments-api

const Fields = Schema.Struct({ time: Schema.Number, seen: Schema.Array(Schema.String) })
export type Cursor = typeof Fields.Type

const Json = Schema.fromJsonString(Fields)

export const encode = (cursor: Cursor): string => Schema.encodeSync(Json)(cursor)

/** None for a string Herald did not make (an older format): the caller starts again from now. */
export const decode = (value: string): Option.Option<Cursor> => Schema.decodeUnknownOption(Json)(value)

/** The cursor of "now": nothing made before it is news. */
export const at = (time: number): Cursor => ({ time, seen: [] })

/** Whether a comment made at `time` is news after the cursor. */
export const isNew = (cursor: Cursor, item: { readonly id: string; readonly time: number }): boolean =>
  item.time > cursor.time || (item.time === cursor.time && !cursor.seen.includes(item.id))

/** The cursor after reading these new items: the newest time, and what was read at that time. */
export const advance = (cursor: Cursor, items: ReadonlyArray<{ readonly id: string; readonly time: number }>): Cursor => {
  const time = items.reduce((newest, item) => Math.max(newest, item.time), cursor.time)
  const atTime = items.filter((item) => item.time === time).map((item) => item.id)
  return { time, seen: time === cursor.time ? [...cursor.seen, ...atTime] : atTime }
}
