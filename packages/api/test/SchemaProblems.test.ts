import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import * as SchemaProblems from "../src/SchemaProblems.ts"

// Problems with a request's shape, as the client reads them in `message` and `details`.

const Body = Schema.Struct({
  content: Schema.String,
  tiktok: Schema.optionalKey(Schema.Struct({ privacy: Schema.String })),
  accountIds: Schema.optionalKey(Schema.Array(Schema.String))
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

  // Issue 28: a refusal never echoes what was sent, however much of it, nor lists a problem per item of a huge list.
  it("does not echo a huge value of the wrong type, nor a huge unknown field's name", () => {
    const wrongType = problemsOf({ content: ["a".repeat(100_000)] })
    assert.deepStrictEqual(wrongType.details.map((problem) => problem.field), ["content"])
    assert.isBelow(wrongType.message.length, 1_000)
    assert.isBelow(JSON.stringify(wrongType.details).length, 1_000)
    const name = "b".repeat(100_000)
    const unknown = problemsOf({ content: "Hello", [name]: 1 })
    assert.isBelow(JSON.stringify(unknown).length, 1_000)
    assert.isTrue(unknown.details[0]!.field.startsWith("bbbb"))
  })

  it("lists the first problems of a huge list, and says how many more there are", () => {
    const { details, message } = problemsOf({ content: "Hello", accountIds: Array(10_000).fill(1) })
    assert.strictEqual(details.length, SchemaProblems.maxListed)
    assert.deepStrictEqual(details[0], { field: "accountIds.0", message: "Expected string" })
    assert.include(message, `and ${(10_000 - SchemaProblems.maxListed).toLocaleString("en-US")} more`)
    assert.isBelow(message.length, 2_000)
  })
})
