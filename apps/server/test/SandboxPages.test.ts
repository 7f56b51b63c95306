import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Packages from "../src/Packages.ts"
import { examplePackage, request, serverLayer } from "./harness.ts"
import { settled, setup } from "./publishing.ts"

// The sandbox as a newcomer meets it: the link of each published post opens a page showing the post, and
// the triggers say what they did (`#sandbox-fail` names itself; `#sandbox-fail-once` lets a manual retry
// through).

const platforms = ["x", "threads", "linkedin", "facebook", "instagram", "tiktok", "youtube", "example"]

/** What a person typed, with the characters a page must escape (YouTube refuses `<` and `>` in descriptions). */
const content = `Tea & "cake" at Bob's, 5 o'clock`
const escaped = "Tea &amp; &quot;cake&quot; at Bob&#39;s, 5 o&#39;clock"

layer(serverLayer({}, [...Packages.all, examplePackage]), { excludeTestServices: true })("sandbox pages", (it) => {
  it.effect("the link of a post published to every sandbox network opens its page; a link to nothing is a 404 page", () =>
    Effect.gen(function*() {
      const { accounts, create, get, uploadVideo } = yield* setup(platforms)
      const video = yield* uploadVideo
      const created = yield* create({
        content,
        mediaIds: [video],
        youtubeTitle: "Tea time",
        accountIds: platforms.map((platform) => accounts[platform]),
        publishNow: true
      })
      const post = yield* settled(get, created.id)
      assert.strictEqual(post.status, "published", JSON.stringify(post.targets))
      for (const target of post.targets) {
        const page = yield* request(target.url)
        assert.strictEqual(page.status, 200, `${target.platform} ${target.url}: ${page.text.slice(0, 200)}`)
        assert.match(page.headers.get("content-type") ?? "", /^text\/html/, target.platform)
        assert.include(page.text, escaped, `${target.platform} ${target.url}`)
        assert.notInclude(page.text, content, target.platform)
        // Nothing but the post's own media is loaded, and only from Herald's address.
        for (const [, address] of page.text.matchAll(/(?:src|href)="([^"]*)"/g)) {
          assert.strictEqual(new URL(address!).origin, new URL(target.url).origin, `${target.platform} loads ${address}`)
        }
      }
      const x = post.targets.find((target: any) => target.platform === "x")
      const missing = yield* request(x.url.replace(/\/status\/\d+$/, "/status/1"))
      assert.strictEqual(missing.status, 404)
      assert.match(missing.headers.get("content-type") ?? "", /^text\/html/)
    }))

  it.effect("#sandbox-fail says the sandbox refused it for that text, on every network but YouTube (whose refusals are codes)", () =>
    Effect.gen(function*() {
      const wordy = ["x", "threads", "linkedin", "facebook", "instagram", "tiktok", "example"]
      const { accounts, create, get, uploadVideo } = yield* setup(wordy)
      const video = yield* uploadVideo
      const created = yield* create({
        content: "Not this one #sandbox-fail",
        mediaIds: [video],
        accountIds: wordy.map((platform) => accounts[platform]),
        publishNow: true
      })
      const post = yield* settled(get, created.id)
      assert.strictEqual(post.status, "failed")
      for (const target of post.targets) {
        assert.include(target.error, "The sandbox refused this because its text contains #sandbox-fail.", target.platform)
        assert.notInclude(target.error, "duplicate", target.platform)
      }
    }))

  it.effect("#sandbox-fail-once fails the target the first time; the post's retry publishes it", () =>
    Effect.gen(function*() {
      const { accounts, create, get, send } = yield* setup(["x", "linkedin"])
      const created = yield* create({
        content: "Second time lucky #sandbox-fail-once",
        accountIds: [accounts.x, accounts.linkedin],
        publishNow: true
      })
      const failed = yield* settled(get, created.id)
      assert.strictEqual(failed.status, "failed", JSON.stringify(failed.targets))
      for (const target of failed.targets) assert.include(target.error, "#sandbox-fail-once", target.platform)

      const retried = yield* send("POST", `/posts/${created.id}/retry`)
      assert.strictEqual(retried.status, 200, retried.text)
      const again = yield* settled(get, created.id)
      assert.strictEqual(again.status, "published", JSON.stringify(again.targets))
      for (const target of again.targets) {
        assert.strictEqual(target.status, "published")
        assert.strictEqual((yield* request(target.url)).status, 200, target.url)
      }
    }))
})
