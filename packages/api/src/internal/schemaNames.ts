// Effect names the JSON side of a schema class `<Name>Encoded` (`PostEncoded`): true to the code, noise to a
// reader of the docs page or a generated client, who only ever sees the JSON. The document names each
// schema as the API does (`Post`), and keeps the suffix only where the plain name is taken.

const prefix = "#/components/schemas/"

const rewrite = (node: unknown, renamed: ReadonlyMap<string, string>): unknown => {
  if (Array.isArray(node)) return node.map((item) => rewrite(item, renamed))
  if (node === null || typeof node !== "object") return node
  return Object.fromEntries(Object.entries(node).map(([key, value]) =>
    key === "$ref" && typeof value === "string" && value.startsWith(prefix)
      ? [key, prefix + (renamed.get(value.slice(prefix.length)) ?? value.slice(prefix.length))]
      : [key, rewrite(value, renamed)]
  ))
}

const objectOf = (node: unknown): Record<string, unknown> =>
  node !== null && typeof node === "object" && !Array.isArray(node) ? node as Record<string, unknown> : {}

/** The document with `…Encoded` schema names (component keys and every `$ref`) without the suffix. */
export const plain = (document: Record<string, unknown>): Record<string, unknown> => {
  const names = Object.keys(objectOf(objectOf(document["components"])["schemas"]))
  const taken = new Set(names)
  const renamed = new Map(names.flatMap((name) => {
    const plainName = name.replace(/Encoded$/, "")
    return plainName !== name && !taken.has(plainName) ? [[name, plainName] as const] : []
  }))
  const rewritten = objectOf(rewrite(document, renamed))
  const components = objectOf(rewritten["components"])
  components["schemas"] = Object.fromEntries(
    Object.entries(objectOf(components["schemas"])).map(([name, schema]) => [renamed.get(name) ?? name, schema])
  )
  return rewritten
}
