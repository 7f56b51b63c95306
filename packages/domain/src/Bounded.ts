import { Schema } from "effect"

/**
 * Hard size caps on what a client sends (issue 28, decision 0058): every string of a request has a longest
 * length, every list a largest count and every map a largest number of entries. They bound the work a request
 * can cause, so each is far above the rule its field follows (a network's text limit, a name's 200
 * characters), which is checked after it in its own words. A string's cap is its schema's first check and stops
 * the others, so no pattern or counter ever sees an over-long value; the JSON Schema of every request (the
 * OpenAPI document, the MCP tools' input schemas) shows each cap as `maxLength`, `maxItems` or `maxProperties`;
 * and the refusal names the field without echoing the value.
 */

/** The longest each kind of text may be, in UTF-16 code units (JavaScript's `length`). */
export const lengths = {
  /** An id Herald gave out (a prefix and 22 characters), or an event's UUID. */
  id: 64,
  /** One token: a network key, a role, a status, a weekday, a time of day, a time, a time zone, a language. */
  word: 64,
  /** A short line: a list of statuses, a page's cursor, an error code a network sends. */
  line: 256,
  /** A name or a label a person gives. */
  name: 200,
  /** An e-mail address (RFC 5321's longest path). */
  email: 254,
  url: 2_048,
  /** A password, a link's token, an OAuth state or code. */
  secret: 4_096,
  /** A note, a reply, an alt text, a description. */
  note: 10_000,
  /**
   * Any text a network is sent (content, overrides, follow-ups, comments, titles): far above the longest an
   * installed network takes (63,206 characters, `GET /api/v1/networks`), so every counter is bounded by it.
   */
  text: 100_000
} as const

/** The largest count of each kind of list or map. */
export const counts = {
  /** The accounts one post goes to (the core refuses more, naming the field, before any work on them). */
  accounts: 100,
  /** The media one post carries. */
  media: 100,
  /** A thread's follow-ups: the longest thread a network takes is 25 posts. */
  thread: 100,
  /** A webhook endpoint's event selection: there are 20 kinds of event. */
  events: 100,
  /** The entries of a map keyed by network, or of a sign-in's fields. */
  entries: 100,
  /** A weekly schedule's slots: one a minute is every slot a week has. */
  slots: 7 * 24 * 60
} as const

const shown = (count: number) => count.toLocaleString("en-US")

/**
 * The cap as a check: Effect's own `isMaxLength` (so the JSON Schema says `maxLength` or `maxItems`), aborting
 * the checks after it when it fails.
 */
const capOf = (maxLength: number, message: string) => Schema.isMaxLength(maxLength, { message }).abort()

/** A string of at most `maxLength` characters; further checks (a pattern, a minimum) run only on one that fits. */
export const string = (maxLength: number) =>
  Schema.String.check(capOf(maxLength, `is longer than ${shown(maxLength)} characters`))

/** A list of at most `maxItems` items; `noun` names them in the refusal (`accounts`). */
export const array = <S extends Schema.Top>(item: S, maxItems: number, noun = "items") =>
  Schema.Array(item).check(capOf(maxItems, `may list at most ${shown(maxItems)} ${noun}`))

/** A map of at most `maxEntries` entries, its keys and values bounded by their own schemas. */
export const record = <Key extends Schema.Record.Key, Value extends Schema.Top>(key: Key, value: Value, maxEntries: number) =>
  Schema.Record(key, value).check(Schema.isMaxProperties(maxEntries, { message: `may have at most ${shown(maxEntries)} entries` }))

export const Id = string(lengths.id)
export const Word = string(lengths.word)
export const Line = string(lengths.line)
export const Name = string(lengths.name)
export const Email = string(lengths.email)
export const Url = string(lengths.url)
export const Secret = string(lengths.secret)
export const Note = string(lengths.note)
export const Text = string(lengths.text)

/** `text` cut to `maxLength` characters and an ellipsis, so a refusal never echoes megabytes back. */
export const shortened = (text: string, maxLength: number): string => {
  if (text.length <= maxLength) return text
  // Not between the two halves of a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(text.charAt(maxLength - 1)) ? maxLength - 1 : maxLength
  return `${text.slice(0, end)}…`
}

/** How a value a client sent is quoted in a message: in quotes, a long one cut. */
export const quoted = (text: string, maxLength = 80): string => JSON.stringify(shortened(text, maxLength))
