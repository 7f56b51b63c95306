import type { components } from "@herald/client/api"
import type { Media } from "./upload.ts"

export type Post = components["schemas"]["Post"]
export type Network = components["schemas"]["Network"]
export type Account = components["schemas"]["Account"]

/** A JSON Schema as GET /api/v1/networks publishes a network's options: read, never trusted for more. */
export interface JsonSchema {
  readonly type?: string | ReadonlyArray<string>
  readonly description?: string
  readonly title?: string
  readonly enum?: ReadonlyArray<unknown>
  readonly const?: unknown
  readonly default?: unknown
  readonly items?: JsonSchema
  readonly properties?: Readonly<Record<string, JsonSchema>>
  readonly required?: ReadonlyArray<string>
  readonly anyOf?: ReadonlyArray<JsonSchema>
  readonly oneOf?: ReadonlyArray<JsonSchema>
  readonly minimum?: number
  readonly maximum?: number
}

/** A network's options: where its fields sit in a post, their schema and the values a post shows unset. */
export interface NetworkOptions {
  readonly placement: "top" | "platformOptions"
  readonly schema: JsonSchema
  readonly defaults: Readonly<Record<string, unknown>>
  /** Fields whose value is the id of an attached photo or video (a thumbnail), or null. */
  readonly mediaFields: ReadonlyArray<string>
}

/** The network's options, their schema and defaults read as the JSON they are (the contract types them as any object). */
export const optionsOf = (network: Network): NetworkOptions | null =>
  network.options === null ? null : (network.options as NetworkOptions)

/** The post being written, as the controls hold it. */
export interface Draft {
  readonly accountIds: ReadonlyArray<string>
  readonly content: string
  /** Each network's own text; "" follows `content`. */
  readonly platformContent: Readonly<Record<string, string>>
  readonly firstComment: string
  readonly media: ReadonlyArray<Media | Post["media"][number]>
  /** Each network's option values, keyed by network then field. */
  readonly options: Readonly<Record<string, Readonly<Record<string, unknown>>>>
}

export const emptyDraft: Draft = { accountIds: [], content: "", platformContent: {}, firstComment: "", media: [], options: {} }

/** The networks of the chosen accounts, in the order of the first account of each. */
export const chosenNetworks = (draft: Draft, accounts: ReadonlyArray<Account>, networks: ReadonlyArray<Network>): Array<Network> => {
  const keys = [...new Set(draft.accountIds.flatMap((id) => accounts.filter((account) => account.id === id).map((account) => account.platform)))]
  return keys.flatMap((key) => networks.filter((network) => network.key === key))
}

/** A network's option values as the controls show them: what the draft holds over its defaults. */
export const valuesOf = (draft: Draft, network: Network): Record<string, unknown> => ({
  ...optionsOf(network)?.defaults,
  ...draft.options[network.key]
})

/** A saved post as a draft: its texts, media, and each network's options where the post shows them. */
export const draftOf = (post: Post, networks: ReadonlyArray<Network>): Draft => {
  const shown: Readonly<Record<string, unknown>> = { ...post }
  const stored = post.platformOptions as Readonly<Record<string, Readonly<Record<string, unknown>> | undefined>>
  const options = Object.fromEntries(networks.flatMap((network) => {
    const options = optionsOf(network)
    if (options === null) return []
    if (options.placement === "platformOptions") return [[network.key, { ...options.defaults, ...stored[network.key] }]]
    const fields = Object.keys(options.schema.properties ?? {})
    return [[network.key, Object.fromEntries(fields.map((field) => [field, shown[field] ?? options.defaults[field]]))]]
  }))
  return {
    accountIds: post.targets.map((target) => target.accountId),
    content: post.content,
    platformContent: post.platformContent,
    firstComment: post.firstComment ?? "",
    media: post.media,
    options
  }
}

/**
 * What create and validate are sent for the draft, less the timing choice: only the chosen networks'
 * texts and options, each network's options where its adapter places them.
 */
export const bodyOf = (draft: Draft, chosen: ReadonlyArray<Network>): Record<string, unknown> => {
  const platformContent = Object.fromEntries(
    chosen.flatMap((network) => {
      const text = draft.platformContent[network.key] ?? ""
      return text === "" ? [] : [[network.key, text]]
    })
  )
  const top: Record<string, unknown> = {}
  const platformOptions: Record<string, unknown> = {}
  for (const network of chosen) {
    const options = optionsOf(network)
    if (options === null) continue
    const values = valuesOf(draft, network)
    if (options.placement === "top") Object.assign(top, values)
    else platformOptions[network.key] = values
  }
  return {
    content: draft.content,
    accountIds: draft.accountIds,
    mediaIds: draft.media.map((item) => item.id),
    platformContent,
    firstComment: draft.firstComment === "" ? null : draft.firstComment,
    ...top,
    ...(Object.keys(platformOptions).length === 0 ? {} : { platformOptions })
  }
}

const same = (left: unknown, right: unknown) => JSON.stringify(left) === JSON.stringify(right)

/**
 * A change's body: each field whose value differs from the saved post's, so a PATCH leaves alone what the
 * person did not touch (and a field another person changed meanwhile). `platformOptions` goes per network:
 * the API replaces each named network's object as a whole.
 */
export const changesOf = (before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> => {
  const changes: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(after)) {
    if (field === "platformOptions") continue
    if (!same(before[field], value)) changes[field] = value
  }
  const beforeOptions = (before["platformOptions"] ?? {}) as Record<string, unknown>
  const afterOptions = (after["platformOptions"] ?? {}) as Record<string, unknown>
  const changedOptions = Object.fromEntries(Object.entries(afterOptions).filter(([network, value]) => !same(beforeOptions[network], value)))
  if (Object.keys(changedOptions).length > 0) changes["platformOptions"] = changedOptions
  return changes
}
