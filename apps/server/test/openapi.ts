// The operations of Herald's served OpenAPI document, as the input tests and the fuzz run walk them.

export interface Parameter {
  readonly name: string
  readonly in: "path" | "query" | "header"
  readonly required: boolean
  readonly schema: JsonSchema
}

export type JsonSchema = { readonly [key: string]: any }

export interface Operation {
  readonly method: string
  /** The path as the document has it, parameters as `{name}`. */
  readonly path: string
  readonly parameters: ReadonlyArray<Parameter>
  /** The content types the request body may have; none when the operation takes no body. */
  readonly bodyTypes: ReadonlyArray<string>
  /** The JSON or form body's schema, `$ref`s resolved at its top. */
  readonly bodySchema: JsonSchema | undefined
  /** The body's top-level fields. */
  readonly bodyFields: ReadonlyArray<string>
}

/** A schema with a `$ref` to the document's components replaced by what it points at. */
export const resolve = (document: JsonSchema, schema: JsonSchema | undefined): JsonSchema | undefined => {
  if (schema === undefined || typeof schema.$ref !== "string") return schema
  const target = schema.$ref.replace(/^#\//, "").split("/").reduce((node: any, segment: string) => node?.[segment], document)
  return resolve(document, target)
}

export const operations = (document: JsonSchema): ReadonlyArray<Operation> =>
  Object.entries(document.paths as Record<string, Record<string, JsonSchema>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]): Operation => {
      const content: Record<string, JsonSchema> = operation.requestBody?.content ?? {}
      const bodyTypes = Object.keys(content)
      const structured = content["application/json"] ?? content["application/x-www-form-urlencoded"]
      const bodySchema = resolve(document, structured?.schema)
      return {
        method: method.toUpperCase(),
        path,
        parameters: (operation.parameters ?? []).map((parameter: JsonSchema) => ({
          name: parameter.name,
          in: parameter.in,
          required: parameter.required === true,
          schema: resolve(document, parameter.schema) ?? {}
        })),
        bodyTypes,
        bodySchema,
        bodyFields: Object.keys(bodySchema?.properties ?? {})
      }
    })
  )
