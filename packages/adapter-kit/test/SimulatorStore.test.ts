import { assert, describe, it } from "@effect/vitest"
import { Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { simulator as example } from "../src/ExampleNetwork.ts"
import { SimulatorState } from "../src/SimulatorState.ts"
import * as SimulatorStore from "../src/SimulatorStore.ts"

// Two simulators of one network over one store stand for two Herald processes (or one before and after a
// restart): what a call to one of them did, a later call to the other sees.

const serve = (store: SimulatorStore.SimulatorStore) => {
  const simulator = example({ baseUrl: "http://sandbox.test/example" })
  const web = HttpRouter.toWebHandler(
    HttpRouter.addAll(SimulatorStore.serve(simulator, store, { shared: true })).pipe(Layer.provide(HttpServer.layerServices)),
    { disableLogger: true }
  )
  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const response = await web.handler(new Request(`http://sandbox.test${path}`, {
      method,
      headers: {
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    }))
    return { status: response.status, body: await response.json() as any }
  }
  return { simulator, call, dispose: web.dispose }
}

describe("SimulatorStore", () => {
  it("a post, a revocation and a comment made through one process are seen by another and after a restart", async () => {
    const store = SimulatorStore.memory()
    const first = serve(store)
    const second = serve(store)
    const account = first.simulator.state.consent("dora")
    const grant = first.simulator.state.grant(account.id)

    const posted = await first.call("POST", "/posts", grant.accessToken, { text: "Hello from the first process \u0000 with a NUL" })
    assert.strictEqual(posted.status, 201)
    const listed = await second.call("GET", `/posts?author=${account.id}`, grant.accessToken)
    assert.deepStrictEqual(listed.body.data.map((post: { id: string }) => post.id), [posted.body.id])

    const comment = await second.call("POST", "/_control/comments", undefined, { username: "dora", author: "fan", text: "Nice" })
    assert.strictEqual(comment.status, 201, JSON.stringify(comment.body))
    assert.strictEqual(comment.body.postId, posted.body.id)
    const inbox = await first.call("GET", "/inbox", grant.accessToken)
    assert.deepStrictEqual(inbox.body.comments.map((item: { id: string }) => item.id), [comment.body.id])

    const revoked = await second.call("POST", "/posts", grant.accessToken, { text: "Bye #sandbox-revoke" })
    assert.strictEqual(revoked.status, 401)
    assert.strictEqual((await first.call("GET", "/me", grant.accessToken)).body.error.code, "token_revoked")

    // A restart: a new simulator over the same store, with nothing in memory.
    const restarted = serve(store)
    assert.strictEqual((await restarted.call("GET", "/me", grant.accessToken)).body.error.code, "token_revoked")
    assert.strictEqual(restarted.simulator.state.posts.get(posted.body.id)?.text, "Hello from the first process \u0000 with a NUL")
    assert.strictEqual(restarted.simulator.state.accountByUsername("dora")?.id, account.id)
    await Promise.all([first.dispose(), second.dispose(), restarted.dispose()])
  })

  it("saves a simulator's record changed in place after it was read, and only what changed", () => {
    const state = new SimulatorState("example")
    const containers = state.table<{ status: string }>("containers", { mutable: true })
    containers.set("c1", { status: "IN_PROGRESS" })
    assert.deepStrictEqual(state.takeChanges().map((change) => [change.kind, change.key, change.json]), [
      ["example:containers", "c1", JSON.stringify({ status: "IN_PROGRESS" })]
    ])
    containers.get("c1")!.status = "FINISHED"
    assert.deepStrictEqual(state.takeChanges().map((change) => change.json), [JSON.stringify({ status: "FINISHED" })])
    containers.get("c1")
    assert.deepStrictEqual(state.takeChanges(), [])
  })

  it("an older copy of a record loaded late does not undo a newer one", () => {
    const state = new SimulatorState("example")
    const table = state.table<{ n: number }>("counters")
    state.load([{ kind: "example:counters", key: "k", json: JSON.stringify({ n: 2 }), origin: "other", version: 5 }])
    state.load([{ kind: "example:counters", key: "k", json: JSON.stringify({ n: 1 }), origin: "other", version: 3 }])
    assert.strictEqual(table.get("k")?.n, 2)
    assert.strictEqual(state.version, 5)
  })
})
