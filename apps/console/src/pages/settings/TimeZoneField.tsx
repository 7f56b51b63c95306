import { useId, useMemo, useState } from "react"
import { SelectField } from "../../components/Field.tsx"

// The browser's list of IANA time zones; "UTC" is not always in it, so it is added.
const zones = (() => {
  const known = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : []
  return known.includes("UTC") ? known : ["UTC", ...known]
})()

/** A searchable time zone picker: a filter box narrowing a select of the IANA names ("paris", "new york"). */
export const TimeZoneField = ({ value, onChange, error }: {
  readonly value: string
  readonly onChange: (zone: string) => void
  readonly error?: string | undefined
}) => {
  const [filter, setFilter] = useState("")
  const filterId = useId()
  const shown = useMemo(() => {
    const words = filter.trim().toLowerCase().replace(/\s+/g, "_")
    const matching = words === "" ? zones : zones.filter((zone) => zone.toLowerCase().includes(words))
    // The current zone stays choosable whatever the filter, and one the browser does not list still shows.
    return matching.includes(value) ? matching : [value, ...matching]
  }, [filter, value])
  return (
    <div className="stack time-zone">
      <div className="field">
        <label htmlFor={filterId}>Find a time zone</label>
        <input
          id={filterId}
          type="search"
          value={filter}
          placeholder="Paris, New York, Tokyo…"
          onChange={(event) => {
            const next = event.currentTarget.value
            setFilter(next)
            // The first match becomes the choice, so typing a city and saving is enough.
            const words = next.trim().toLowerCase().replace(/\s+/g, "_")
            const first = zones.find((zone) => zone.toLowerCase().includes(words))
            if (words !== "" && first !== undefined) onChange(first)
          }}
        />
      </div>
      <SelectField
        label="Time zone"
        hint={`${shown.length === zones.length ? zones.length : shown.length} of ${zones.length} IANA time zones. Posts and the calendar show times in this zone.`}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        error={error}
      >
        {shown.map((zone) => <option key={zone} value={zone}>{zone.replace(/_/g, " ")}</option>)}
      </SelectField>
    </div>
  )
}
