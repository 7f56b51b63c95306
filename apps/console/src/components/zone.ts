// Calendar arithmetic in the workspace's time zone, on the browser's own Intl (no date library in the
// bundle). A day is its "YYYY-MM-DD" key, counted on plain dates in UTC so that no browser zone or daylight
// saving change can shift it; an instant is turned into the zone's wall clock and back only at the edges.

export interface Wall {
  readonly date: string
  readonly hour: number
  readonly minute: number
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>()
const partsFormatter = (zone: string) => {
  let formatter = partsFormatters.get(zone)
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit"
    })
    partsFormatters.set(zone, formatter)
  }
  return formatter
}

const numbers = (zone: string, instant: Date) => {
  const parts: Record<string, number> = {}
  for (const part of partsFormatter(zone).formatToParts(instant)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value)
  }
  return { year: parts["year"]!, month: parts["month"]!, day: parts["day"]!, hour: parts["hour"]!, minute: parts["minute"]!, second: parts["second"]! }
}

const pad = (value: number, length = 2) => String(value).padStart(length, "0")
const keyOf = (year: number, month: number, day: number) => `${pad(year, 4)}-${pad(month)}-${pad(day)}`

/** The wall clock of `instant` in `zone`. */
export const wallOf = (zone: string, instant: Date): Wall => {
  const { year, month, day, hour, minute } = numbers(zone, instant)
  return { date: keyOf(year, month, day), hour, minute }
}

/** How far `zone` is ahead of UTC at `instant`, in milliseconds. */
const offsetAt = (zone: string, instant: number) => {
  const { year, month, day, hour, minute, second } = numbers(zone, new Date(instant))
  return Date.UTC(year, month - 1, day, hour, minute, second) - Math.floor(instant / 1000) * 1000
}

/**
 * The instant the zone's clocks show `wall`. Twice round, since the offset at the first guess may differ from
 * the one at the answer near a daylight saving change; a wall time that change skips lands just after it.
 */
export const instantOf = (zone: string, wall: Wall): Date => {
  const [year, month, day] = wall.date.split("-").map(Number) as [number, number, number]
  const asUtc = Date.UTC(year, month - 1, day, wall.hour, wall.minute)
  const first = asUtc - offsetAt(zone, asUtc)
  return new Date(asUtc - offsetAt(zone, first))
}

/** The zone's midnight that starts `date`. */
export const startOfDay = (zone: string, date: string) => instantOf(zone, { date, hour: 0, minute: 0 })

const utcDate = (date: string) => new Date(`${date}T00:00:00Z`)

export const addDays = (date: string, days: number) => {
  const at = utcDate(date)
  at.setUTCDate(at.getUTCDate() + days)
  return at.toISOString().slice(0, 10)
}

export const addMonths = (date: string, months: number) => {
  const at = utcDate(date)
  at.setUTCDate(1)
  at.setUTCMonth(at.getUTCMonth() + months)
  return at.toISOString().slice(0, 10)
}

/** Weeks start on Monday (ISO 8601). */
export const startOfWeek = (date: string) => addDays(date, -((utcDate(date).getUTCDay() + 6) % 7))

const firstOfMonth = (date: string) => `${date.slice(0, 7)}-01`

/** Every day from `first` to `last`, both included. */
export const daysBetween = (first: string, last: string): Array<string> => {
  const days: Array<string> = []
  for (let day = first; day <= last; day = addDays(day, 1)) days.push(day)
  return days
}

/** The weeks a month's grid shows: Monday before (or on) the 1st to the Sunday after (or on) its last day. */
export const monthGrid = (date: string): Array<string> => {
  const first = firstOfMonth(date)
  const last = addDays(addMonths(first, 1), -1)
  return daysBetween(startOfWeek(first), addDays(startOfWeek(last), 6))
}

export const isDate = (value: unknown): value is string =>
  typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(utcDate(value).getTime()) &&
  utcDate(value).toISOString().startsWith(value)

/** "2026-12-03T09:30" for a datetime-local input, from an instant, in the zone. */
export const localInputOf = (zone: string, instant: Date) => {
  const wall = wallOf(zone, instant)
  return `${wall.date}T${pad(wall.hour)}:${pad(wall.minute)}`
}

/** The instant a datetime-local input's value names in the zone, or undefined when it names none. */
export const instantOfLocalInput = (zone: string, value: string): Date | undefined => {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})/.exec(value)
  if (match === null || !isDate(match[1])) return undefined
  return instantOf(zone, { date: match[1]!, hour: Number(match[2]), minute: Number(match[3]) })
}

// Dates as the person's browser writes them, computed on the plain date (UTC) so the zone cannot shift them.
const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: "long", month: "long", day: "numeric", year: "numeric", timeZone: "UTC" })
const shortDayFormat = new Intl.DateTimeFormat(undefined, { weekday: "short", day: "numeric", timeZone: "UTC" })
const weekdayFormat = new Intl.DateTimeFormat(undefined, { weekday: "short", timeZone: "UTC" })
const monthFormat = new Intl.DateTimeFormat(undefined, { month: "long", year: "numeric", timeZone: "UTC" })
const rangeFormat = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" })

/** "Thursday, December 3, 2026". */
export const longDay = (date: string) => dayFormat.format(utcDate(date))
/** "Thu 3". */
export const shortDay = (date: string) => shortDayFormat.format(utcDate(date))
/** "Mon". */
export const weekdayName = (date: string) => weekdayFormat.format(utcDate(date))
/** "December 2026". */
export const monthName = (date: string) => monthFormat.format(utcDate(date))
/** "Nov 30 – Dec 6, 2026". */
export const dayRange = (first: string, last: string) => rangeFormat.formatRange(utcDate(first), utcDate(last))

const timeFormatters = new Map<string, Intl.DateTimeFormat>()
/** An instant's time of day in the zone, as the browser writes it: "9:30 AM". */
export const timeIn = (zone: string, instant: Date) => {
  let formatter = timeFormatters.get(zone)
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat(undefined, { timeZone: zone, hour: "numeric", minute: "2-digit" })
    timeFormatters.set(zone, formatter)
  }
  return formatter.format(instant)
}

/** An hour of the day as the browser writes it: "9 AM", "21". */
const hourFormat = new Intl.DateTimeFormat(undefined, { hour: "numeric", timeZone: "UTC" })
export const hourName = (hour: number) => hourFormat.format(new Date(Date.UTC(2000, 0, 1, hour)))

/** Today's date in the zone. */
export const today = (zone: string) => wallOf(zone, new Date()).date

/** "Thursday, December 3, 2026, 9:30 AM": an instant's day and time in the zone. */
export const when = (zone: string, instant: Date) => `${longDay(wallOf(zone, instant).date)}, ${timeIn(zone, instant)}`
