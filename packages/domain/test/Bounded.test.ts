import { assert, describe, it } from "@effect/vitest"
import { Schema, SchemaIssue } from "effect"
import * as Bounded from "../src/Bounded.ts"

// The size caps of request fields (decision 0058): published as JSON Schema keywords, checked before any
// other check of the value, refused in words that do not quote it.

const messages = <S extends Schema.Top>(schema: S, input: unknown) => {
  const result = Schema.decodeUnknownExit(schema as unknown as Schema.Codec<unknown, unknown>)(input, { errors: "all" })
  assert.strictEqual(result._tag, "Failure")
  const error = (result as any).cause.reasons[0].error as Schema.SchemaError
  return SchemaIssue.makeFormatterStandardSchemaV1()(error.issue).issues.map((issue) => ({
    path: issue.path?.map(String).join("."),
    message: issue.message
  }))
}

describe("Bounded", () => {
  it("publishes each cap as maxLength, maxItems and maxProperties, with the field's own description", () => {
    const document = Schema.toJsonSchemaDocument(Schema.Struct({
      text: Bounded.Text.annotate({ description: "The text" }),
      ids: Bounded.array(Bounded.Id, 100, "accounts"),
      map: Bounded.record(Bounded.Word, Bounded.Text, 50)
      // As the OpenAPI document and the MCP tools render requests: a map's key schema then shows.
    }), { onExcessProperty: "error" })
    const properties = document.schema.properties as Record<string, any>
    assert.deepStrictEqual(properties.text, { type: "string", maxLength: 100_000, description: "The text" })
    assert.deepStrictEqual(properties.ids, { type: "array", items: { type: "string", maxLength: 64 }, maxItems: 100 })
    assert.strictEqual(properties.map.maxProperties, 50)
    assert.strictEqual(properties.map.propertyNames.maxLength, 64)
    assert.strictEqual(properties.map.additionalProperties.maxLength, 100_000)
  })

  it("checks the length first: a pattern after it never sees an over-long value", () => {
    let tested = 0
    const code = Bounded.Word.check(Schema.makeFilter<string>((text) => {
      tested++
      return /^[a-z]{2}$/.test(text)
    }))
    assert.deepStrictEqual(messages(code, "x".repeat(1_000_000)), [{ path: "", message: "is longer than 64 characters" }])
    assert.strictEqual(tested, 0)
    assert.strictEqual(messages(code, "xyz").length, 1)
    assert.strictEqual(tested, 1)
  })

  it("names the list's items and the count in a refusal that does not quote the value", () => {
    const problems = messages(Schema.Struct({ accountIds: Bounded.array(Bounded.Id, 100, "accounts") }), {
      accountIds: Array.from({ length: 10_000 }, (_, index) => `acc_${index}`)
    })
    assert.deepStrictEqual(problems, [{ path: "accountIds", message: "may list at most 100 accounts" }])
    assert.deepStrictEqual(messages(Bounded.Text, "a".repeat(100_001)), [{ path: "", message: "is longer than 100,000 characters" }])
  })

  it("quotes a value cut short, never between the halves of a surrogate pair", () => {
    assert.strictEqual(Bounded.quoted("short"), `"short"`)
    assert.strictEqual(Bounded.quoted("a".repeat(100)), JSON.stringify(`${"a".repeat(80)}…`))
    const cut = Bounded.shortened(`${"a".repeat(79)}😀😀`, 80)
    assert.strictEqual(cut, `${"a".repeat(79)}…`)
    assert.isTrue(cut.isWellFormed())
  })
})
