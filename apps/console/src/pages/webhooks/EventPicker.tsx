import { useId } from "react"
import { eventGroups } from "./events.ts"

// Which events an endpoint receives: "All events" (an empty selection, which includes events added later) or
// a choice, grouped by kind, each group with its own "all of this kind" box.
export interface Selection {
  readonly all: boolean
  readonly chosen: ReadonlySet<string>
}

export const selectionOf = (events: ReadonlyArray<string>): Selection => ({ all: events.length === 0, chosen: new Set(events) })

/** What to send as `events`: [] for all. */
export const eventsOf = (selection: Selection): Array<string> => (selection.all ? [] : [...selection.chosen])

export const EventPicker = ({ value, onChange, error }: {
  readonly value: Selection
  readonly onChange: (selection: Selection) => void
  readonly error?: string | undefined
}) => {
  const id = useId()
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
      {value.all ? null : (
        <div className="event-groups">
          {eventGroups.map((group) => {
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
