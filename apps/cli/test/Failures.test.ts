import { assert, describe, it } from "@effect/vitest"
import { createServer, type Server } from "node:net"
import { testDataFolder } from "./dataFolder.ts"
import { herald } from "./run.ts"

// `herald start` on a port something else listens on says which port and what to do, and fails.

const occupy = () =>
  new Promise<{ server: Server; port: number }>((done) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      done({ server, port: typeof address === "object" && address !== null ? address.port : 0 })
    })
  })

describe("herald start on a taken port", () => {
  it("names the port and what to do, in the error shape with --json, and exits 1", async () => {
    const { port, server } = await occupy()
    try {
      // One data folder for both runs (they cannot share it at once), its database made before.
      const environment = { PORT: String(port), HOST: "127.0.0.1", HERALD_DATA_DIR: await testDataFolder("herald-cli-port-") }
      const json = await herald(["start", "--json"], environment)
      assert.strictEqual(json.code, 1, json.stderr)
      const document = JSON.parse(json.stdout)
      assert.strictEqual(document.error.code, "conflict")
      assert.include(document.error.message, `Port ${port} is already in use`)
      assert.include(document.error.message, "PORT")

      const human = await herald(["start"], environment)
      assert.strictEqual(human.code, 1)
      assert.include(human.stderr, `herald: Port ${port} is already in use`)
      assert.notMatch(human.stderr, /^herald: $/m)
    } finally {
      server.close()
    }
  })
})
