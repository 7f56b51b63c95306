import { assert, layer } from "@effect/vitest"
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import * as Packages from "../src/Packages.ts"
import { serverLayer } from "./harness.ts"
import { connect } from "./mcpClient.ts"
import { setup } from "./publishing.ts"

// The MCP server's resources and prompts (docs/mcp.md, "Prompts and resources"), through the SDK's client:
// each resource is the REST API's body for the same thing, each prompt names only tools the server has.

const networks = new Set(["x", "bluesky"])

/** The JSON-RPC error code a promise was rejected with. */
const rejection = <A>(promise: () => Promise<A>) =>
  Effect.promise(() => promise().then(() => undefined, (error: { code?: number; message: string }) => error))

layer(serverLayer({}, Packages.all.filter((entry) => networks.has(entry.network))), { excludeTestServices: true })(
  "mcp prompts and resources",
  (it) => {
    it.effect("lists the resources, and reads the networks and the queue's schedule as REST answers them", () =>
      Effect.scoped(Effect.gen(function*() {
        const { base, key, send } = yield* setup(["x"])
        const client = yield* connect(base, key.key)
        assert.deepInclude(client.getServerCapabilities(), { resources: { listChanged: false }, prompts: { listChanged: false } })
        const { resources } = yield* Effect.promise(() => client.listResources())
        assert.deepStrictEqual(resources.map((resource) => resource.uri), ["herald://networks", "herald://queue/schedule"])
        for (const resource of resources) {
          assert.strictEqual(resource.mimeType, "application/json")
          assert.isAbove(resource.description?.length ?? 0, 40, resource.uri)
        }

        const read = (uri: string) =>
          Effect.map(Effect.promise(() => client.readResource({ uri })), (result) => {
            assert.lengthOf(result.contents, 1)
            const [content] = result.contents as Array<{ uri: string; mimeType: string; text: string }>
            assert.strictEqual(content!.uri, uri)
            assert.strictEqual(content!.mimeType, "application/json")
            return JSON.parse(content!.text)
          })
        const networksBody = yield* read("herald://networks")
        assert.deepStrictEqual(networksBody, (yield* send("GET", "/networks")).body)
        assert.deepStrictEqual(networksBody.data.map((network: { key: string }) => network.key).sort(), ["bluesky", "x"])
        assert.strictEqual(networksBody.data.find((network: { key: string }) => network.key === "x").limits.forms.post.text.max, 280)

        // The workspace's own schedule, read for the caller's workspace: none set, then one.
        assert.deepStrictEqual(yield* read("herald://queue/schedule"), (yield* send("GET", "/queue/schedule")).body)
        assert.deepStrictEqual((yield* read("herald://queue/schedule")).data.slots, [])
        const slots = [{ day: "mon", time: "09:00" }, { day: "wed", time: "13:30" }]
        assert.strictEqual((yield* send("PUT", "/queue/schedule", { slots })).status, 200)
        const schedule = yield* read("herald://queue/schedule")
        assert.deepStrictEqual(schedule, (yield* send("GET", "/queue/schedule")).body)
        assert.deepStrictEqual(schedule.data.slots, slots)
        assert.strictEqual(schedule.data.timeZone, "UTC")

        const unknown = yield* rejection(() => client.readResource({ uri: "herald://nothing" }))
        assert.strictEqual(unknown?.code, -32002)
        assert.include(unknown?.message, "herald://networks, herald://queue/schedule")
      })))

    it.effect("another workspace's key reads its own schedule", () =>
      Effect.scoped(Effect.gen(function*() {
        const first = yield* setup([])
        const second = yield* setup([])
        assert.strictEqual((yield* first.send("PUT", "/queue/schedule", { slots: [{ day: "fri", time: "08:00" }] })).status, 200)
        const client = yield* connect(second.base, second.key.key)
        const result = yield* Effect.promise(() => client.readResource({ uri: "herald://queue/schedule" }))
        assert.deepStrictEqual(JSON.parse((result.contents[0] as { text: string }).text).data.slots, [])
      })))

    it.effect("plan_week tells the assistant the tools to use, in order, with the topic and the accounts", () =>
      Effect.scoped(Effect.gen(function*() {
        const { base, key } = yield* setup([])
        const client = yield* connect(base, key.key)
        const { prompts } = yield* Effect.promise(() => client.listPrompts())
        const { tools } = yield* Effect.promise(() => client.listTools())
        const toolNames = new Set(tools.map((tool) => tool.name))
        const plan = prompts.find((prompt) => prompt.name === "plan_week")!
        assert.strictEqual(plan.title, "Plan a week of posts")
        assert.deepStrictEqual(plan.arguments?.map(({ name, required }) => ({ name, required })), [
          { name: "topic", required: true },
          { name: "accounts", required: false }
        ])
        // A prompt is listed only when the tools it sends the assistant to are there.
        assert.strictEqual(prompts.some((prompt) => prompt.name === "answer_inbox"), ["list_inbox", "reply_to_comment", "send_message"].every((tool) => toolNames.has(tool)))

        const withAccounts = yield* Effect.promise(() =>
          client.getPrompt({ name: "plan_week", arguments: { topic: "Spring gardening", accounts: "@gardens, acc_123" } })
        )
        assert.lengthOf(withAccounts.messages, 1)
        assert.strictEqual(withAccounts.messages[0]!.role, "user")
        const text = (withAccounts.messages[0]!.content as { type: string; text: string }).text
        assert.include(text, "Spring gardening")
        assert.include(text, "@gardens, acc_123")
        const order = ["list_accounts", "get_queue", "validate_post", "create_post"].map((tool) => text.search(new RegExp(`[Cc]all ${tool}`)))
        assert.isTrue(order.every((at, index) => at >= 0 && (index === 0 || at > order[index - 1]!)), `tools in order: ${order}`)
        for (const words of ["queued: true", "scheduledAt", "idempotencyKey", "herald://networks", "herald://queue/schedule"]) {
          assert.include(text, words)
        }
        for (const tool of text.match(/\b[a-z]+_[a-z_]+\b/g) ?? []) {
          assert.isTrue(toolNames.has(tool), `${tool} is a tool`)
        }

        const everyAccount = yield* Effect.promise(() => client.getPrompt({ name: "plan_week", arguments: { topic: "Launch" } }))
        const everyText = (everyAccount.messages[0]!.content as { text: string }).text
        assert.include(everyText, "every account whose status is connected")
        assert.notInclude(everyText, "these accounts")
      })))

    it.effect("a prompt without its required argument, or with an unknown name, is invalid params naming it", () =>
      Effect.scoped(Effect.gen(function*() {
        const { base, key } = yield* setup([])
        const client = yield* connect(base, key.key)
        const missing = yield* rejection(() => client.getPrompt({ name: "plan_week", arguments: { accounts: "acc_1" } }))
        assert.strictEqual(missing?.code, ErrorCode.InvalidParams)
        assert.include(missing?.message, "plan_week needs topic")
        const unknown = yield* rejection(() => client.getPrompt({ name: "plan_month", arguments: {} }))
        assert.strictEqual(unknown?.code, ErrorCode.InvalidParams)
        assert.include(unknown?.message, "No prompt is named plan_month")
      })))
  }
)
