import { assert, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { MastodonAdapter, MastodonConfig, MastodonSimulator } from "@herald/adapter-mastodon"
import type { NetworkPackage } from "../src/NetworkPackages.ts"
import { baseUrl, bearer, fastTuning, request, serverLayer, workspaceWithKey } from "./harness.ts"
import { commentsReceived } from "./inbox.ts"
import { settled, setup, simulated } from "./publishing.ts"

// Mastodon through the whole server in the sandbox: Herald registered on the instance (the simulator's own
// address) and an account connected there over the API, a post with images and their alt text published,
// a mention read into the inbox; and the Demo workspace's way in, the sandbox connect.

const mastodon: NetworkPackage = {
  network: "mastodon",
  make: MastodonAdapter.make,
  simulator: MastodonSimulator.simulator,
  realConfig: MastodonConfig.realConfig,
  offered: MastodonConfig.offered
}

layer(serverLayer({}, [mastodon], undefined, { ...fastTuning, inboxPollEvery: Duration.zero }), { excludeTestServices: true })("Mastodon on the server", (it) => {
  it.effect("connects on an instance over the API, publishes images with alt text, and reads a mention into the inbox", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key, workspace } = yield* workspaceWithKey()
      const send = (method: string, path: string, body?: unknown) =>
        request(`${base}/api/v1${path}`, {
          method,
          headers: { ...bearer(key.key), ...(body === undefined ? {} : { "content-type": "application/json" }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })

      const networks = yield* send("GET", "/networks")
      const entry = networks.body.data.find((network: { key: string }) => network.key === "mastodon")
      assert.deepStrictEqual([entry.connect.method, entry.connect.fields[0].name], ["oauth", "server"])
      assert.deepStrictEqual([entry.name, entry.limits.forms.post.text.max], ["Mastodon", 500])
      assert.match(decodeURIComponent(entry.icon), /^data:image\/svg\+xml,<svg .*#6364ff/)

      // The person names the instance; Herald registers itself there and sends them to consent.
      const server = `${base}/sandbox/mastodon`
      const started = yield* send("POST", "/accounts/connect/mastodon", { server, username: "srv_masto" })
      assert.strictEqual(started.status, 200, started.text)
      const consent = yield* Effect.promise(() => fetch(started.body.data.url, { redirect: "manual" }))
      assert.strictEqual(consent.status, 302)
      const callback = yield* request(consent.headers.get("location")!.replace("localhost", "127.0.0.1"))
      assert.strictEqual(callback.status, 200, callback.text)
      const listed = yield* send("GET", "/accounts")
      const account = listed.body.data.find((candidate: { platform: string }) => candidate.platform === "mastodon")
      assert.deepInclude(account, { platform: "mastodon", username: "srv_masto", status: "connected" })
      const sql = yield* SqlClient.SqlClient
      const [app] = yield* sql<{ readonly server: string }>`SELECT server FROM network_apps WHERE network = 'mastodon'`
      assert.strictEqual(app?.server, server)

      const photo = readFileSync(join(import.meta.dirname, "fixtures", "photo.jpg"))
      const upload = (alt?: string) =>
        Effect.map(
          request(`${base}/api/v1/media${alt === undefined ? "" : `?${new URLSearchParams({ alt })}`}`, {
            method: "POST",
            headers: { ...bearer(key.key), "content-type": "image/jpeg" },
            body: new Uint8Array(photo)
          }),
          (answer) => answer.body.data.id as string
        )
      const mediaIds = [yield* upload("A lighthouse at dusk"), yield* upload()]
      const created = yield* send("POST", "/posts", { content: "Evening walk 🌅", accountIds: [account.id], mediaIds, publishNow: true })
      assert.strictEqual(created.status, 200, created.text)
      const post = yield* settled((id) => Effect.map(send("GET", `/posts/${id}`), (answer) => answer.body.data), created.body.data.id)
      assert.strictEqual(post.status, "published", JSON.stringify(post))
      const [stored] = yield* simulated("mastodon", account.id)
      assert.strictEqual(stored!.text, "Evening walk 🌅")
      assert.deepStrictEqual(stored!.details["descriptions"], ["A lighthouse at dusk", null])
      assert.deepInclude(stored!.details, { visibility: "public" })
      const page = yield* Effect.promise(() => fetch(stored!.url).then((answer) => answer.text()))
      assert.include(page, "Evening walk")

      const control = yield* request(`${base}/sandbox/mastodon/_control/comments`, {
        method: "POST",
        headers: { ...bearer(key.key), "content-type": "application/json" },
        body: JSON.stringify({ username: "srv_masto", author: "reader", text: "Lovely light!" })
      })
      assert.strictEqual(control.status, 201, control.text)
      const comments = yield* commentsReceived(workspace.id, 1)
      assert.lengthOf(comments, 1)
      assert.deepInclude(comments[0], { accountId: account.id, platform: "mastodon", text: "Lovely light!" })
    }))

  it.effect("publishes with its platformOptions: visibility, content warning, language, and a thread as replies", () =>
    Effect.gen(function*() {
      const { accounts, create, get, send } = yield* setup(["mastodon"])
      const options = { visibility: "unlisted", spoilerText: "Long read", language: "en", thread: ["2/ the middle", "3/ the end"] }
      const post = yield* create({
        content: "1/ the start",
        accountIds: [accounts["mastodon"]],
        platformOptions: { mastodon: options },
        publishNow: true
      })
      assert.deepStrictEqual(post.platformOptions, { mastodon: { ...options, sensitive: false } })
      const done = yield* settled(get, post.id)
      assert.strictEqual(done.status, "published", JSON.stringify(done))
      const statuses = [...(yield* simulated("mastodon", accounts["mastodon"]!))].reverse()
      assert.deepStrictEqual(statuses.map((status) => status.text), ["1/ the start", "2/ the middle", "3/ the end"])
      assert.deepStrictEqual(statuses.map((status) => status.replyTo), [undefined, statuses[0]!.id, statuses[1]!.id])
      for (const status of statuses) assert.deepInclude(status.details, { visibility: "unlisted", spoilerText: "Long read", language: "en" })
      // Documented where clients look: the OpenAPI document carries each option with its description.
      const document = (yield* send("GET", "/openapi.json")).body
      const resolve = (schema: any): any =>
        schema?.$ref === undefined ? schema : resolve(document.components.schemas[schema.$ref.split("/").pop()])
      const createSchema = resolve(document.paths["/api/v1/posts"].post.requestBody.content["application/json"].schema)
      const fields = resolve(resolve(createSchema.properties.platformOptions).properties.mastodon).properties
      assert.deepStrictEqual(Object.keys(fields).sort(), ["language", "sensitive", "spoilerText", "thread", "visibility"])
      assert.match(fields.visibility.description, /unlisted/)
      const refused = yield* send("POST", "/posts", {
        content: "x",
        accountIds: [accounts["mastodon"]],
        platformOptions: { mastodon: { visibility: "everyone" } }
      })
      assert.strictEqual(refused.status, 400, refused.text)
      assert.strictEqual(refused.body.error.code, "invalid")
      assert.strictEqual(refused.body.error.details[0].field, "platformOptions.mastodon.visibility")
    }))

  it.effect("two posts with the same text are two statuses: the Idempotency-Key names Herald's post, not only its text", () =>
    Effect.gen(function*() {
      const { accounts, create, get } = yield* setup(["mastodon"])
      const first = yield* create({ content: "Good morning", accountIds: [accounts["mastodon"]], publishNow: true })
      assert.strictEqual((yield* settled(get, first.id)).status, "published")
      const second = yield* create({ content: "Good morning", accountIds: [accounts["mastodon"]], publishNow: true })
      const done = yield* settled(get, second.id)
      assert.strictEqual(done.status, "published", JSON.stringify(done))
      const statuses = yield* simulated("mastodon", accounts["mastodon"]!)
      assert.strictEqual(statuses.length, 2)
      assert.notStrictEqual(statuses[0]!.id, statuses[1]!.id)
      assert.notStrictEqual((yield* get(first.id)).targets[0].url, done.targets[0].url)
    }))

  it.effect("the sandbox connect (the Demo workspace's) connects on the simulator's own address and publishes", () =>
    Effect.gen(function*() {
      const { accounts, create, get } = yield* setup(["mastodon"])
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ readonly server: string; readonly networkAccountId: string }>`
        SELECT server, network_account_id FROM accounts WHERE id = ${accounts["mastodon"]}`
      assert.match(row!.server, /\/sandbox\/mastodon$/)
      assert.match(row!.networkAccountId, /^\d+@localhost:\d+$/)
      const post = yield* create({ content: "From the sandbox", accountIds: [accounts["mastodon"]], publishNow: true })
      const done = yield* settled(get, post.id)
      assert.strictEqual(done.status, "published", JSON.stringify(done))
      assert.match(done.targets?.[0]?.url ?? done.targets?.[0]?.permalink ?? JSON.stringify(done), /\/sandbox\/mastodon\/@/)
    }))
})
