import { useId, type ReactNode } from "react"
import { Button } from "../../components/Button.tsx"
import type { JsonSchema } from "./draft.ts"

// One option field drawn from its JSON Schema as the network's adapter publishes it, with no knowledge of
// any network: enums are selects, booleans checkboxes, integers number inputs, arrays of strings a list of
// text areas (a thread), objects a group of their fields; the schema's description is the help text.

/** The messages about a request field (`platformOptions.<network>.thread.1`), exactly that field. */
export type About = (field: string) => ReadonlyArray<string>

type Kind =
  | { readonly kind: "enum"; readonly values: ReadonlyArray<string | number> }
  | { readonly kind: "boolean" }
  | { readonly kind: "number"; readonly integer: boolean }
  | { readonly kind: "string" }
  | { readonly kind: "strings"; readonly item: JsonSchema }
  | { readonly kind: "object"; readonly properties: Readonly<Record<string, JsonSchema>> }
  | { readonly kind: "other" }

const typesOf = (schema: JsonSchema): ReadonlyArray<string> =>
  schema.type === undefined ? [] : typeof schema.type === "string" ? [schema.type] : schema.type

/** The schema without its null branch (`anyOf: [X, { type: "null" }]`, `type: ["string", "null"]`), and whether null is allowed. */
const withoutNull = (schema: JsonSchema): { readonly schema: JsonSchema; readonly nullable: boolean } => {
  const branches = schema.anyOf ?? schema.oneOf
  if (branches !== undefined) {
    const others = branches.filter((branch) => !typesOf(branch).includes("null") || typesOf(branch).length > 1)
    const nullable = others.length < branches.length
    const only = others.length === 1 ? others[0]! : { ...schema, anyOf: others }
    const help = schema.description === undefined ? {} : { description: schema.description }
    return { schema: { ...help, ...only }, nullable }
  }
  const types = typesOf(schema)
  if (types.includes("null") && types.length > 1) {
    const rest = types.filter((type) => type !== "null")
    return { schema: { ...schema, type: rest.length === 1 ? rest[0]! : rest }, nullable: true }
  }
  return { schema, nullable: false }
}

const kindOf = (schema: JsonSchema): Kind => {
  const enumValues = schema.enum ?? schema.anyOf?.map((branch) => branch.const)
  if (enumValues !== undefined && enumValues.length > 0 && enumValues.every((value) => typeof value === "string" || typeof value === "number")) {
    return { kind: "enum", values: enumValues as ReadonlyArray<string | number> }
  }
  const types = typesOf(schema)
  if (types.includes("boolean")) return { kind: "boolean" }
  if (types.includes("integer")) return { kind: "number", integer: true }
  if (types.includes("number")) return { kind: "number", integer: false }
  if (types.includes("string")) return { kind: "string" }
  if (types.includes("array") && schema.items !== undefined && kindOf(withoutNull(schema.items).schema).kind === "string") {
    return { kind: "strings", item: schema.items }
  }
  if (schema.properties !== undefined) return { kind: "object", properties: schema.properties }
  return { kind: "other" }
}

/** "spoilerText" as "Spoiler text": a field's name as a label, when its schema has no title. */
export const labelOf = (name: string, schema: JsonSchema) =>
  schema.title ??
    name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().replace(/^./, (first) => first.toUpperCase())

const Messages = ({ id, messages }: { readonly id: string; readonly messages: ReadonlyArray<string> }) =>
  messages.length === 0 ? null : (
    <div id={id} className="field-error">
      {messages.map((message) => <p key={message}>{message}</p>)}
    </div>
  )

const describedBy = (...ids: ReadonlyArray<string | undefined>) => ids.filter((id) => id !== undefined).join(" ") || undefined

export const SchemaField = ({ name, label, schema, value, onChange, path, about }: {
  readonly name: string
  readonly label?: string
  readonly schema: JsonSchema
  readonly value: unknown
  readonly onChange: (value: unknown) => void
  /** The field's place in the request, which problems name. */
  readonly path: string
  readonly about: About
}) => {
  const id = useId()
  const { schema: inner, nullable } = withoutNull(schema)
  const kind = kindOf(inner)
  const title = label ?? labelOf(name, inner)
  const help = schema.description ?? inner.description
  const messages = about(path)
  const helpId = help === undefined ? undefined : `${id}-help`
  const errorId = messages.length === 0 ? undefined : `${id}-error`
  const helpText = help === undefined ? null : <p className="field-hint" id={helpId}>{help}</p>
  const common = {
    id,
    "aria-describedby": describedBy(helpId, errorId),
    "aria-invalid": messages.length === 0 ? undefined : true
  } as const
  switch (kind.kind) {
    case "enum":
      return (
        <div className={`field${errorId === undefined ? "" : " field-invalid"}`}>
          <label htmlFor={id}>{title}</label>
          <select
            {...common}
            value={value === undefined || value === null ? "" : String(value)}
            onChange={(event) => {
              const picked = event.currentTarget.value
              onChange(picked === "" ? (nullable ? null : undefined) : kind.values.find((option) => String(option) === picked))
            }}
          >
            {nullable || value === undefined ? <option value="">{nullable ? "None" : "Not set"}</option> : null}
            {kind.values.map((option) => <option key={String(option)} value={String(option)}>{String(option)}</option>)}
          </select>
          {helpText}
          <Messages id={`${id}-error`} messages={messages} />
        </div>
      )
    case "boolean":
      return (
        <div className="field">
          <label className="check">
            <input {...common} type="checkbox" checked={value === true} onChange={(event) => onChange(event.currentTarget.checked)} />
            <span>{title}</span>
          </label>
          {helpText}
          <Messages id={`${id}-error`} messages={messages} />
        </div>
      )
    case "number":
    case "string":
      return (
        <div className={`field${errorId === undefined ? "" : " field-invalid"}`}>
          <label htmlFor={id}>{title}</label>
          <input
            {...common}
            type={kind.kind === "number" ? "number" : "text"}
            {...(kind.kind === "number" ? { step: kind.integer ? 1 : "any", min: inner.minimum, max: inner.maximum } : {})}
            value={value === undefined || value === null ? "" : String(value)}
            onChange={(event) => {
              const typed = event.currentTarget.value
              if (typed === "") return onChange(nullable ? null : kind.kind === "string" ? "" : undefined)
              onChange(kind.kind === "number" ? Number(typed) : typed)
            }}
          />
          {helpText}
          <Messages id={`${id}-error`} messages={messages} />
        </div>
      )
    case "strings":
      return <StringList id={id} title={title} help={helpText} helpId={helpId} items={Array.isArray(value) ? value.map(String) : []} onChange={onChange} path={path} about={about} />
    case "object": {
      const values = typeof value === "object" && value !== null ? (value as Readonly<Record<string, unknown>>) : {}
      return (
        <fieldset className="option-group" aria-describedby={describedBy(helpId, errorId)}>
          <legend>{title}</legend>
          {helpText}
          <Messages id={`${id}-error`} messages={messages} />
          {Object.entries(kind.properties).map(([field, fieldSchema]) => (
            <SchemaField
              key={field}
              name={field}
              schema={fieldSchema}
              value={values[field]}
              onChange={(next) => onChange({ ...values, [field]: next })}
              path={`${path}.${field}`}
              about={about}
            />
          ))}
        </fieldset>
      )
    }
    case "other":
      return (
        <div className="field">
          <p><strong>{title}</strong></p>
          {helpText}
          <p className="field-hint">This option has a form the console cannot show; set it through the API.</p>
          <Messages id={`${id}-error`} messages={messages} />
        </div>
      )
  }
}

// A list of texts (a thread's follow-ups): each in its own text area, added and removed by buttons.
const StringList = ({ id, title, help, helpId, items, onChange, path, about }: {
  readonly id: string
  readonly title: string
  readonly help: ReactNode
  readonly helpId: string | undefined
  readonly items: ReadonlyArray<string>
  readonly onChange: (value: Array<string>) => void
  readonly path: string
  readonly about: About
}) => {
  const messages = about(path)
  return (
    <fieldset className="option-group" aria-describedby={describedBy(helpId, messages.length === 0 ? undefined : `${id}-error`)}>
      <legend>{title}</legend>
      {help}
      <Messages id={`${id}-error`} messages={messages} />
      {items.map((item, index) => {
        const itemId = `${id}-${index}`
        const itemMessages = about(`${path}.${index}`)
        return (
          <div key={index} className={`field option-item${itemMessages.length === 0 ? "" : " field-invalid"}`}>
            <label htmlFor={itemId}>{`${title} ${index + 1}`}</label>
            <textarea
              id={itemId}
              rows={2}
              value={item}
              aria-invalid={itemMessages.length === 0 ? undefined : true}
              aria-describedby={itemMessages.length === 0 ? undefined : `${itemId}-error`}
              onChange={(event) => onChange(items.map((old, at) => (at === index ? event.currentTarget.value : old)))}
            />
            <Messages id={`${itemId}-error`} messages={itemMessages} />
            <div>
              <Button variant="quiet" onClick={() => onChange(items.filter((_, at) => at !== index))}>
                Remove<span className="visually-hidden">{` ${title} ${index + 1}`}</span>
              </Button>
            </div>
          </div>
        )
      })}
      <div>
        <Button onClick={() => onChange([...items, ""])}>Add to {title.toLowerCase()}</Button>
      </div>
    </fieldset>
  )
}
