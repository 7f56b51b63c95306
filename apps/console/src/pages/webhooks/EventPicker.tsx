import { queryOptions, useQuery } from "@tanstack/react-query"
import { useId } from "react"
import { api, unwrap } from "../../api/client.ts"
import { ErrorMessage } from "../../components/Banner.tsx"
import { Loading } from "../../components/Page.tsx"
import { groupEvents } from "./events.ts"

// Which events an endpoint receives: "All events" (an empty selection, which includes events added later) or
// a choice, grouped by kind, each group with its own "all of this kind" box.
export interface Selection {
  readonly all: boolean
  readonly chosen: ReadonlySet<string>
}

export const selectionOf = (events: ReadonlyArray<string>): Selection => ({ all: events.length === 0, chosen: new Set(events) })

/** What to send as `events`: [] for all. */
export const eventsOf = (selection: Selection): Array<string> => (selection.all ? [] : [...selection.chosen])

// The events to choose from are the API's, in its order: the console keeps no list of its own, so the picker
// offers exactly what the server sends.
const eventsQuery = queryOptions({
  queryKey: ["webhook-events"],
  queryFn: () => unwrap(api.GET("/api/v1/webhooks/events")),
  // The list changes only with the server's version.
  staleTime: Number.POSITIVE_INFINITY
})

export const EventPicker = ({ value, onChange, error }: {
  readonly value: Selection
  readonly onChange: (selection: Selection) => void
  readonly error?: string | undefined
}) => {
  const id = useId()
  const events = useQuery(eventsQuery)
  const toggle = (events: ReadonlyArray<string>, on: boolean) => {
    const chosen = new Set(value.chosen)
    for (const event of events) on ? chosen.add(event) : chosen.delete(event)
    onChange({ all: false, chosen })
  }
  return (
    <fieldset className="event-picker" aria-describedby={error === undefined ? undefined : `${id}-error`}>
      <legend>Events</legend>
      <label className="check">
        <input type="radio" name={`${id}-mode`} checked={value.all} onChange={() => onChange({ ...value, all: true })} />
        <span>All events, including ones Herald adds later</span>
      </label>
      <label className="check">
        <input type="radio" name={`${id}-mode`} checked={!value.all} onChange={() => onChange({ ...value, all: false })} />
        <span>Only the events chosen below</span>
      </label>
      {value.all ? null : events.data === undefined ? (
        events.isError ? <ErrorMessage error={events.error} /> : <Loading what="Loading the events" />
      ) : (
        <div className="event-groups">
          {groupEvents(events.data).map((group) => {
            const chosen = group.events.filter((event) => value.chosen.has(event)).length
            return (
              <fieldset key={group.kind} className="event-group">
                <legend>
                  <label className="check">
                    <input
                      type="checkbox"
                      checked={chosen === group.events.length}
                      ref={(box) => {
                        if (box !== null) box.indeterminate = chosen > 0 && chosen < group.events.length
                      }}
                      onChange={(event) => toggle(group.events, event.currentTarget.checked)}
                    />
                    <span>{group.name} ({group.kind}.*)</span>
                  </label>
                </legend>
                {group.events.map((event) => (
                  <label key={event} className="check">
                    <input
                      type="checkbox"
                      checked={value.chosen.has(event)}
                      onChange={(change) => toggle([event], change.currentTarget.checked)}
                    />
                    <code>{event}</code>
                  </label>
                ))}
              </fieldset>
            )
          })}
        </div>
      )}
      {error === undefined ? null : <p className="field-error" id={`${id}-error`}>{error}</p>}
    </fieldset>
  )
}
