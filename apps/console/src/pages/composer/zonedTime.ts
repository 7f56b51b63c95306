// A date-time input holds a wall-clock time with no zone ("2026-12-01T09:30"); the composer reads it in the
// workspace's time zone, not the browser's, so a post planned from a laptop abroad goes out when the team
// means. The browser's Intl knows every IANA zone, so no zone data is shipped.
const wallClockOf = (zone: string) =>
  new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit"
  })

/** The zone's wall clock at an instant, as milliseconds of the same digits read as UTC. */
const wallClockAt = (zone: string, instant: number): number => {
  const parts = Object.fromEntries(wallClockOf(zone).formatToParts(new Date(instant)).map((part) => [part.type, part.value]))
  return Date.UTC(Number(parts["year"]), Number(parts["month"]) - 1, Number(parts["day"]), Number(parts["hour"]), Number(parts["minute"]), Number(parts["second"]))
}

const offsetAt = (zone: string, instant: number) => wallClockAt(zone, instant) - Math.floor(instant / 1000) * 1000

/**
 * "2026-12-01T09:30" in `zone` as an ISO instant, or undefined when the input is not a complete time. Twice
 * round the offset so a time just after a daylight-saving change takes the offset in force then; a time the
 * spring-forward gap skips comes out an hour later, as the zone's clocks do.
 */
export const instantOf = (local: string, zone: string): string | undefined => {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local)
  if (match === null) return undefined
  const [, year, month, day, hour, minute] = match.map(Number) as [number, number, number, number, number, number]
  const wall = Date.UTC(year, month - 1, day, hour, minute)
  const guess = wall - offsetAt(zone, wall)
  return new Date(wall - offsetAt(zone, guess)).toISOString()
}

/** An ISO instant as the date-time input's value in `zone`. */
export const localOf = (iso: string, zone: string): string => new Date(wallClockAt(zone, Date.parse(iso))).toISOString().slice(0, 16)
