import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Packages from "../src/Packages.ts"
import { baseUrl, bearer, countingListener, request, serverLayer, workspaceWithKey } from "./harness.ts"

// A host a person chooses (a Mastodon instance) is reached only over HTTPS at a public address (issue 28: the
// connection's `server` made Herald POST to any host and port: a loopback port, the local Redis, with a port
// oracle in the error). Private addresses are not allowed here, as on a real server.

const packages = Packages.all.filter((entry) => entry.network === "mastodon")

layer(serverLayer({ webhookAllowPrivate: false }, packages), { excludeTestServices: true })(
  "hosts a person chooses",
  (it) => {
    it.effect("a Mastodon server at a private address or over http is refused without a connection; the sandbox's own is reached", () =>
      Effect.scoped(Effect.gen(function*() {
        const base = yield* baseUrl
        const { key } = yield* workspaceWithKey()
        const connect = (server: string) =>
          request(`${base}/api/v1/accounts/connect/mastodon`, {
            method: "POST",
            headers: { ...bearer(key.key), "content-type": "application/json" },
            body: JSON.stringify({ server, username: "ssrf" })
          })
        const listening = yield* countingListener
        const answers: Array<string> = []
        for (const server of [`http://127.0.0.1:${listening.port}`, `https://127.0.0.1:${listening.port}`, `https://[::1]:${listening.port}`, "http://localhost:6379"]) {
          const answer = yield* connect(server)
          assert.notStrictEqual(answer.status, 200, `${server}: ${answer.text}`)
          answers.push(answer.body.error.message)
        }
        assert.strictEqual(listening.connections(), 0)
        for (const message of answers) {
          // The same refusal whatever the port: no oracle of what listens where.
          assert.notMatch(message, /ECONNREFUSED|ECONNRESET|socket hang up|other side closed/)
          assert.match(message, /public address|https/)
        }
        // Herald's own sandbox instance, at its own address, still connects.
        const own = yield* connect(`${base.replace("127.0.0.1", "localhost")}/sandbox/mastodon`)
        assert.strictEqual(own.status, 200, own.text)
      })))
  }
)
