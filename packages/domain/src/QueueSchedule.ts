/**
 * The weekly posting schedule of the queue (docs/queue.md, docs/decisions/0037): slots are wall-clock times on
 * weekdays in an IANA time zone. Pure: no clock, no I/O; the zone arithmetic uses the runtime's Intl.
 */
import { Schema } from "effect"

export const days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const
export const Day = Schema.Literals(days).annotate({ description: "A weekday: mon, tue, wed, thu, fri, sat or sun" })
export type Day = typeof Day.Type

const timePattern = /^([01][0-9]|2[0-3]):[0-5][0-9]$/

export const Time = Schema.String.check(Schema.isPattern(timePattern)).annotate({
  description: "A wall-clock time `HH:MM`, 24-hour, from `00:00` to `23:59`"
})

export const Slot = Schema.Struct({ day: Day, time: Time })
export type Slot = typeof Slot.Type

/** A weekly schedule; `slots` are sorted by day (Monday first) then time, with no duplicates. */
export const Schedule = Schema.Struct({
  slots: Schema.Array(Slot).annotate({ description: "The weekly slots, Monday first then by time" })
})
export type Schedule = typeof Schedule.Type

/** What a client sends: loose strings, so that a bad value is refused by `check` naming its field. */
export const ScheduleInput = Schema.Struct({
  slots: Schema.Array(Schema.Struct({ day: Schema.String, time: Schema.String }))
})
export type ScheduleInput = typeof ScheduleInput.Type

export interface Problem {
  readonly field: string
  readonly message: string
}

const dayIndex = (day: Day): number => days.indexOf(day)

const compareSlots = (a: Slot, b: Slot): number =>
  dayIndex(a.day) - dayIndex(b.day) || (a.time < b.time ? -1 : a.time > b.time ? 1 : 0)

/** The schedule with its slots sorted (Monday first, then by time). */
export const sorted = (schedule: Schedule): Schedule => ({ slots: [...schedule.slots].sort(compareSlots) })

/**
 * Checks a schedule a client sent: every problem names its field (`slots.2.time`) and the bad value. Answers the
 * sorted schedule, or the problems.
 */
export const check = (
  input: ScheduleInput
): { readonly _tag: "Valid"; readonly schedule: Schedule } | { readonly _tag: "Invalid"; readonly problems: ReadonlyArray<Problem> } => {
  const problems: Array<Problem> = []
  const seen = new Map<string, number>()
  const slots: Array<Slot> = []
  input.slots.forEach((slot, index) => {
    const dayOk = (days as ReadonlyArray<string>).includes(slot.day)
    const timeOk = timePattern.test(slot.time)
    if (!dayOk) {
      problems.push({
        field: `slots.${index}.day`,
        message: `day "${slot.day}" is not a weekday (use one of ${days.join(", ")})`
      })
    }
    if (!timeOk) {
      problems.push({
        field: `slots.${index}.time`,
        message: `time "${slot.time}" is not a wall-clock time HH:MM from 00:00 to 23:59`
      })
    }
    if (!dayOk || !timeOk) return
    const key = `${slot.day} ${slot.time}`
    const first = seen.get(key)
    if (first !== undefined) {
      problems.push({ field: `slots.${index}`, message: `slot ${key} is already slot ${first}` })
      return
    }
    seen.set(key, index)
    slots.push({ day: slot.day as Day, time: slot.time })
  })
  return problems.length > 0 ? { _tag: "Invalid", problems } : { _tag: "Valid", schedule: sorted({ slots }) }
}

// ---- zone arithmetic ----

const formatters = new Map<string, Intl.DateTimeFormat>()

const formatter = (timeZone: string): Intl.DateTimeFormat => {
  let found = formatters.get(timeZone)
  if (found === undefined) {
    found = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric"
    })
    formatters.set(timeZone, found)
  }
  return found
}

/** The wall clock in the zone at an instant, as the UTC milliseconds of the same calendar fields. */
const wallClock = (timeZone: string, at: number): number => {
  const fields: Record<string, number> = {}
  for (const part of formatter(timeZone).formatToParts(at)) {
    if (part.type !== "literal") fields[part.type] = Number(part.value)
  }
  return Date.UTC(fields.year!, fields.month! - 1, fields.day!, fields.hour!, fields.minute!, fields.second!)
}

const offsetAt = (timeZone: string, at: number): number => wallClock(timeZone, at) - Math.floor(at / 1000) * 1000

const hour = 3_600_000
const day = 24 * hour

/**
 * The first instant at which the zone's wall clock shows `local` (UTC milliseconds of the calendar fields), or
 * undefined when it never does (a time skipped by a spring-forward change).
 */
export const firstInstant = (timeZone: string, local: number): number | undefined => {
  const offsets = new Set([offsetAt(timeZone, local - day), offsetAt(timeZone, local), offsetAt(timeZone, local + day)])
  let first: number | undefined
  for (const offset of offsets) {
    const candidate = local - offset
    if (wallClock(timeZone, candidate) === local && (first === undefined || candidate < first)) first = candidate
  }
  return first
}

/** The weekday and `HH:MM` of an instant in the zone. */
export const slotAt = (timeZone: string, at: Date): Slot => {
  const local = new Date(wallClock(timeZone, at.getTime()))
  const hh = String(local.getUTCHours()).padStart(2, "0")
  const mm = String(local.getUTCMinutes()).padStart(2, "0")
  return { day: days[(local.getUTCDay() + 6) % 7]!, time: `${hh}:${mm}` }
}

/**
 * The next `count` slot instants at or after `from`, in order. A slot whose wall-clock time does not exist that day
 * (spring forward) is skipped; one that happens twice (fall back) is used once, at its first occurrence.
 */
export const upcoming = (schedule: Schedule, timeZone: string, from: Date, count: number): ReadonlyArray<Date> => {
  const out: Array<Date> = []
  if (schedule.slots.length === 0 || count <= 0) return out
  const byDay = days.map((name) =>
    schedule.slots
      .filter((slot) => slot.day === name)
      .map((slot) => Number(slot.time.slice(0, 2)) * hour + Number(slot.time.slice(3, 5)) * 60_000)
      .sort((a, b) => a - b)
  )
  const start = from.getTime()
  const today = new Date(wallClock(timeZone, start))
  const firstDay = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate())
  // Every week has a slot that exists on a day with no transition, so this ends long before the bound.
  for (let offset = -1; out.length < count && offset < 8 * (count + 2); offset++) {
    const midnight = firstDay + offset * day
    const weekday = (new Date(midnight).getUTCDay() + 6) % 7
    if (byDay[weekday]!.length === 0) continue
    // Away from a change of offset (a day either side), a slot's instant is its wall-clock time less the one
    // offset: four readings of the zone per day rather than several per slot. Near a change, each slot is
    // worked out whole.
    const offsets = new Set([midnight - day, midnight, midnight + day, midnight + 2 * day].map((at) => offsetAt(timeZone, at)))
    const steady = offsets.size === 1 ? [...offsets][0]! : undefined
    for (const time of byDay[weekday]!) {
      const at = steady === undefined ? firstInstant(timeZone, midnight + time) : midnight + time - steady
      if (at !== undefined && at >= start) {
        out.push(new Date(at))
        if (out.length === count) break
      }
    }
  }
  return out
}
