import { type ReactElement, useId } from "react"

// A text area with its label, hint, the networks' counters and the API's problems about it.
export const TextArea = ({ label, hint, value, placeholder, onChange, messages, counters }: {
  readonly label: string
  readonly hint?: string | undefined
  readonly value: string
  readonly placeholder?: string
  readonly onChange: (value: string) => void
  readonly messages: ReadonlyArray<string>
  readonly counters: ReadonlyArray<ReactElement>
}) => {
  const id = useId()
  const described = [hint === undefined ? "" : `${id}-hint`, counters.length === 0 ? "" : `${id}-count`, messages.length === 0 ? "" : `${id}-error`]
    .filter((part) => part !== "").join(" ")
  return (
    <div className={`field${messages.length === 0 ? "" : " field-invalid"}`}>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        rows={6}
        value={value}
        placeholder={placeholder}
        aria-invalid={messages.length === 0 ? undefined : true}
        aria-describedby={described === "" ? undefined : described}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
      {hint === undefined ? null : <p className="field-hint" id={`${id}-hint`}>{hint}</p>}
      {counters.length === 0 ? null : <p className="counters" id={`${id}-count`}>{counters}</p>}
      {messages.length === 0 ? null : (
        <div className="field-error" id={`${id}-error`}>{messages.map((message) => <p key={message}>{message}</p>)}</div>
      )}
    </div>
  )
}
