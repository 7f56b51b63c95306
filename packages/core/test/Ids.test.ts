import { assert, describe, it } from "@effect/vitest"
import { randomBytes } from "node:crypto"
import { base62, base62Of16, makeId } from "../src/internal/random.ts"

// Ids are made on every create, event and delivery: the fast base62 must give exactly the digits the
// BigInt one gave, so ids keep their length and their order by time.
describe("ids", () => {
  it("base62Of16 is base62(bytes, 22) for the extremes and 20,000 random byte strings", () => {
    const cases = [new Uint8Array(16), new Uint8Array(16).fill(255), Uint8Array.from({ length: 16 }, (_, index) => index)]
    for (let index = 0; index < 20_000; index++) cases.push(new Uint8Array(randomBytes(16)))
    for (const bytes of cases) assert.strictEqual(base62Of16(bytes), base62(bytes, 22))
  })

  it("makeId: the prefix and 22 base62 characters, ordered by time, 100,000 all different", () => {
    const seen = new Set<string>()
    let last = ""
    for (let index = 0; index < 100_000; index++) {
      const id = makeId("pst", 1_764_000_000_000 + index)
      assert.match(id, /^pst_[0-9A-Za-z]{22}$/)
      assert.isTrue(id > last, `${id} after ${last}`)
      seen.add(id)
      last = id
    }
    assert.strictEqual(seen.size, 100_000)
  })
})
