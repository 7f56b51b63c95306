import { Link } from "@tanstack/react-router"
import { accountName } from "./ListView.tsx"
import { type ViewProps, freeSlots } from "./MonthView.tsx"
import { PostChip } from "./PostChip.tsx"
import { dropTarget } from "./dropTarget.ts"
import { type Account, type Post, type QueueSeat, timeOf } from "./status.ts"
import { hourName, longDay, shortDay, timeIn, wallOf } from "../../components/zone.ts"

const hours = Array.from({ length: 24 }, (_, hour) => hour)
/** Posts an hour shows before "N more". */
const shownPerHour = 3

const byHour = <Item,>(zone: string, items: ReadonlyArray<Item>, at: (item: Item) => Date) => {
  const grouped = new Map<number, Array<Item>>()
  for (const item of items) {
    const hour = wallOf(zone, at(item)).hour
    grouped.set(hour, [...(grouped.get(hour) ?? []), item])
  }
  return grouped
}

/**
 * A week as a table: a column a day, a row an hour in the workspace's zone. A post dropped on an hour keeps
 * its minutes; free queue slots are shown where they fall.
 */
export const WeekView = ({ days, today, zone, postsByDay, freeByDay, networks, accounts, onMove, onDrop }: ViewProps & {
  readonly accounts: ReadonlyMap<string, Account>
}) => {
  const posts = new Map(days.map((day) => [day, byHour(zone, postsByDay.get(day) ?? [], timeOf)]))
  const free = new Map(days.map((day) => [day, byHour(zone, freeByDay.get(day) ?? [], (seat: QueueSeat) => new Date(seat.at))]))
  return (
    <div className="table-scroll calendar-week" role="region" aria-label="Week" tabIndex={0}>
      <table className="calendar-week-table">
        <caption className="visually-hidden">Posts by day and hour, times in {zone}</caption>
        <thead>
          <tr>
            <th scope="col"><span className="visually-hidden">Hour</span></th>
            {days.map((day) => (
              <th key={day} scope="col" className={day === today ? "calendar-today" : undefined}>
                <span aria-hidden="true">{shortDay(day)}</span>
                <span className="visually-hidden">{longDay(day)}{day === today ? " (today)" : ""}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {hours.map((hour) => (
            <tr key={hour}>
              <th scope="row" className="calendar-hour">{hourName(hour)}</th>
              {days.map((day) => {
                const here: ReadonlyArray<Post> = posts.get(day)?.get(hour) ?? []
                const seats: ReadonlyArray<QueueSeat> = free.get(day)?.get(hour) ?? []
                return (
                  <td key={day} data-day={day} data-hour={hour} {...dropTarget((id) => onDrop(id, day, hour))}>
                    {here.length === 0 ? null : (
                      <ul className="calendar-posts">
                        {here.slice(0, shownPerHour).map((post) => (
                          <PostChip key={post.id} post={post} zone={zone} networks={networks} onMove={onMove} />
                        ))}
                      </ul>
                    )}
                    {here.length > shownPerHour
                      ? (
                        <Link to="/calendar" search={{ view: "list", from: day, to: day }} className="calendar-more">
                          {here.length - shownPerHour} more<span className="visually-hidden"> on {longDay(day)}</span>
                        </Link>
                      )
                      : null}
                    {seats.length === 0 ? null : (
                      <ul className="calendar-free-slots" aria-label={freeSlots(seats.length)}>
                        {seats.map((seat) => (
                          <li key={`${seat.at} ${seat.accountId}`} className="calendar-free">
                            Free slot {timeIn(zone, new Date(seat.at))} · {accountName(accounts.get(seat.accountId), seat.accountId)}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                )
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
