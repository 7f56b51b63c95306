import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { testDataFolder } from "./dataFolder.ts"
import { herald } from "./run.ts"

// `herald account connect --platform mastodon`: a network of many servers. In the sandbox the account
// connects on the simulator's own address (Herald registered there first); outside it, the command says
// where a person connects, with the instance they named. No server runs: each command opens the data folder
// itself, and the sandbox connect serves the simulator briefly.

layer(Layer.empty)("herald account connect --platform mastodon", (it) => {
  it.effect("connects a sandbox account on the simulator's instance, and names the instance for a real one", () =>
    Effect.promise(async () => {
      const environment = { HERALD_DATA_DIR: await testDataFolder("herald-cli-mastodon-") }
      const created = await herald(["workspace", "create", "--name", "Instances", "--json"], environment)
      assert.strictEqual(created.code, 0, created.stderr)
      const workspaceId = JSON.parse(created.stdout).id
      const connected = await herald([
        "account", "connect", "--workspace", workspaceId, "--platform", "mastodon", "--sandbox", "--username", "cli_masto", "--json"
      ], environment)
      assert.strictEqual(connected.code, 0, connected.stdout + connected.stderr)
      assert.deepInclude(JSON.parse(connected.stdout), { platform: "mastodon", username: "cli_masto", status: "connected" })
      const listed = await herald(["account", "list", "--workspace", workspaceId, "--json"], environment)
      assert.deepStrictEqual(JSON.parse(listed.stdout).map((account: { username: string }) => account.username), ["cli_masto"])
      const real = await herald([
        "account", "connect", "--workspace", workspaceId, "--platform", "mastodon", "--server", "mastodon.social", "--json"
      ], environment)
      assert.notStrictEqual(real.code, 0)
      assert.include(JSON.parse(real.stdout || real.stderr).error.message, `POST /api/v1/accounts/connect/mastodon with the body {"server":"mastodon.social"}`)
    }))
})
