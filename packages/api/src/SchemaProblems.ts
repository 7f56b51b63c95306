import { type Schema, SchemaIssue } from "effect"
import { SafeText } from "@herald/domain"

const where = {
  Params: "path",
  Headers: "headers",
  Query: "query",
  Payload: "body",
  Body: "response body",
  ResponseHeaders: "response headers",
  // An MCP tool's arguments.
  Arguments: "arguments",
  // An MCP tools/call's params (the tool's name and its arguments).
  CallParams: "params"
} as const

// A field the request does not have (request schemas are strict) is told apart by its issue, not its words.
const unknownField = "(unknown field)"

const standard = SchemaIssue.makeFormatterStandardSchemaV1({
  leafHook: (issue) => issue._tag === "UnexpectedKey" ? unknownField : SchemaIssue.defaultLeafHook(issue)
})

export interface Problem {
  readonly field: string
  readonly message: string
}

/**
 * Input that did not match an endpoint's schema, as one sentence a person can act on (every problem, each
 * with the field it is about) and the same problems as data for `details`.
 */
export const formatSchemaError = (
  kind: keyof typeof where,
  error: Schema.SchemaError
): { readonly message: string; readonly details: ReadonlyArray<Problem> } => {
  const problems = standard(error.issue).issues.map((issue): Problem & { readonly unknown: boolean } => {
    const field = issue.path === undefined || issue.path.length === 0
      ? where[kind]
      : issue.path.map((segment) => typeof segment === "object" ? String(segment.key) : String(segment)).join(".")
    return issue.message === unknownField
      ? { field, message: `Unknown field "${field}": not a field of this request`, unknown: true }
      : { field, message: issue.message, unknown: false }
  })
  if (kind === "Payload" && problems.some((problem) => /JSON/.test(problem.message))) {
    return {
      message: "The request body is not valid JSON",
      details: [{ field: "body", message: "not valid JSON" }]
    }
  }
  // An unknown field's message names it already.
  const listed = problems.map((problem) => problem.unknown ? problem.message : `${problem.field}: ${problem.message}`).join("; ")
  return { message: `Invalid ${where[kind]}: ${listed}`, details: problems.map(({ field, message }) => ({ field, message })) }
}

/** Text that breaks Herald's text rule (SafeText), in the same words and shape as a schema problem. */
export const formatTextProblem = (
  kind: keyof typeof where,
  found: SafeText.Found
): { readonly message: string; readonly details: ReadonlyArray<Problem> } => {
  const field = found.path.length === 0 ? where[kind] : found.path.join(".")
  const subject = found.path.length === 0 ? "" : `${field}: `
  return { message: `Invalid ${where[kind]}: ${subject}${found.problem}`, details: [{ field, message: found.problem }] }
}
