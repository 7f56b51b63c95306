import { useId, useRef, useState, type KeyboardEvent } from "react"
import { NetworkIcon } from "../../components/NetworkIcon.tsx"
import { Counter } from "./Counter.tsx"
import { type Draft, type Network, optionsOf } from "./draft.ts"
import { NetworkPanel } from "./NetworkPanel.tsx"
import type { About } from "./SchemaField.tsx"
import { TextArea } from "./TextArea.tsx"
import type { Validation } from "./useValidation.ts"

// The text for every network, then a tab per chosen network (NetworkPanel). Tabs follow the WAI-ARIA pattern:
// arrow keys move between them, Tab moves into the panel.
export const TextTabs = ({ draft, setDraft, networks, checks, about, problemFields }: {
  readonly draft: Draft
  readonly setDraft: (update: (draft: Draft) => Draft) => void
  readonly networks: ReadonlyArray<Network>
  readonly checks: Validation["networks"]
  readonly about: About
  /** The fields the API has problems with, so a tab whose panel holds one is marked. */
  readonly problemFields: ReadonlyArray<string>
}) => {
  const id = useId()
  const [selected, setSelected] = useState("")
  const tabs = useRef<Array<HTMLButtonElement | null>>([])
  const keys = ["", ...networks.map((network) => network.key)]
  const current = keys.includes(selected) ? selected : ""
  const move = (event: KeyboardEvent) => {
    const at = keys.indexOf(current)
    const next = event.key === "ArrowRight" ? at + 1 : event.key === "ArrowLeft" ? at - 1 : event.key === "Home" ? 0 : event.key === "End" ? keys.length - 1 : undefined
    if (next === undefined) return
    event.preventDefault()
    const wrapped = (next + keys.length) % keys.length
    setSelected(keys[wrapped]!)
    tabs.current[wrapped]?.focus()
  }
  const checkOf = (key: string) => checks.find((check) => check.network === key)
  // The networks that take the common text: those without their own.
  const following = networks.filter((network) => (draft.platformContent[network.key] ?? "") === "")
  const takesFirstComment = networks.some((network) => network.capabilities.firstComment)
  return (
    <section className="composer-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Text</h2>
      <div role="tablist" aria-label="Text and options per network" className="tabs" onKeyDown={move}>
        {keys.map((key, index) => {
          const network = networks.find((entry) => entry.key === key)
          const invalid = (network === undefined ? ["content", "firstComment"] : fieldsOf(network)).some((field) =>
            problemFields.some((problem) => problem === field || problem.startsWith(`${field}.`))
          )
          return (
            <button
              key={key}
              ref={(element) => {
                tabs.current[index] = element
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${index}`}
              aria-controls={`${id}-panel-${index}`}
              aria-selected={key === current}
              tabIndex={key === current ? 0 : -1}
              className={`tab${invalid ? " tab-invalid" : ""}`}
              onClick={() => setSelected(key)}
            >
              {network === undefined ? "All networks" : <><NetworkIcon icon={network.icon} /> {network.name}</>}
              {invalid ? <><span aria-hidden="true" className="tab-mark">!</span><span className="visually-hidden">, has problems</span></> : null}
            </button>
          )
        })}
      </div>
      {keys.map((key, index) => {
        const network = networks.find((entry) => entry.key === key)
        return (
          <div
            key={key}
            role="tabpanel"
            id={`${id}-panel-${index}`}
            aria-labelledby={`${id}-tab-${index}`}
            hidden={key !== current}
            className="tab-panel stack"
          >
            {network === undefined
              ? (
                <>
                  <TextArea
                    label="Text"
                    hint={networks.length === 0 ? "Choose accounts above; each network counts the text its own way." : undefined}
                    value={draft.content}
                    onChange={(content) => setDraft((old) => ({ ...old, content }))}
                    messages={about("content")}
                    counters={following.flatMap((each) => {
                      const check = checkOf(each.key)
                      return check === undefined ? [] : [<Counter key={each.key} check={check} name={each.name} />]
                    })}
                  />
                  {takesFirstComment
                    ? (
                      <TextArea
                        label="First comment (optional)"
                        hint="Added under the post once it is out, on the networks that allow it."
                        value={draft.firstComment}
                        onChange={(firstComment) => setDraft((old) => ({ ...old, firstComment }))}
                        messages={about("firstComment")}
                        counters={[]}
                      />
                    )
                    : null}
                </>
              )
              : <NetworkPanel network={network} draft={draft} setDraft={setDraft} check={checkOf(network.key)} about={about} />}
          </div>
        )
      })}
    </section>
  )
}

/** The request fields a network's tab holds: its own text and its options where its adapter places them. */
const fieldsOf = (network: Network): ReadonlyArray<string> => {
  const options = optionsOf(network)
  const ownText = `platformContent.${network.key}`
  if (options === null) return [ownText]
  if (options.placement === "platformOptions") return [ownText, `platformOptions.${network.key}`]
  return [ownText, ...Object.keys(options.schema.properties ?? {})]
}
