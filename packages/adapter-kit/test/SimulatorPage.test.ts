import { assert, describe, it } from "@effect/vitest"
import { Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { simulator as example } from "../src/ExampleNetwork.ts"
import * as SimulatorPage from "../src/SimulatorPage.ts"
import * as SimulatorStore from "../src/SimulatorStore.ts"

// The page a sandbox link opens, and the sandbox triggers as a person meets them: served over HTTP the way
// the server serves a simulator (through a store), with two simulators over one store standing for two
// processes.

const root = "http://sandbox.test/example"

const serve = (store: SimulatorStore.SimulatorStore, baseUrl = root) => {
  const simulator = example({ baseUrl })
  const web = HttpRouter.toWebHandler(
    HttpRouter.addAll(SimulatorStore.serve(simulator, store, { shared: true }), { prefix: "/example" }).pipe(
      Layer.provide(HttpServer.layerServices)
    ),
    { disableLogger: true }
  )
  const call = async (method: string, url: string, token?: string, body?: unknown) => {
    const response = await web.handler(new Request(url.startsWith("http") ? url : `${baseUrl}${url}`, {
      method,
      headers: {
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    }))
    return { status: response.status, type: response.headers.get("content-type") ?? "", text: await response.text() }
  }
  return { simulator, call, dispose: web.dispose }
}

const hostile = `<script>alert("hi")</script> & 'quoted' <img src=x onerror=alert(1)>`

describe("SimulatorPage", () => {
  it("renders every text escaped, media as img/video, and nothing from another host", () => {
    const html = SimulatorPage.render({
      network: "Example",
      account: { name: "<b>Dora</b>", handle: "@dora" },
      title: "A \"title\"",
      parts: [
        { text: hostile, media: [SimulatorPage.mediaOf("http://localhost:3000/media/med_1.jpg")] },
        { text: "second", media: [SimulatorPage.mediaOf("http://localhost:3000/media/med_2.mp4"), { kind: "video", url: "urn:li:video:1" }] }
      ],
      createdAt: Date.UTC(2026, 0, 2, 3, 4, 5),
      comments: [{ author: "fan<3", text: "</li><script>x</script>", createdAt: "2026-01-02T03:05:00.000Z", reply: false }]
    })
    assert.notInclude(html, "<script")
    assert.notInclude(html, "<b>Dora")
    assert.notInclude(html, "<img src=x")
    assert.include(html, "&lt;script&gt;alert(&quot;hi&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;")
    assert.include(html, `<img alt="" src="http://localhost:3000/media/med_1.jpg">`)
    assert.include(html, `<video controls preload="metadata" src="http://localhost:3000/media/med_2.mp4">`)
    // A URN is no address: shown as a placeholder, never as a `src`.
    assert.notInclude(html, "urn:li:video:1\"")
    assert.include(html, "fan&lt;3")
    assert.include(html, "2026-01-02T03:04:05.000Z")
    assert.notMatch(html, /(src|href)="(?!http:\/\/localhost:3000\/media\/)/)
  })

  it("answers a published post's link with its page, comments included, and an unknown link with a 404 page", async () => {
    const process = serve(SimulatorStore.memory())
    const account = process.simulator.state.consent("page_dora")
    const grant = process.simulator.state.grant(account.id)
    const posted = await process.call("POST", "/posts", grant.accessToken, { text: hostile })
    assert.strictEqual(posted.status, 201)
    const { url } = JSON.parse(posted.text) as { url: string }
    await process.call("POST", "/_control/comments", undefined, { username: "page_dora", author: "fan", text: "So <good>" })

    const page = await process.call("GET", url)
    assert.strictEqual(page.status, 200, page.text)
    assert.match(page.type, /^text\/html/)
    assert.include(page.text, SimulatorPage.escape(hostile))
    assert.notInclude(page.text, "<script")
    assert.include(page.text, "So &lt;good&gt;")
    assert.include(page.text, "@page_dora")

    // A comment's link adds to the post's (LinkedIn's `?commentUrn=`): it opens the post's page.
    assert.strictEqual((await process.call("GET", `${url}/?commentUrn=urn%3Ali%3Acomment%3A1`)).status, 200)

    const missing = await process.call("GET", `${root}/page_dora/posts/404404`)
    assert.strictEqual(missing.status, 404)
    assert.match(missing.type, /^text\/html/)
    await process.dispose()
  })

  it("opens on another process sharing the store, which also honours #sandbox-fail-once as refused once", async () => {
    const store = SimulatorStore.memory()
    const first = serve(store)
    // Another process serves the sandbox at its own address.
    const second = serve(store, "http://127.0.0.1:4000/example")
    const account = first.simulator.state.consent("page_eve")
    const grant = first.simulator.state.grant(account.id)

    const refused = await first.call("POST", "/posts", grant.accessToken, { text: "Try me #sandbox-fail-once" })
    assert.strictEqual(refused.status, 400)
    assert.include(refused.text, "contains #sandbox-fail-once")
    // The retry reaches the other process, which knows it was refused once already.
    const accepted = await second.call("POST", "/posts", grant.accessToken, { text: "Try me #sandbox-fail-once" })
    assert.strictEqual(accepted.status, 201, accepted.text)
    const { url } = JSON.parse(accepted.text) as { url: string }
    // The link names the second process's address; the first serves it under its own.
    assert.isTrue(url.startsWith("http://127.0.0.1:4000/example/"))
    const page = await first.call("GET", url.replace("http://127.0.0.1:4000/example", root))
    assert.strictEqual(page.status, 200)
    assert.include(page.text, "Try me #sandbox-fail-once")

    const failed = await second.call("POST", "/posts", grant.accessToken, { text: "Never #sandbox-fail" })
    assert.include(failed.text, "The sandbox refused this because its text contains #sandbox-fail.")
    assert.strictEqual((await first.call("POST", "/posts", grant.accessToken, { text: "Never #sandbox-fail" })).status, 400)
    await Promise.all([first.dispose(), second.dispose()])
  })
})
