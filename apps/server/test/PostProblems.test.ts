import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Packages from "../src/Packages.ts"
import { serverLayer } from "./harness.ts"
import * as Mcp from "./mcpClient.ts"
import { setup } from "./publishing.ts"

// A refused post's `details[].field` is the request's own field, as the client sent it (REST and MCP alike):
// the place to fix, not the name of the part of the post the network's rule is about.

const networks = new Set(["x", "youtube", "tiktok"])

layer(serverLayer({}, Packages.all.filter((entry) => networks.has(entry.network))), { excludeTestServices: true })(
  "post problems name the request's fields",
  (it) => {
    it.effect("text too long for X is content, or platformContent.x when X has its own; a follow-up is xThread.<n>", () =>
      Effect.gen(function*() {
        const { accounts, send } = yield* setup(["x"])
        const long = "a".repeat(281)
        const shared = yield* send("POST", "/posts", { content: long, accountIds: [accounts.x], draft: true })
        assert.strictEqual(shared.status, 400, shared.text)
        assert.deepStrictEqual(shared.body.error.details, [{ field: "content", network: "x", message: "x: text is 281 characters; the limit is 280" }])
        const own = yield* send("POST", "/posts", { content: "short", platformContent: { x: long }, accountIds: [accounts.x], draft: true })
        assert.deepStrictEqual(own.body.error.details.map((detail: any) => detail.field), ["platformContent.x"])
        const thread = yield* send("POST", "/posts", { content: "first", xThread: ["second", long], accountIds: [accounts.x], draft: true })
        assert.deepStrictEqual(thread.body.error.details.map((detail: any) => detail.field), ["xThread.1"])
      }))

    it.effect("40,000 account ids or media ids are refused naming the field, before any work on them", () =>
      Effect.gen(function*() {
        const { accounts, send } = yield* setup(["x"])
        // Issue 28: they answered 500 (the database's bind-parameter limit), after a quadratic repeat check.
        const many = Array.from({ length: 40_000 }, (_, index) => `acc_${index}`)
        const refused = yield* send("POST", "/posts", { content: "hi", accountIds: many, draft: true })
        assert.strictEqual(refused.status, 400, refused.text.slice(0, 300))
        assert.deepStrictEqual(refused.body.error.details.map((detail: any) => detail.field), ["accountIds"])
        assert.include(refused.body.error.message, "at most 100 accounts")
        const media = yield* send("POST", "/posts", { content: "hi", accountIds: [accounts.x], mediaIds: many, draft: true })
        assert.strictEqual(media.status, 400, media.text.slice(0, 300))
        assert.deepStrictEqual(media.body.error.details.map((detail: any) => detail.field), ["mediaIds"])
      }))

    it.effect("too many media for X is mediaIds; a YouTube title too long is youtubeTitle", () =>
      Effect.gen(function*() {
        const { accounts, send, uploadVideo } = yield* setup(["x", "youtube"])
        const videos = [yield* uploadVideo, yield* uploadVideo]
        const many = yield* send("POST", "/posts", { content: "two videos", mediaIds: videos, accountIds: [accounts.x], draft: true })
        assert.strictEqual(many.status, 400, many.text)
        assert.deepStrictEqual(many.body.error.details.map((detail: any) => [detail.network, detail.field]), [["x", "mediaIds"]])
        const title = yield* send("POST", "/posts", {
          content: "a video",
          mediaIds: [videos[0]],
          youtubeTitle: "t".repeat(101),
          accountIds: [accounts.youtube],
          draft: true
        })
        assert.strictEqual(title.status, 400, title.text)
        assert.deepStrictEqual(title.body.error.details.map((detail: any) => [detail.network, detail.field]), [["youtube", "youtubeTitle"]])
      }))

    it.effect("branded TikTok content that is private is tiktok.privacy", () =>
      Effect.gen(function*() {
        const { accounts, send, uploadVideo } = yield* setup(["tiktok"])
        const answer = yield* send("POST", "/posts", {
          content: "ad",
          mediaIds: [yield* uploadVideo],
          tiktok: { privacy: "SELF_ONLY", brandedContent: true },
          accountIds: [accounts.tiktok],
          draft: true
        })
        assert.strictEqual(answer.status, 400, answer.text)
        assert.deepStrictEqual(answer.body.error.details.map((detail: any) => detail.field), ["tiktok.privacy"])
      }))

    it.effect("an unknown field is named, as not a field of this request", () =>
      Effect.gen(function*() {
        const { accounts, send } = yield* setup(["x"])
        const answer = yield* send("POST", "/posts", { contnet: "typo", accountIds: [accounts.x], draft: true })
        assert.strictEqual(answer.status, 400, answer.text)
        assert.strictEqual(answer.body.error.code, "invalid")
        assert.include(answer.body.error.message, `Unknown field "contnet": not a field of this request`)
        assert.deepStrictEqual(answer.body.error.details, [{ field: "contnet", message: `Unknown field "contnet": not a field of this request` }])
      }))

    it.effect("create_post over MCP names the same fields", () =>
      Effect.gen(function*() {
        const { accounts, base, key } = yield* setup(["x"])
        const client = yield* Mcp.connect(base, key.key)
        const call = (args: Record<string, unknown>) =>
          Effect.map(
            Mcp.call(client, "create_post", args),
            (result) => {
              assert.isTrue(result.isError, JSON.stringify(result))
              return JSON.parse((result.content[0] as { text: string }).text).error
            }
          )
        const tooLong = yield* call({ content: "a".repeat(281), accountIds: [accounts.x], draft: true })
        assert.deepStrictEqual(tooLong.details.map((detail: any) => detail.field), ["content"])
        const unknown = yield* call({ content: "hi", contnet: "typo", accountIds: [accounts.x], draft: true })
        assert.deepStrictEqual(unknown.details, [{ field: "contnet", message: `Unknown field "contnet": not a field of this request` }])
      }).pipe(Effect.scoped))
  }
)
