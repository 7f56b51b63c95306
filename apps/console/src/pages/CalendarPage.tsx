import { useQueries, useQuery } from "@tanstack/react-query"
import { Link, useNavigate, useRouterState } from "@tanstack/react-router"
import { type ReactNode, useState } from "react"
import { Banner, ErrorMessage } from "../components/Banner.tsx"
import { Button } from "../components/Button.tsx"
import { Page, QueryState } from "../components/Page.tsx"
import { accountsQuery, networksQuery } from "./accounts/connect.ts"
import { queueQuery, weekQuery, workspaceQuery } from "./calendar/calendarQueries.ts"
import { ListView, type ListSearch } from "./calendar/ListView.tsx"
import { MonthView } from "./calendar/MonthView.tsx"
import { MoveDialog } from "./calendar/MoveDialog.tsx"
import { type Post, type QueueSeat, timeOf } from "./calendar/status.ts"
import { byTime, useMovePost } from "./calendar/useMovePost.ts"
import { WeekView } from "./calendar/WeekView.tsx"
import {
  addDays,
  addMonths,
  dayRange,
  daysBetween,
  instantOf,
  isDate,
  monthGrid,
  monthName,
  startOfDay,
  startOfWeek,
  today as todayIn,
  wallOf,
  when
} from "../components/zone.ts"
import "./calendar/calendar.css"

type View = "month" | "week" | "list"
const views: ReadonlyArray<{ readonly view: View; readonly name: string }> = [
  { view: "month", name: "Month" },
  { view: "week", name: "Week" },
  { view: "list", name: "List" }
]

interface CalendarSearch extends ListSearch {
  readonly view: View
  /** The day shown (month: its month; week: its week), in the workspace's zone. */
  readonly date?: string | undefined
}

// The URL holds what is shown (?view=month|week|list&date=YYYY-MM-DD, and the list's filters), so a view can
// be bookmarked, shared and gone back to. Anything else in it is ignored.
const readSearch = (search: Record<string, unknown>): CalendarSearch => {
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined)
  const view = search["view"]
  return {
    view: view === "week" || view === "list" ? view : "month",
    date: isDate(search["date"]) ? search["date"] : undefined,
    status: text(search["status"]),
    account: text(search["account"]),
    from: isDate(search["from"]) ? search["from"] : undefined,
    to: isDate(search["to"]) ? search["to"] : undefined
  }
}

/** Only what is set, so the URL stays short. */
const searchOf = (search: CalendarSearch) =>
  Object.fromEntries(Object.entries(search).filter(([, value]) => value !== undefined)) as Record<string, string>

export const CalendarPage = () => {
  const workspace = useQuery(workspaceQuery)
  return (
    <Page title="Calendar" description="Every post at its time, in the workspace's time zone. Drag a draft or a scheduled post to move it.">
      <QueryState query={workspace} what="the workspace">
        {(loaded) => <Calendar zone={loaded.timeZone} />}
      </QueryState>
    </Page>
  )
}

const Calendar = ({ zone }: { readonly zone: string }) => {
  const search = readSearch(useRouterState({ select: (state) => state.location.search as Record<string, unknown> }))
  const navigate = useNavigate()
  const go = (next: CalendarSearch) => void navigate({ to: "/calendar", search: searchOf(next) })
  const networks = useQuery(networksQuery)
  const accounts = useQuery(accountsQuery)
  const networkMap = new Map((networks.data ?? []).map((network) => [network.key, network]))
  const [moving, setMoving] = useState<Post | undefined>(undefined)
  const [moved, setMoved] = useState<Post | undefined>(undefined)
  const drag = useMovePost()
  const today = todayIn(zone)
  const date = search.date ?? today

  const toolbar = (title: string, step: (date: string, by: number) => string) => (
    <div className="calendar-toolbar">
      <h2 className="calendar-title" aria-live="polite">{title}</h2>
      <div className="calendar-steps">
        <Button onClick={() => go({ ...search, date: step(date, -1) })}>Previous</Button>
        <Button onClick={() => go({ ...search, date: today })}>Today</Button>
        <Button onClick={() => go({ ...search, date: step(date, 1) })}>Next</Button>
      </div>
    </div>
  )

  return (
    <div className="calendar stack">
      <nav aria-label="Calendar view" className="calendar-views">
        {views.map(({ view, name }) => (
          <Link
            key={view}
            to="/calendar"
            search={searchOf({ ...search, view })}
            className={`button ${view === search.view ? "button-primary" : "button-secondary"}`}
            aria-current={view === search.view ? "page" : undefined}
          >
            {name}
          </Link>
        ))}
        <span className="muted calendar-zone">Times in {zone}</span>
      </nav>
      {moved === undefined ? null : (
        <Banner tone="success">
          <p>Moved to {when(zone, timeOf(moved))}.</p>
        </Banner>
      )}
      <ErrorMessage error={drag.error} title="Could not move the post" />
      {search.view === "list"
        ? (
          <ListView
            search={search}
            zone={zone}
            accounts={accounts.data ?? []}
            networks={networkMap}
            onSearch={(next) => go({ ...search, ...next })}
            onMove={setMoving}
          />
        )
        : (
          <Range
            view={search.view}
            date={date}
            today={today}
            zone={zone}
            toolbar={toolbar}
            networks={networkMap}
            accounts={new Map((accounts.data ?? []).map((account) => [account.id, account]))}
            onMove={setMoving}
            onDropPost={(post, to) => {
              setMoved(undefined)
              drag.mutate({ post, to }, { onSuccess: setMoved })
            }}
          />
        )}
      <MoveDialog
        post={moving}
        zone={zone}
        onClose={() => setMoving(undefined)}
        onMoved={(post) => {
          drag.reset()
          setMoving(undefined)
          setMoved(post)
        }}
      />
    </div>
  )
}

/** The month or week around `date`: its weeks' posts and free queue slots, loaded side by side. */
const Range = ({ view, date, today, zone, toolbar, networks, accounts, onMove, onDropPost }: {
  readonly view: "month" | "week"
  readonly date: string
  readonly today: string
  readonly zone: string
  readonly toolbar: (title: string, step: (date: string, by: number) => string) => ReactNode
  readonly networks: Parameters<typeof MonthView>[0]["networks"]
  readonly accounts: Parameters<typeof WeekView>[0]["accounts"]
  readonly onMove: (post: Post) => void
  readonly onDropPost: (post: Post, to: Date) => void
}) => {
  const days = view === "month" ? monthGrid(date) : daysBetween(startOfWeek(date), addDays(startOfWeek(date), 6))
  const weeks = days.filter((_, index) => index % 7 === 0)
  const bounds = (first: string, afterLast: string) => [startOfDay(zone, first).toISOString(), startOfDay(zone, afterLast).toISOString()] as const
  const loads = useQueries({ queries: weeks.map((monday) => weekQuery(...bounds(monday, addDays(monday, 7)))) })
  const queue = useQuery(queueQuery(...bounds(days[0]!, addDays(days[days.length - 1]!, 1))))

  const postsByDay = new Map<string, Array<Post>>()
  const loadedById = new Map<string, Post>()
  for (const load of loads) {
    for (const post of load.data ?? []) {
      loadedById.set(post.id, post)
      const day = wallOf(zone, timeOf(post)).date
      postsByDay.set(day, [...(postsByDay.get(day) ?? []), post])
    }
  }
  for (const posts of postsByDay.values()) posts.sort(byTime)
  const freeByDay = new Map<string, Array<QueueSeat>>()
  for (const seat of queue.data ?? []) {
    if (seat.post !== null) continue
    const day = wallOf(zone, new Date(seat.at)).date
    freeByDay.set(day, [...(freeByDay.get(day) ?? []), seat])
  }

  // Month: the same time of day on the new day. Week: the same minutes in the new hour.
  const drop = (postId: string, day: string, hour?: number) => {
    const post = loadedById.get(postId)
    if (post === undefined) return
    const wall = wallOf(zone, timeOf(post))
    const to = instantOf(zone, { date: day, hour: hour ?? wall.hour, minute: wall.minute })
    if (to.getTime() !== timeOf(post).getTime()) onDropPost(post, to)
  }

  const pending = loads.some((load) => load.isPending)
  const failed = loads.find((load) => load.isError)
  const common = { days, today, zone, postsByDay, freeByDay, networks, onMove, onDrop: drop }
  return (
    <>
      {view === "month"
        ? toolbar(monthName(date), (from, by) => addMonths(from, by))
        : toolbar(dayRange(days[0]!, days[6]!), (from, by) => addDays(from, 7 * by))}
      {pending ? <p className="loading" role="status"><span className="spinner" aria-hidden="true" />Loading posts…</p> : null}
      {failed === undefined ? null : (
        <div className="stack">
          <ErrorMessage error={failed.error} title="Could not load the posts" />
          <div>
            <Button onClick={() => loads.forEach((load) => load.isError && void load.refetch())}>Try again</Button>
          </div>
        </div>
      )}
      {queue.isError ? <ErrorMessage error={queue.error} title="Could not load the queue's free slots" /> : null}
      <div aria-busy={pending || undefined}>
        {view === "month"
          ? <MonthView {...common} month={date.slice(0, 7)} />
          : <WeekView {...common} accounts={accounts} />}
      </div>
    </>
  )
}
