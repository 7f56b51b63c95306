import { type Schema, SchemaIssue } from "effect"

const where = {
  Params: "path",
  Headers: "headers",
  Query: "query",
  Payload: "body",
  Body: "response body",
  ResponseHeaders: "response headers",
  // An MCP tool's arguments.
  Arguments: "arguments"
} as const

const standard = SchemaIssue.makeFormatterStandardSchemaV1()

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
  const problems = standard(error.issue).issues.map((issue): Problem => ({
    field: issue.path === undefined || issue.path.length === 0
      ? where[kind]
      : issue.path.map((segment) => typeof segment === "object" ? String(segment.key) : String(segment)).join("."),
    message: issue.message
  }))
  if (kind === "Payload" && problems.some((problem) => /JSON/.test(problem.message))) {
    return {
      message: "The request body is not valid JSON",
      details: [{ field: "body", message: "not valid JSON" }]
    }
  }
  const listed = problems.map((problem) => `${problem.field}: ${problem.message}`).join("; ")
  return { message: `Invalid ${where[kind]}: ${listed}`, details: problems }
}
