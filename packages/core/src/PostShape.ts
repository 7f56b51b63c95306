import { Schema, SchemaAST } from "effect"
import type { Adapter, PostOptions } from "@herald/adapter-kit"
import { Post, type PostRequest } from "@herald/domain"

/**
 * A post's options as stored: keyed by network, then by the adapter's field name; only what was set
 * ([decision 0030](../../../docs/decisions/0030-options-owned-by-adapters.md)).
 */
export type Document = PostRequest.OptionsDocument

/** A network that declares options, with its declaration. */
export interface Declared {
  readonly network: string
  readonly options: PostOptions.PostOptions
}

/**
 * The installed adapters' options in a post's wire forms (`PostRequest.WireShape`, which the API's schemas
 * are built from), with what core asks beside: the declarations, a network's values, a field's place.
 */
export interface PostShape extends PostRequest.WireShape {
  readonly declared: ReadonlyArray<Declared>
  /** A network's options with its defaults filled; undefined for a network that declares none. */
  readonly values: (network: string, options: Document) => Record<string, unknown> | undefined
  /** Where an option field of a network sits in a request: `<field>.2`, or `platformOptions.<network>.<field>.2`. */
  readonly requestField: (network: string, path: string) => string
}

// Every option field may be left out of a request (a field declared optional already stays as it is).
const optional = (fields: Schema.Struct.Fields): Schema.Struct.Fields =>
  Object.fromEntries(Object.entries(fields).map(([name, field]) => [
    name,
    SchemaAST.isOptional(field.ast) ? field : Schema.optionalKey(field as Schema.Top)
  ]))

const same = (left: unknown, right: unknown) => JSON.stringify(left) === JSON.stringify(right)

const platformOptionsDescription = (networks: ReadonlyArray<string>) =>
  "Options of the networks whose options are not top-level fields, one object per network key " +
  (networks.length === 0 ? "(none installed here)" : `(${networks.join(", ")})`) +
  "; its fields are the network's own, described below. A patch replaces a network's object as a whole"

/**
 * Top-level option fields that two adapters, or an adapter and the post itself, both claim; `Networks`
 * refuses to start with any.
 */
export const clashes = (adapters: ReadonlyArray<Pick<Adapter.Adapter, "network" | "options">>): ReadonlyArray<string> => {
  const seen = new Set<string>([...Object.keys(Post.Post.fields), "platformOptions"])
  const found: Array<string> = []
  for (const adapter of adapters) {
    if (adapter.options?.placement !== "top") continue
    for (const name of Object.keys(adapter.options.fields)) {
      if (seen.has(name)) found.push(`${adapter.network}: the post field "${name}" is taken`)
      seen.add(name)
    }
  }
  return found
}

/** The shape of a post given the installed adapters, in their order. */
export const make = (adapters: ReadonlyArray<Pick<Adapter.Adapter, "network" | "options">>): PostShape => {
  const declared: ReadonlyArray<Declared> = adapters.flatMap((adapter) =>
    adapter.options === undefined ? [] : [{ network: adapter.network, options: adapter.options as PostOptions.PostOptions }]
  )
  const top = declared.filter((entry) => entry.options.placement === "top")
  const nested = declared.filter((entry) => entry.options.placement === "platformOptions")
  const byNetwork = new Map(declared.map((entry) => [entry.network, entry]))
  const topField = new Map(top.flatMap((entry) => Object.keys(entry.options.fields).map((name) => [name, entry] as const)))
  const nestedNames = nested.map((entry) => entry.network)

  const requestFields: PostRequest.WireFields = {
    ...Object.assign({}, ...top.map((entry) => optional(entry.options.fields))),
    platformOptions: Schema.optionalKey(
      Schema.Struct(Object.fromEntries(nested.map((entry) => [
        entry.network,
        Schema.optionalKey(Schema.Struct(optional(entry.options.fields)).annotate({
          description: `${entry.network}: its own post options; a field left out takes its default`
        }))
      ]))).annotate({ description: platformOptionsDescription(nestedNames) })
    )
  }
  const postFields: PostRequest.WireFields = {
    ...Object.assign({}, ...top.map((entry) => ({ ...entry.options.fields, ...entry.options.derived?.fields }))),
    platformOptions: Schema.Struct(Object.fromEntries(nested.map((entry) => [
      entry.network,
      Schema.optionalKey(Schema.Struct({ ...entry.options.fields, ...entry.options.derived?.fields }).annotate({
        description: `${entry.network}: its own post options, defaults filled; present when the post has options for it`
      }))
    ]))).annotate({
      description: platformOptionsDescription(nestedNames).replace(/; its fields.*$/, "; {} when none, defaults filled")
    })
  }

  const values = (network: string, options: Document) => {
    const entry = byNetwork.get(network)
    return entry === undefined ? undefined : { ...entry.options.defaults, ...options[network] }
  }

  const split: PostShape["split"] = (payload) => {
    const neutral: Record<string, unknown> = {}
    const options: Record<string, Record<string, unknown>> = {}
    for (const [name, value] of Object.entries(payload)) {
      const entry = topField.get(name)
      if (entry !== undefined) {
        if (value !== undefined) options[entry.network] = { ...options[entry.network], [name]: value }
      } else if (name === "platformOptions") {
        for (const [network, object] of Object.entries((value ?? {}) as Record<string, Record<string, unknown>>)) {
          if (object !== undefined) options[network] = { ...object }
        }
      } else {
        neutral[name] = value
      }
    }
    return { neutral, options }
  }

  const flatten: PostShape["flatten"] = (options) => {
    const flat: Record<string, unknown> = {}
    const platformOptions: Record<string, unknown> = {}
    for (const [network, object] of Object.entries(options)) {
      if (byNetwork.get(network)?.options.placement === "top") Object.assign(flat, object)
      else platformOptions[network] = object
    }
    return Object.keys(platformOptions).length === 0 ? flat : { ...flat, platformOptions }
  }

  const show: PostShape["show"] = (post) => {
    const wire: Record<string, unknown> = {}
    for (const name of Object.keys(Post.Post.fields)) {
      if (name === "options") continue
      wire[name] = post[name as keyof Post.Post]
      if (name !== "platformContent") continue
      for (const entry of top) {
        const filled = values(entry.network, post.options)!
        for (const field of Object.keys(entry.options.fields)) wire[field] = filled[field]
        if (entry.options.derived !== undefined) Object.assign(wire, entry.options.derived.show(filled))
      }
      wire["platformOptions"] = Object.fromEntries(nested.flatMap((entry) => {
        if (post.options[entry.network] === undefined) return []
        const filled = values(entry.network, post.options)!
        return [[entry.network, { ...filled, ...entry.options.derived?.show(filled) }]]
      }))
    }
    return wire
  }

  const join: PostShape["join"] = (wire) => {
    const options: Record<string, Record<string, unknown>> = {}
    for (const entry of top) {
      const set = Object.keys(entry.options.fields).filter((field) =>
        wire[field] !== undefined && !same(wire[field], (entry.options.defaults as Record<string, unknown>)[field])
      )
      if (set.length > 0) options[entry.network] = Object.fromEntries(set.map((field) => [field, wire[field]]))
    }
    const platformOptions = (wire["platformOptions"] ?? {}) as Record<string, Record<string, unknown>>
    for (const entry of nested) {
      const object = platformOptions[entry.network]
      if (object !== undefined) {
        options[entry.network] = Object.fromEntries(Object.keys(entry.options.fields).flatMap((field) =>
          object[field] === undefined ? [] : [[field, object[field]]]
        ))
      }
    }
    return options
  }

  const requestField = (network: string, path: string) =>
    byNetwork.get(network)?.options.placement === "top" ? path : `platformOptions.${network}.${path}`

  return { declared, requestFields, postFields, split, flatten, show, join, values, requestField }
}
