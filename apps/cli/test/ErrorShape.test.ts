import { assert, describe, it } from "@effect/vitest"
import { ErrorShape, Media, Posts, Settings } from "@herald/core"
import * as Failures from "../src/Failures.ts"

// The CLI's failure line for a domain error has the code and message REST and MCP answer for it (ErrorShape;
// the REST and MCP side is apps/server/test/ErrorShape.test.ts).

describe("a domain error on the command line", () => {
  it("has the code and message ErrorShape gives it", () => {
    const errors = [
      new Posts.PostNotFound({ postId: "pst_0000000000000000000000" }),
      new Posts.PostConflict({ message: "Post pst_1 is published; only partial or failed posts can be retried" }),
      new Media.MediaTooLarge({ kind: "image", limit: 10 }),
      new Settings.InvalidSetting({ name: "PORT", value: "x", expected: "a port number" })
    ]
    for (const error of errors) {
      const { code, message } = ErrorShape.of(error)
      assert.deepStrictEqual(Failures.describe(error), { code, message }, error._tag)
    }
    assert.strictEqual(Failures.describe(new Posts.PostNotFound({ postId: "pst_1" })).code, "not_found")
  })

  it("an error that is not a domain error's keeps the CLI's own code, or internal", () => {
    assert.strictEqual(Failures.describe({ _tag: "DataDirBusy", message: "The data folder is in use" }).code, "conflict")
    assert.strictEqual(Failures.describe({ _tag: "Surprise", message: "boom" }).code, "internal")
  })
})
