import { Link } from "@tanstack/react-router"
import { PostChip } from "./PostChip.tsx"
import { dropTarget } from "./dropTarget.ts"
import type { Network, Post, QueueSeat } from "./status.ts"
import { longDay, weekdayName } from "../../components/zone.ts"

/** Posts a day shows before "N more" (the rest are a click away in the list view). */
const shownPerDay = 3

export interface ViewProps {
  readonly days: ReadonlyArray<string>
  readonly today: string
  readonly zone: string
  readonly postsByDay: ReadonlyMap<string, ReadonlyArray<Post>>
  readonly freeByDay: ReadonlyMap<string, ReadonlyArray<QueueSeat>>
  readonly networks: ReadonlyMap<string, Network>
  readonly onMove: (post: Post) => void
  /** A post dropped on a day, and on an hour of it in the week view. */
  readonly onDrop: (postId: string, day: string, hour?: number) => void
}

export const freeSlots = (count: number) => `${count} free queue slot${count === 1 ? "" : "s"}`

/**
 * A month as weeks of days from Monday. On a phone (calendar.css) it becomes a list of the month's days that
 * have something in them, each with its full date.
 */
export const MonthView = ({ month, days, today, zone, postsByDay, freeByDay, networks, onMove, onDrop }: ViewProps & {
  readonly month: string
}) => (
  <div className="calendar-month">
    <div className="calendar-weekdays" aria-hidden="true">
      {days.slice(0, 7).map((day) => <span key={day}>{weekdayName(day)}</span>)}
    </div>
    <ol className="calendar-days">
      {days.map((day) => {
        const posts = postsByDay.get(day) ?? []
        const free = freeByDay.get(day)?.length ?? 0
        const classes = [
          "calendar-day",
          day.startsWith(month) ? "" : "calendar-day-outside",
          day === today ? "calendar-today" : "",
          posts.length === 0 && free === 0 ? "calendar-day-empty" : ""
        ]
        return (
          <li key={day} className={classes.filter((name) => name !== "").join(" ")} data-day={day} {...dropTarget((id) => onDrop(id, day))}>
            <h3 className="calendar-day-heading">
              <span className="calendar-day-number" aria-hidden="true">{Number(day.slice(8))}</span>
              <span className="calendar-day-long">{longDay(day)}</span>
              {day === today ? <span className="visually-hidden"> (today)</span> : null}
            </h3>
            {posts.length === 0 ? null : (
              <ul className="calendar-posts">
                {posts.slice(0, shownPerDay).map((post) => <PostChip key={post.id} post={post} zone={zone} networks={networks} onMove={onMove} />)}
              </ul>
            )}
            {posts.length > shownPerDay
              ? (
                <Link to="/calendar" search={{ view: "list", from: day, to: day }} className="calendar-more">
                  {posts.length - shownPerDay} more<span className="visually-hidden"> on {longDay(day)}</span>
                </Link>
              )
              : null}
            {free === 0 ? null : <p className="calendar-free">{freeSlots(free)}</p>}
          </li>
        )
      })}
    </ol>
  </div>
)
