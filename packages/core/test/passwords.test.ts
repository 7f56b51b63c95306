import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Passwords from "../src/internal/passwords.ts"

describe("passwords", () => {
  // scrypt shares libuv's four threads with media and DNS: 16 wrong passwords at once made a media download take
  // 21 s (issue 28). Two are checked at once, eight wait, and any more are refused at once.
  it.live("checks two passwords at a time with eight waiting, and answers busy for any more at once", () =>
    Effect.gen(function*() {
      const stored = yield* Passwords.hash("the right password")
      const outcomes = yield* Effect.all(
        Array.from({ length: 20 }, (_, index) => Passwords.verify(index === 0 ? "the right password" : `wrong ${index}`, stored)),
        { concurrency: "unbounded" }
      )
      assert.strictEqual(outcomes.filter((outcome) => outcome === "busy").length, 10)
      assert.strictEqual(outcomes[0], true)
      assert.strictEqual(outcomes.filter((outcome) => outcome === false).length, 9)
      // Once they are done, checking goes on as before.
      assert.isTrue(yield* Passwords.verify("the right password", stored))
    }))
})
