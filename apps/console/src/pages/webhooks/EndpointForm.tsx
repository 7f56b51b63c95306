import { useState, type FormEvent } from "react"
import { ApiError } from "../../api/ApiError.ts"
import { ErrorMessage } from "../../components/Banner.tsx"
import { Button } from "../../components/Button.tsx"
import { TextField } from "../../components/Field.tsx"
import { EventPicker, eventsOf, selectionOf } from "./EventPicker.tsx"

export interface EndpointFields {
  readonly url: string
  readonly events: Array<string>
  readonly description: string | null
}

// The URL, events and description of an endpoint, to add one or change one. The API judges the address
// (https, public) and says why in words, shown beside the field.
export const EndpointForm = ({ initial, submitLabel, busy, error, onSubmit, onCancel }: {
  readonly initial?: { readonly url: string; readonly events: ReadonlyArray<string>; readonly description: string | null }
  readonly submitLabel: string
  readonly busy: boolean
  readonly error: unknown
  readonly onSubmit: (fields: EndpointFields) => void
  readonly onCancel?: () => void
}) => {
  const [url, setUrl] = useState(initial?.url ?? "")
  const [selection, setSelection] = useState(selectionOf(initial?.events ?? []))
  const [description, setDescription] = useState(initial?.description ?? "")
  const [noneChosen, setNoneChosen] = useState(false)
  const problem = error instanceof ApiError ? error : undefined
  const submit = (event: FormEvent) => {
    event.preventDefault()
    // An empty selection means every event to the API: "only these" with none ticked is a slip, not that.
    if (!selection.all && selection.chosen.size === 0) return setNoneChosen(true)
    setNoneChosen(false)
    onSubmit({ url: url.trim(), events: eventsOf(selection), description: description.trim() === "" ? null : description.trim() })
  }
  return (
    <form onSubmit={submit} className="stack" noValidate>
      <ErrorMessage error={error} />
      <TextField
        label="URL"
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder="https://example.com/webhooks/herald"
        hint="Herald POSTs signed events here. https only, to a public address."
        value={url}
        onChange={(event) => setUrl(event.currentTarget.value)}
        error={problem?.about("url")}
        required
      />
      <EventPicker
        value={selection}
        onChange={(next) => {
          setSelection(next)
          setNoneChosen(false)
        }}
        error={noneChosen ? "Choose at least one event, or All events." : problem?.about("events")}
      />
      <TextField
        label="Description (optional)"
        hint="What receives these events, for whoever reads this list later."
        value={description}
        onChange={(event) => setDescription(event.currentTarget.value)}
        error={problem?.about("description")}
      />
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={busy}>{submitLabel}</Button>
        {onCancel === undefined ? null : <Button onClick={onCancel}>Cancel</Button>}
      </div>
    </form>
  )
}
