import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import * as Packages from "../src/Packages.ts"
import { baseUrl, bearer, fastTuning, request, serverLayer, workspaceWithKey } from "./harness.ts"
import { call, connect } from "./mcpClient.ts"
import { settled, simulated } from "./publishing.ts"

// The options of a network whose adapter puts them under `platformOptions` (Bluesky's thread): set, shown
// with defaults filled, replaced by a patch, refused when unknown or ill-typed (over REST and MCP alike),
// and published: a Bluesky thread goes out as a chain of replies.

const installed = Packages.all.filter((entry) => entry.network === "bluesky" || entry.network === "x")

const toolBody = (result: CallToolResult) => JSON.parse((result.content[0] as { text: string }).text)

layer(serverLayer({}, installed, undefined, fastTuning), { excludeTestServices: true })("platformOptions", (it) => {
  const setup = Effect.gen(function*() {
    const base = yield* baseUrl
    const { key } = yield* workspaceWithKey()
    const send = (method: string, path: string, body?: unknown) =>
      request(`${base}/api/v1${path}`, {
        method,
        headers: { ...bearer(key.key), ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    const connected = yield* send("POST", "/accounts/connect", { platform: "bluesky", fields: { identifier: "thread.test", password: "b" } })
    assert.strictEqual(connected.status, 201, connected.text)
    return { base, key: key.key, send, accountId: connected.body.data.id as string }
  })

  it.effect("round-trips through create, get, patch and list, {} when none, a patch replacing the network's object", () =>
    Effect.gen(function*() {
      const { accountId, send } = yield* setup
      const plain = yield* send("POST", "/posts", { content: "Plain", accountIds: [accountId], draft: true })
      assert.strictEqual(plain.status, 200, plain.text)
      assert.deepStrictEqual(plain.body.data.platformOptions, {})
      assert.deepStrictEqual(plain.body.data.xThread, [], "a top-level option shows its default")

      const created = yield* send("POST", "/posts", {
        content: "One",
        accountIds: [accountId],
        draft: true,
        platformOptions: { bluesky: { thread: ["Two", "Three"] } }
      })
      assert.strictEqual(created.status, 200, created.text)
      assert.deepStrictEqual(created.body.data.platformOptions, { bluesky: { thread: ["Two", "Three"] } })
      const id = created.body.data.id
      assert.deepStrictEqual((yield* send("GET", `/posts/${id}`)).body.data, created.body.data)
      const listed = (yield* send("GET", "/posts?status=draft")).body.data.find((post: { id: string }) => post.id === id)
      assert.deepStrictEqual(listed, created.body.data)

      // An empty object for a network: its options go back to their defaults (shown, as the post has options for it).
      const patched = yield* send("PATCH", `/posts/${id}`, { platformOptions: { bluesky: {} } })
      assert.strictEqual(patched.status, 200, patched.text)
      assert.deepStrictEqual(patched.body.data.platformOptions, { bluesky: { thread: [] } })
      // A patch without platformOptions leaves them.
      const other = yield* send("PATCH", `/posts/${id}`, { content: "One, changed" })
      assert.deepStrictEqual(other.body.data.platformOptions, { bluesky: { thread: [] } })
    }))

  it.effect("refuses an unknown network, an unknown option and a wrong type as invalid, naming the field", () =>
    Effect.gen(function*() {
      const { accountId, send } = yield* setup
      const attempt = (platformOptions: unknown) =>
        send("POST", "/posts", { content: "x", accountIds: [accountId], draft: true, platformOptions })
      const fields = (answer: { body: any }) => answer.body.error.details.map((detail: { field: string }) => detail.field)

      const unknownNetwork = yield* attempt({ nowhere: { thread: [] } })
      assert.strictEqual(unknownNetwork.status, 400, unknownNetwork.text)
      assert.strictEqual(unknownNetwork.body.error.code, "invalid")
      assert.include(unknownNetwork.body.error.message, "nowhere")
      assert.deepStrictEqual(fields(unknownNetwork), ["platformOptions.nowhere"])

      // X's options are top-level fields, not platformOptions.
      const topLevel = yield* attempt({ x: { xThread: ["a"] } })
      assert.strictEqual(topLevel.status, 400, topLevel.text)
      assert.deepStrictEqual(fields(topLevel), ["platformOptions.x"])

      const unknownKey = yield* attempt({ bluesky: { replyGate: "nobody" } })
      assert.strictEqual(unknownKey.status, 400, unknownKey.text)
      assert.deepStrictEqual(fields(unknownKey), ["platformOptions.bluesky.replyGate"])

      const wrongType = yield* attempt({ bluesky: { thread: ["fine", 2] } })
      assert.strictEqual(wrongType.status, 400, wrongType.text)
      assert.deepStrictEqual(fields(wrongType), ["platformOptions.bluesky.thread.1"])
    }))

  it.effect("checks the thread against Bluesky's limits, pointing at the follow-up", () =>
    Effect.gen(function*() {
      const { accountId, send } = yield* setup
      const long = yield* send("POST", "/posts", {
        content: "One",
        accountIds: [accountId],
        draft: true,
        platformOptions: { bluesky: { thread: ["fine", "a".repeat(301)] } }
      })
      assert.strictEqual(long.status, 400, long.text)
      assert.deepInclude(long.body.error.details[0], { field: "platformOptions.bluesky.thread.1", network: "bluesky" })
    }))

  it.effect("publishes a Bluesky thread as a chain of replies under the first post", () =>
    Effect.gen(function*() {
      const { accountId, send } = yield* setup
      const created = yield* send("POST", "/posts", {
        content: "A thread, 1/3",
        accountIds: [accountId],
        publishNow: true,
        platformOptions: { bluesky: { thread: ["2/3", "3/3"] } }
      })
      assert.strictEqual(created.status, 200, created.text)
      const post = yield* settled((id) => Effect.map(send("GET", `/posts/${id}`), (answer) => answer.body.data), created.body.data.id)
      assert.strictEqual(post.status, "published", JSON.stringify(post))
      const stored = yield* simulated("bluesky", accountId)
      assert.lengthOf(stored, 3)
      // Walked from the first post down its replies: each follow-up answers the one above it.
      const chain = [stored.find((entry) => entry.replyTo === undefined)!]
      while (chain.length < stored.length) {
        const next = stored.find((entry) => entry.replyTo === chain.at(-1)!.id)
        if (next === undefined) break
        chain.push(next)
      }
      assert.deepStrictEqual(chain.map((entry) => entry.text), ["A thread, 1/3", "2/3", "3/3"])
    }))

  it.effect("takes and shows the same over MCP: create_post, update_post and get_post, and refuses the same", () =>
    Effect.gen(function*() {
      const { accountId, base, key } = yield* setup
      const client = yield* connect(base, key)
      const tools = yield* Effect.promise(() => client.listTools())
      const create = tools.tools.find((tool) => tool.name === "create_post")!
      const schema = create.inputSchema as { properties: Record<string, any> }
      assert.property(schema.properties, "xThread")
      assert.property(schema.properties["platformOptions"].properties, "bluesky")
      const output = JSON.stringify(tools.tools.find((tool) => tool.name === "get_post")!.outputSchema)
      assert.include(output, "xThreadMedia")
      assert.include(output, "chain of replies under the Bluesky post")
      // The server's instructions name the installed networks, from their adapters.
      assert.include(client.getInstructions() ?? "", "to X and Bluesky.")

      const created = yield* call(client, "create_post", {
        content: "By an assistant",
        accountIds: [accountId],
        draft: true,
        platformOptions: { bluesky: { thread: ["and more"] } }
      })
      assert.notStrictEqual(created.isError, true, JSON.stringify(created))
      const body = toolBody(created)
      assert.deepStrictEqual(body.data.platformOptions, { bluesky: { thread: ["and more"] } })
      const updated = toolBody(yield* call(client, "update_post", { id: body.data.id, platformOptions: { bluesky: { thread: [] } } }))
      assert.deepStrictEqual(updated.data.platformOptions, { bluesky: { thread: [] } })
      const got = toolBody(yield* call(client, "get_post", { id: body.data.id }))
      assert.deepStrictEqual(got.data, updated.data)

      const refused = yield* call(client, "create_post", {
        content: "x",
        accountIds: [accountId],
        draft: true,
        platformOptions: { bluesky: { thread: [3] }, nowhere: {} }
      })
      assert.isTrue(refused.isError)
      const error = toolBody(refused).error
      assert.strictEqual(error.code, "invalid")
      assert.sameMembers(error.details.map((detail: { field: string }) => detail.field), ["platformOptions.bluesky.thread.0", "platformOptions.nowhere"])
    }))

  it.effect("the served OpenAPI document shows each installed adapter's fields with their descriptions", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const document = (yield* request(`${base}/api/v1/openapi.json`)).body
      const resolve = (schema: any): any =>
        schema?.$ref === undefined ? schema : resolve(document.components.schemas[schema.$ref.split("/").pop()])
      const post = resolve(document.components.schemas.Post)
      assert.match(post.properties.xThread.description, /thread/)
      assert.isString(post.properties.xThreadMedia.description)
      assert.notProperty(post.properties, "youtubeTitle", "only the installed networks' fields")
      assert.isString(resolve(post.properties.platformOptions).properties.bluesky.description)
      const create = resolve(document.paths["/api/v1/posts"].post.requestBody.content["application/json"].schema)
      assert.match(create.properties.xThread.description, /thread/)
      const nested = resolve(create.properties.platformOptions)
      assert.match(nested.description, /bluesky/)
      assert.match(resolve(nested.properties.bluesky).properties.thread.description, /replies/)
      const update = resolve(document.paths["/api/v1/posts/{id}"].patch.requestBody.content["application/json"].schema)
      assert.property(resolve(update.properties.platformOptions).properties, "bluesky")
    }))
})
