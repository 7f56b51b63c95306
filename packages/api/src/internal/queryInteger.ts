import { Schema, SchemaTransformation } from "effect"

// Far more than any whole number a parameter takes has (2^31 - 1 has 10 digits), leading zeros included.
const maxDigits = 20

/** The smallest and largest whole number a query parameter takes, and what it means. */
export interface Parameter {
  readonly minimum: number
  readonly maximum: number
  readonly description: string
}

/**
 * A query parameter's text, in the OpenAPI document the integer it holds. A query string carries text, so
 * the server reads it as text (the route checks it and names the parameter in its own message), while
 * clients generated from the document send a number: `{ "type": "integer", "minimum", "maximum" }`.
 *
 * Effect describes a query parameter by its encoded side, which for any number is a string; a declaration
 * already in its canonical string form has no JSON Schema of its own, so the check below is its whole
 * description.
 */
const text = (parameter: Parameter) =>
  Schema.declare((input: unknown): input is string => typeof input === "string", {
    expected: "a whole number",
    toCodecJson: () => undefined,
    toCodecStringTree: () => undefined
  }).check(Schema.makeFilter<string>(
    // Bounded like every text a request carries (decision 0058): the route's own message quotes the value.
    (input) => input.length <= maxDigits || `is not a whole number from ${parameter.minimum} to ${parameter.maximum}`,
    { toJsonSchema: () => ({ type: "integer", minimum: parameter.minimum, maximum: parameter.maximum }) }
  )).annotate({ description: parameter.description })

/** The same parameter decoded to its number, refused (naming the parameter) when not a whole number in bounds. */
export const number = (parameter: Parameter) =>
  text(parameter).pipe(Schema.decodeTo(
    Schema.Finite.check(Schema.isInt(), Schema.isBetween({ minimum: parameter.minimum, maximum: parameter.maximum })),
    SchemaTransformation.numberFromString
  ))

/** `limit` of every paged list: 1 to 100 (20 when absent). */
export const limit = text({ minimum: 1, maximum: 100, description: "How many items to answer: 1 to 100 (20 when absent)" })
