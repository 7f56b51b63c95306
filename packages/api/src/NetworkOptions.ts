import { Schema } from "effect"
import type { PostOptions } from "@herald/adapter-kit"

/**
 * A network's own post options as `GET /api/v1/networks` publishes them: where they sit in a post request
 * and the JSON Schema of their fields, generated from the adapter's declaration by the same generator as
 * the OpenAPI document, so a client renders a form for a network it has never heard of.
 */
export class NetworkOptions extends Schema.Class<NetworkOptions>("NetworkOptions")({
  placement: Schema.Literals(["top", "platformOptions"]).annotate({
    description: "top: each field is a top-level field of a post request (and of the post); platformOptions: the fields " +
      "form the object platformOptions.<network key>"
  }),
  schema: Schema.Record(Schema.String, Schema.Unknown).annotate({
    description: "JSON Schema (draft 2020-12) of the fields as one object: each property's type, description, default, " +
      "enum and array items; every field may be left out (it takes its default)"
  }),
  defaults: Schema.Record(Schema.String, Schema.Unknown).annotate({
    description: "The value each field takes when a request leaves it out"
  }),
  mediaFields: Schema.Array(Schema.String).annotate({
    description: "Fields whose value is the id of an uploaded media item (a thumbnail), or null"
  })
}) {}

/** The published form of an adapter's options; null for a network that declares none. */
export const fromDeclaration = (options: PostOptions.PostOptions | undefined): NetworkOptions | null => {
  if (options === undefined) return null
  const document = Schema.toJsonSchemaDocument(Schema.Struct(options.fields), { onExcessProperty: "error" })
  const schema: Record<string, unknown> = { ...document.schema }
  if (Object.keys(document.definitions).length > 0) schema["$defs"] = document.definitions
  const defaults = options.defaults as Record<string, unknown>
  const properties = (schema["properties"] ?? {}) as Record<string, Record<string, unknown>>
  // The defaults are the adapter's, not the schemas': each field shows the value it takes when left out.
  schema["properties"] = Object.fromEntries(Object.entries(properties).map(([name, property]) =>
    [name, name in defaults ? { ...property, default: defaults[name] } : property]
  ))
  // In a request every field is optional, whatever its schema says of the full post.
  delete schema["required"]
  return new NetworkOptions({ placement: options.placement, schema, defaults, mediaFields: [...(options.mediaFields ?? [])] })
}
