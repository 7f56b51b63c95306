import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from "react"

// A labelled control with an optional hint and the API's message about it (error `details` naming the field).
interface Common {
  readonly label: string
  readonly hint?: ReactNode
  readonly error?: string | undefined
}

const described = (id: string, hint: boolean, error: boolean) =>
  [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter((part) => part !== "").join(" ") || undefined

const Around = ({ id, label, hint, error, children }: Common & { readonly id: string; readonly children: ReactNode }) => (
  <div className={`field${error === undefined ? "" : " field-invalid"}`}>
    <label htmlFor={id}>{label}</label>
    {children}
    {hint === undefined ? null : <p className="field-hint" id={`${id}-hint`}>{hint}</p>}
    {error === undefined ? null : <p className="field-error" id={`${id}-error`}>{error}</p>}
  </div>
)

export const TextField = ({ label, hint, error, id, ...input }: Common & InputHTMLAttributes<HTMLInputElement>) => {
  const generated = useId()
  const own = id ?? generated
  return (
    <Around id={own} label={label} hint={hint} error={error}>
      <input
        type="text"
        {...input}
        id={own}
        aria-invalid={error === undefined ? undefined : true}
        aria-describedby={described(own, hint !== undefined, error !== undefined)}
      />
    </Around>
  )
}

export const SelectField = ({ label, hint, error, id, children, ...select }: Common & SelectHTMLAttributes<HTMLSelectElement>) => {
  const generated = useId()
  const own = id ?? generated
  return (
    <Around id={own} label={label} hint={hint} error={error}>
      <select
        {...select}
        id={own}
        aria-invalid={error === undefined ? undefined : true}
        aria-describedby={described(own, hint !== undefined, error !== undefined)}
      >
        {children}
      </select>
    </Around>
  )
}

/** A password being chosen: the browser may offer to generate one, and the person reads what the API asks of it. */
export const NewPasswordField = (props: Common & Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "autoComplete">) => (
  <TextField
    type="password"
    autoComplete="new-password"
    hint="At least 10 characters; a phrase of a few words is good."
    {...props}
  />
)
