import type { TextCounter, Violation, ViolationField } from "../Limits.ts"

// How the validator words its violations, shared by its text and media rules.

/**
 * Builds one violation; `sentence` is the message without the network's name, which every message starts with;
 * `item`, the attachment's or follow-up's place (from 0) when the rule is about one of them.
 */
export type Report = (field: ViolationField, limit: string, actual: string, sentence: string, item?: number) => Violation

/** The shape of every "too long" or "too many" message: `text is 312 characters; the limit is 280`. */
export const overLimit = (
  report: Report,
  field: ViolationField,
  subject: string,
  actual: number,
  max: number,
  unit: string,
  item?: number
) => {
  const amount = quantity(actual, unit)
  return report(field, `at most ${quantity(max, unit)}`, amount, `${subject} ${amount}; the limit is ${max}`, item)
}

const units: Record<TextCounter, string> = {
  "characters": "character",
  "x-weighted": "character",
  "utf8-bytes": "byte",
  "graphemes": "grapheme",
  "mastodon": "character",
  "utf16-units": "character",
  "emoji-bytes": "character"
}

export const unitOf = (counter: TextCounter): string => units[counter]

/** `1 photo`, `5 photos`. */
export const quantity = (amount: number, unit: string): string => `${amount} ${unit}${amount === 1 ? "" : "s"}`

/** `a`, `a or b`, `a, b or c`. */
export const listOf = (items: ReadonlyArray<string>, conjunction: "and" | "or"): string =>
  items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} ${conjunction} ${items.at(-1)}`

/**
 * `1,000,000 bytes (1 MB)`: exact, for comparing, and to one decimal, for reading (MB as 1,000,000 bytes).
 * A size over a limit is rounded up, so 1,000,001 bytes never reads as the limit's "1 MB".
 */
export const formatBytes = (bytes: number, rounding: "up" | "nearest" = "nearest"): string => {
  const exact = `${bytes.toLocaleString("en-US")} byte${bytes === 1 ? "" : "s"}`
  if (bytes < 1_000) return exact
  const [value, unit] = bytes >= 1e9 ? [bytes / 1e9, "GB"] : bytes >= 1e6 ? [bytes / 1e6, "MB"] : [bytes / 1e3, "KB"]
  const tenths = rounding === "up" ? Math.ceil(Math.round(value * 1e6) / 1e5) : Math.round(value * 10)
  return `${exact} (${tenths / 10} ${unit})`
}

/**
 * A ratio bound as people know it: `4:5 (0.8)` when it is a small fraction, otherwise `1.91:1`.
 */
export const formatRatio = (value: number): string => {
  for (let denominator = 1; denominator <= 20; denominator++) {
    const numerator = Math.round(value * denominator)
    if (numerator > 0 && Math.abs(numerator / denominator - value) < 1e-9) {
      return denominator === 1 ? `${numerator}:1` : `${numerator}:${denominator} (${Number(value.toFixed(2))})`
    }
  }
  return `${Number(value.toFixed(2))}:1`
}

/** Two decimals, or up to four when two would make the value look equal to the bound it breaks. */
export const decimalsApart = (value: number, bound: number): string => {
  for (let decimals = 2; decimals < 4; decimals++) {
    if (value.toFixed(decimals) !== bound.toFixed(decimals)) return value.toFixed(decimals)
  }
  return value.toFixed(4)
}

/** `3 s`, `60 s`, `15 min`: whole minutes read better past one minute. */
export const formatDuration = (milliseconds: number): string =>
  milliseconds > 60_000 && milliseconds % 60_000 === 0 ? `${milliseconds / 60_000} min` : `${milliseconds / 1000} s`

export const greatestCommonDivisor = (first: number, second: number): number =>
  second === 0 ? first : greatestCommonDivisor(second, first % second)
