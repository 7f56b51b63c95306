import type { SimulatorRules } from "@herald/adapter-kit"

/**
 * What X's rules share: where in X's OpenAPI document (`XRules` names it) a rule is stated, and the checks
 * of a JSON body against its schema (listed fields, types, enums, id patterns).
 */

const spec = "xdevplatform/xdk specs/openapi.json"
export const schema = (name: string) => `${spec} #/components/schemas/${name}`
/** A JSON pointer into the document's paths: `/2/tweets` is `~12~1tweets`. */
const operation = (path: string, method: "get" | "post") => `${spec} #/paths/${path.replaceAll("/", "~1")}/${method}`
export const parameter = (path: string, method: "get" | "post", name: string) => `${operation(path, method)}/parameters (${name})`

/** X's ids (`MediaId`, `TweetId`, …): 1 to 19 digits. */
const id = /^[0-9]{1,19}$/

type Json = Readonly<Record<string, unknown>>

export const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

/** The first field of `value` its schema does not list (`additionalProperties: false`); undefined when none. */
const unlisted = (value: unknown, fields: ReadonlyArray<string>) =>
  isObject(value) ? Object.keys(value).find((key) => !fields.includes(key)) : undefined

export const onlyFields = (where: string, fields: ReadonlyArray<string>) => (value: unknown) => {
  const extra = unlisted(value, fields)
  return extra === undefined ? undefined : `${where === "" ? "" : `${where}.`}${extra} is not a known parameter.`
}

export const field = (body: unknown, ...path: ReadonlyArray<string>): unknown =>
  path.reduce<unknown>((value, key) => (isObject(value) ? value[key] : undefined), body)

export const wrongType = (name: string, value: unknown, type: "string" | "object" | "array" | "integer") => {
  if (value === undefined) return undefined
  const fits = type === "array"
    ? Array.isArray(value)
    : type === "object"
    ? isObject(value)
    : type === "integer"
    ? Number.isInteger(value)
    : typeof value === type
  return fits ? undefined : `${name} must be a${type === "integer" || type === "object" || type === "array" ? "n" : ""} ${type}.`
}

export const enumOf = (name: string, value: unknown, values: ReadonlyArray<string>) =>
  value === undefined || values.includes(value as string) ? undefined : `${name} must be one of ${values.join(", ")}.`

export const pattern = (name: string, value: unknown) =>
  value === undefined || (typeof value === "string" && id.test(value)) ? undefined : `${name} must match ^[0-9]{1,19}$.`

/** A body that is not a JSON object: each of these calls requires an `application/json` object body. */
export const jsonObject = (path: string): SimulatorRules.Rule<unknown> => ({
  rule: "a JSON object body",
  source: `${operation(path, "post")}/requestBody`,
  check: (body) => isObject(body) ? undefined : "The request body is not a JSON object."
})
