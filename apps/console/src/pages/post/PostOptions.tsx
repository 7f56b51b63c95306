import type { ReactNode } from "react"
import { fieldsOf, setOptions } from "./networkOptions.ts"
import type { Post } from "./postQuery.ts"
import { useNetworks } from "./useNetworks.ts"

// Each target network's options as the post sets them (those left at the network's default are not
// listed), named and described by the schema the network's adapter publishes.
export const PostOptions = ({ post }: { readonly post: Post }) => {
  const networks = useNetworks()
  const keys = [...new Set(post.targets.map((target) => target.platform))]
  const shown = keys.flatMap((key) => {
    const network = networks.get(key)
    if (network === undefined || network.options === null || network.options === undefined) return []
    const set = setOptions(post, network)
    if (Object.keys(set).length === 0) return []
    const described = new Map(fieldsOf(network.options))
    return [{ key, name: network.name, set, described }]
  })
  if (shown.length === 0) return null
  return (
    <div className="post-options">
      {shown.map(({ key, name, set, described }) => (
        <div className="post-text-block" key={key}>
          <h3>Options for {name}</h3>
          <dl className="facts">
            {Object.entries(set).map(([field, value]) => (
              <div key={field}>
                <dt title={described.get(field)?.description}>{words(field)}</dt>
                <dd>{valueOf(value)}</dd>
              </div>
            ))}
          </dl>
        </div>
      ))}
    </div>
  )
}

// "spoilerText" → "Spoiler text": a field's name read as words.
const words = (field: string) => {
  const spaced = field.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase()
  return spaced.charAt(0).toUpperCase() + spaced.slice(1)
}

const valueOf = (value: unknown): ReactNode => {
  if (value === null) return "None"
  if (typeof value === "boolean") return value ? "Yes" : "No"
  if (Array.isArray(value)) {
    if (value.length === 0) return "None"
    return (
      <ol>
        {value.map((item, index) => <li key={index}>{valueOf(item)}</li>)}
      </ol>
    )
  }
  if (typeof value === "object") {
    return Object.entries(value as Record<string, unknown>).map(([name, inner]) => (
      <span key={name} className="option-part">{words(name)}: {valueOf(inner)} </span>
    ))
  }
  return String(value)
}
