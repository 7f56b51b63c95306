import { useState } from "react"
import { CheckIcon, CopyIcon } from "./Icons.tsx"

// Copies a value (a key, a secret, a link) and says so. `label` names what is copied: "Copy key".
export const CopyButton = ({ value, label = "Copy" }: { readonly value: string; readonly label?: string }) => {
  const [copied, setCopied] = useState(false)
  const copy = () => {
    const done = () => {
      setCopied(true)
      window.setTimeout(() => setCopied(false), 2000)
    }
    if (navigator.clipboard === undefined) fallback(value, done)
    else navigator.clipboard.writeText(value).then(done, () => fallback(value, done))
  }
  return (
    <button type="button" className="button button-secondary" onClick={copy}>
      {copied ? <CheckIcon /> : <CopyIcon />}
      <span>{label}</span>
      <span className="visually-hidden" role="status">{copied ? "Copied" : ""}</span>
    </button>
  )
}

// Without the clipboard API (a page not on localhost or https): select a hidden text area and copy that.
const fallback = (value: string, done: () => void) => {
  const area = document.createElement("textarea")
  area.value = value
  area.setAttribute("readonly", "")
  area.style.position = "fixed"
  area.style.opacity = "0"
  document.body.append(area)
  area.select()
  if (document.execCommand("copy")) done()
  area.remove()
}

/** A secret shown once: the value in a read-only box, a copy button and the warning. */
export const SecretValue = ({ label, value, warning }: { readonly label: string; readonly value: string; readonly warning: string }) => (
  <div className="secret">
    <label>
      <span>{label}</span>
      <input className="secret-value" readOnly value={value} onFocus={(event) => event.currentTarget.select()} />
    </label>
    <CopyButton value={value} label={`Copy ${label.toLowerCase()}`} />
    <p className="field-hint">{warning}</p>
  </div>
)
