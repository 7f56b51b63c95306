import { assert, describe, it } from "@effect/vitest"
import { Permissions } from "@herald/domain"
import { patience } from "../../../vitest.shared.ts"
import { herald } from "./run.ts"

// The `--role` help says what each role may do in the permission table's own words, as the console's pickers do.
describe("--role help", () => {
  it("names every role with what the permission table lets it do", { timeout: patience }, async () => {
    for (const command of [["member", "invite"], ["member", "role"]]) {
      const help = await herald([...command, "--help"])
      assert.strictEqual(help.code, 0, help.stderr)
      const line = help.stdout.split("\n").find((text) => text.includes("--role")) ?? ""
      for (const role of Permissions.roles) assert.include(line, `${role}: ${Permissions.summary(role)}`, command.join(" "))
    }
  })
})
