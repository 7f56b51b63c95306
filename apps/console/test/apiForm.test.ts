import { assert, describe, it } from "@effect/vitest"
import { ApiError } from "../src/api/ApiError.ts"
import { apiForm } from "../src/components/apiForm.ts"

// The piece every console form is built on: submitting sends the request without a page load, and each
// field shows the API's own words about it (error `details`, by field name or its `body.` path).
describe("a console form", () => {
  const refused = new ApiError(422, "validation_failed", "The request is invalid", [
    { field: "body.email", message: "Must be an e-mail address" },
    { field: "password", message: "At least 10 characters" }
  ])
  const request = (error: unknown) => {
    const sent: Array<string> = []
    return { sent, mutate: () => sent.push("sent"), error }
  }

  it("sends its request on submit, instead of the browser loading a page", () => {
    const fake = request(null)
    const prevented: Array<string> = []
    apiForm(fake).onSubmit({ preventDefault: () => prevented.push("prevented") } as any)
    assert.deepStrictEqual(prevented, ["prevented"])
    assert.deepStrictEqual(fake.sent, ["sent"])
  })

  it("shows beside each field the API's message about it, and nothing where the API said nothing", () => {
    const form = apiForm(request(refused))
    assert.strictEqual(form.field("email", "kim", () => undefined).error, "Must be an e-mail address")
    assert.strictEqual(form.field("password", "short", () => undefined).error, "At least 10 characters")
    assert.isUndefined(form.field("name", "Kim", () => undefined).error)
    assert.strictEqual(form.about("password"), "At least 10 characters")
    // An error that is not the API's (the network failed) names no field.
    assert.isUndefined(apiForm(request(new Error("offline"))).about("email"))
    assert.isUndefined(apiForm(request(null)).about("email"))
  })

  it("binds a field to its state: the value shown, and what is typed handed to the setter", () => {
    const typed: Array<string> = []
    const field = apiForm(request(null)).field("email", "kim@", (value) => typed.push(value))
    assert.strictEqual(field.value, "kim@")
    field.onChange({ currentTarget: { value: "kim@demo.example" } })
    assert.deepStrictEqual(typed, ["kim@demo.example"])
  })
})
