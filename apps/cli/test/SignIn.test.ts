import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Workspaces } from "@herald/core"
import { backends } from "@herald/db/testing"
import { AdminSocket, Main } from "@herald/server"
import { examplePackage, fastTuning, quiet, settings } from "../../server/test/harness.ts"
import { keyedPackage, password } from "../../server/test/signInNetworks.ts"
import { Admin } from "../src/Admin.ts"
import { testDataFolder } from "./dataFolder.ts"
import { herald } from "./run.ts"

// `herald account connect --field name=value` for a network that signs in with fields: through a running
// server's admin socket (what the command uses while a server holds the data folder), and as a process.

const dataDir = mkdtempSync(join(tmpdir(), "herald-cli-sign-in-"))
const server = Main.layerWith(settings({ dataDir }), backends()[0]!.layer, true, [examplePackage, keyedPackage], fastTuning).pipe(
  Layer.provide(quiet)
)
const admin = Admin.layerRemote(AdminSocket.socketPathFor(dataDir))

layer(server, { excludeTestServices: true })("herald account connect --field", (it) => {
  it.effect("signs in through the running server; wrong credentials and unknown fields are invalid in words", () =>
    Effect.gen(function*() {
      const workspace = yield* Effect.orDie((yield* Workspaces.Workspaces).create({ name: "CLI sign-in" }))
      const remote = yield* Admin
      const account = yield* remote.signIn({ workspaceId: workspace.id, platform: "keyed", fields: { identifier: "cli.test", password } })
      assert.deepInclude(account, { platform: "keyed", username: "cli.test", status: "connected" })
      const listed = yield* remote.listAccounts(workspace.id)
      assert.deepStrictEqual(listed.map((entry) => entry.id), [account.id])
      const wrong = yield* Effect.flip(
        remote.signIn({ workspaceId: workspace.id, platform: "keyed", fields: { identifier: "cli.test", password: "wrong-one-77" } })
      )
      assert.strictEqual(wrong.code, "invalid")
      assert.include(wrong.message, "Wrong handle or app password")
      assert.notInclude(wrong.message, "wrong-one-77")
      const unknown = yield* Effect.flip(
        remote.signIn({ workspaceId: workspace.id, platform: "keyed", fields: { identifier: "a", password, pin: "1" } })
      )
      assert.strictEqual(unknown.code, "invalid")
      assert.include(unknown.message, `"pin"`)
      const nowhere = yield* Effect.flip(remote.signIn({ workspaceId: "ws_missing", platform: "keyed", fields: {} }))
      assert.strictEqual(nowhere.code, "not_found")
    }).pipe(Effect.provide(admin)))
})

layer(Layer.empty)("the command", (it) => {
  it.effect("passes --field name=value pairs to the network's sign-in: a credentials network connects, an OAuth one refuses by name", () =>
    Effect.promise(async () => {
      const environment = { HERALD_DATA_DIR: await testDataFolder("herald-cli-field-") }
      const created = await herald(["workspace", "create", "--name", "Fields", "--json"], environment)
      assert.strictEqual(created.code, 0, created.stderr)
      const workspaceId = JSON.parse(created.stdout).id
      const connected = await herald([
        "account", "connect", "--workspace", workspaceId, "--platform", "threads",
        "--field", "identifier=someone", "--field", "password=hunter2-secret", "--json"
      ], environment)
      assert.notStrictEqual(connected.code, 0)
      const error = JSON.parse(connected.stdout || connected.stderr).error
      assert.strictEqual(error.code, "invalid")
      assert.include(error.message, "threads connects through its consent page")
      assert.notInclude(connected.stdout + connected.stderr, "hunter2-secret")
      // A credentials network (Bluesky, against its sandbox simulator): signed in and printed; a wrong app
      // password is invalid in Bluesky's words.
      const signedIn = await herald([
        "account", "connect", "--workspace", workspaceId, "--platform", "bluesky",
        "--field", "identifier=cli_sky", "--field", "password=sandbox-app-password", "--json"
      ], environment)
      assert.strictEqual(signedIn.code, 0, signedIn.stdout + signedIn.stderr)
      assert.deepInclude(JSON.parse(signedIn.stdout), { platform: "bluesky", status: "connected" })
      const refused = await herald([
        "account", "connect", "--workspace", workspaceId, "--platform", "bluesky",
        "--field", "identifier=cli_sky", "--field", "password=wrong", "--json"
      ], environment)
      assert.notStrictEqual(refused.code, 0)
      const refusal = JSON.parse(refused.stdout || refused.stderr).error
      assert.strictEqual(refusal.code, "invalid")
      assert.include(refusal.message, "app password")
    }))
})
