import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import * as SchemaProblems from "../src/SchemaProblems.ts"

// Problems with a request's shape, as the client reads them in `message` and `details`.

const Body = Schema.Struct({
  content: Schema.String,
  tiktok: Schema.optionalKey(Schema.Struct({ privacy: Schema.String }))
})

const problemsOf = (input: unknown) => {
  const result = Schema.decodeUnknownExit(Body)(input, { onExcessProperty: "error", errors: "all" })
  assert.isTrue(result._tag === "Failure")
  const error = (result as any).cause.reasons[0].error as Schema.SchemaError
  return SchemaProblems.formatSchemaError("Payload", error)
}

describe("SchemaProblems", () => {
  it("names an unknown field, and says it is not a field of this request", () => {
    const { details, message } = problemsOf({ content: "Hello", contnet: "Hello" })
    assert.deepStrictEqual(details, [{ field: "contnet", message: `Unknown field "contnet": not a field of this request` }])
    assert.strictEqual(message, `Invalid body: Unknown field "contnet": not a field of this request`)
  })

  it("names an unknown field inside an object by its path", () => {
    const { details } = problemsOf({ content: "Hello", tiktok: { privacy: "SELF_ONLY", duet: true } })
    assert.deepStrictEqual(details, [{ field: "tiktok.duet", message: `Unknown field "tiktok.duet": not a field of this request` }])
  })

  it("keeps naming the field of a value of the wrong type", () => {
    const { details } = problemsOf({ content: 3 })
    assert.deepStrictEqual(details.map((problem) => problem.field), ["content"])
  })
})
