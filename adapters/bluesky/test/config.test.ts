import { assert, describe, it } from "@effect/vitest"
import { Redacted } from "effect"
import { BlueskyConfig } from "../src/index.ts"

describe("Bluesky config", () => {
  it("is offered outside the sandbox with no client id or secret: accounts bring their own app password", () => {
    assert.isTrue(BlueskyConfig.offered({ clientId: undefined, clientSecret: undefined }))
  })

  it("calls the bsky.social entryway and links posts on bsky.app", () => {
    const config = BlueskyConfig.realConfig("", Redacted.make(""))
    assert.deepStrictEqual([config.apiBaseUrl, config.webBaseUrl], ["https://bsky.social", "https://bsky.app"])
  })
})
