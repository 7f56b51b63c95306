import type { Network } from "../accounts/connect.ts"
import type { Post } from "./postQuery.ts"

// A network's own post options as GET /api/v1/networks publishes them, read the same way for every network:
// where they sit in a post (top-level fields, or platformOptions.<network>), their JSON Schema and defaults.
type Declared = NonNullable<Network["options"]>

const same = (left: unknown, right: unknown) => JSON.stringify(left) === JSON.stringify(right)

/** The option fields a network declares, by name, with their JSON Schema. */
export const fieldsOf = (declared: Declared): ReadonlyArray<readonly [string, { readonly description?: string }]> =>
  Object.entries((declared.schema as { readonly properties?: Record<string, { readonly description?: string }> }).properties ?? {})

/**
 * A network's options as the post has them set, leaving out what equals the network's default (the post
 * shows every default filled in); empty when none is set or the network declares none.
 */
export const setOptions = (post: Post, network: Network): Record<string, unknown> => {
  const declared = network.options
  if (declared === null || declared === undefined) return {}
  const wire: Readonly<Record<string, unknown>> = { ...post }
  const values = declared.placement === "top"
    ? wire
    : ((wire["platformOptions"] as Readonly<Record<string, Readonly<Record<string, unknown>>>> | undefined)?.[network.key] ?? {})
  const defaults = (declared.defaults ?? {}) as Readonly<Record<string, unknown>>
  return Object.fromEntries(fieldsOf(declared).flatMap(([field]) =>
    values[field] === undefined || same(values[field], defaults[field]) ? [] : [[field, values[field]]]
  ))
}
