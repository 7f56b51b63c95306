import { useId } from "react"
import { Counter } from "./Counter.tsx"
import { type Draft, type JsonSchema, type Network, optionsOf, valuesOf } from "./draft.ts"
import { type About, labelOf, SchemaField } from "./SchemaField.tsx"
import { TextArea } from "./TextArea.tsx"
import type { Validation } from "./useValidation.ts"

// A chosen network's tab: its own text (empty follows the common text) with its count, and its options,
// each drawn from the JSON Schema its adapter publishes, where its adapter places them in a request.
export const NetworkPanel = ({ network, draft, setDraft, check, about }: {
  readonly network: Network
  readonly draft: Draft
  readonly setDraft: (update: (draft: Draft) => Draft) => void
  readonly check: Validation["networks"][number] | undefined
  readonly about: About
}) => {
  const options = optionsOf(network)
  const values = valuesOf(draft, network)
  const properties = Object.entries(options?.schema.properties ?? {})
  const pathOf = (field: string) => (options?.placement === "top" ? field : `platformOptions.${network.key}.${field}`)
  return (
    <>
      <TextArea
        label={`Text for ${network.name}`}
        hint={`Leave empty to send ${network.name} the text for all networks.`}
        value={draft.platformContent[network.key] ?? ""}
        placeholder={draft.content}
        onChange={(text) => setDraft((old) => ({ ...old, platformContent: { ...old.platformContent, [network.key]: text } }))}
        messages={about(`platformContent.${network.key}`)}
        counters={check === undefined ? [] : [<Counter key={network.key} check={check} name={network.name} />]}
      />
      {properties.length === 0 ? null : (
        <fieldset className="option-group">
          <legend>{network.name} options</legend>
          {properties.map(([field, schema]) => {
            const set = (value: unknown) =>
              setDraft((old) => ({ ...old, options: { ...old.options, [network.key]: { ...valuesOf(old, network), [field]: value } } }))
            return options?.mediaFields.includes(field) === true
              ? <MediaChoice key={field} name={field} schema={schema} value={values[field]} media={draft.media} onChange={set} path={pathOf(field)} about={about} />
              : <SchemaField key={field} name={field} schema={schema} value={values[field]} onChange={set} path={pathOf(field)} about={about} />
          })}
        </fieldset>
      )}
    </>
  )
}

// An option whose value is one of the attached photos or videos (a thumbnail): chosen from them by name.
const MediaChoice = ({ name, schema, value, media, onChange, path, about }: {
  readonly name: string
  readonly schema: JsonSchema
  readonly value: unknown
  readonly media: Draft["media"]
  readonly onChange: (value: string | null) => void
  readonly path: string
  readonly about: About
}) => {
  const id = useId()
  const messages = about(path)
  const chosen = typeof value === "string" ? value : ""
  return (
    <div className={`field${messages.length === 0 ? "" : " field-invalid"}`}>
      <label htmlFor={id}>{labelOf(name, schema)}</label>
      <select
        id={id}
        value={chosen}
        aria-invalid={messages.length === 0 ? undefined : true}
        aria-describedby={`${id}-hint${messages.length === 0 ? "" : ` ${id}-error`}`}
        onChange={(event) => onChange(event.currentTarget.value === "" ? null : event.currentTarget.value)}
      >
        <option value="">None</option>
        {media.map((item, index) => (
          <option key={item.id} value={item.id}>{item.kind === "video" ? "Video" : "Photo"} {index + 1}</option>
        ))}
        {chosen !== "" && !media.some((item) => item.id === chosen) ? <option value={chosen}>{chosen}</option> : null}
      </select>
      <p className="field-hint" id={`${id}-hint`}>{schema.description ?? "One of the photos and videos attached below."}</p>
      {messages.length === 0 ? null : (
        <div className="field-error" id={`${id}-error`}>{messages.map((message) => <p key={message}>{message}</p>)}</div>
      )}
    </div>
  )
}
