import { type Schema, SchemaIssue } from "effect"
import { Bounded, SafeText } from "@herald/domain"

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
 * The most problems a refusal lists; the rest are counted. A 1 MiB body of a list of wrong items would
 * otherwise be answered with one problem per item, many times its size (issue 28).
 */
export const maxListed = 20

// A problem's message may quote what was sent ("Expected string, got [...]"), and its field a key the client
// chose: both are cut, so a refusal never echoes a large value back.
const maxMessage = 300
const maxSegment = 100

const fieldOf = (segments: ReadonlyArray<string | number>) =>
  segments.map((segment) => Bounded.shortened(String(segment), maxSegment)).join(".")

const listed = (problems: ReadonlyArray<string>) =>
  problems.length <= maxListed
    ? problems.join("; ")
    : `${problems.slice(0, maxListed).join("; ")}; and ${(problems.length - maxListed).toLocaleString("en-US")} more`

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
      : fieldOf(issue.path.map((segment) => typeof segment === "object" ? String(segment.key) : String(segment)))
    return issue.message === unknownField
      ? { field, message: `Unknown field "${field}": not a field of this request`, unknown: true }
      : { field, message: Bounded.shortened(issue.message, maxMessage), unknown: false }
  })
  if (kind === "Payload" && problems.some((problem) => /JSON/.test(problem.message))) {
    return {
      message: "The request body is not valid JSON",
      details: [{ field: "body", message: "not valid JSON" }]
    }
  }
  // An unknown field's message names it already.
  const sentences = problems.map((problem) => problem.unknown ? problem.message : `${problem.field}: ${problem.message}`)
  return {
    message: `Invalid ${where[kind]}: ${listed(sentences)}`,
    details: problems.slice(0, maxListed).map(({ field, message }) => ({ field, message }))
  }
}

/** Text that breaks Herald's text rule (SafeText), in the same words and shape as a schema problem. */
export const formatTextProblem = (
  kind: keyof typeof where,
  found: SafeText.Found
): { readonly message: string; readonly details: ReadonlyArray<Problem> } => {
  const field = found.path.length === 0 ? where[kind] : fieldOf(found.path)
  const subject = found.path.length === 0 ? "" : `${field}: `
  return { message: `Invalid ${where[kind]}: ${subject}${found.problem}`, details: [{ field, message: found.problem }] }
}
