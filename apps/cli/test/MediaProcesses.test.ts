import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import * as Processes from "./processes.ts"
import { skipIf } from "../../../testing/skipIf.ts"

// Two processes on one PostgreSQL, each with its own data folder: media uploaded through one are served,
// whole, by range and to HEAD, by the other, because their bytes live in the database and not on the disk
// of the process that took the upload. Runs when HERALD_TEST_DATABASE_URL names a server.
const processes = Processes.make("media")
const video = readFileSync(resolve(import.meta.dirname, "../../server/test/fixtures/video.mp4"))
const start = async (label: string) => (await processes.start(label, { HERALD_ROLE: "api", PORT: "0" })).ready

describe("media across processes on PostgreSQL", skipIf(Processes.missing), () => {
  beforeAll(() => processes.create())
  afterAll(() => processes.dispose())

  it("serves an upload taken by one process from the other, whole, by range and to HEAD", async () => {
    const one = await start("one")
    const other = await start("other")
    const key: string = one.firstRun.key.key
    // A video over three 1 MiB chunks: the fixture, then bytes that are not all alike.
    const body = new Uint8Array(video.length + 2_500_000)
    body.set(video)
    for (let index = video.length; index < body.length; index++) body[index] = (index * 7919) & 0xff
    const uploaded = await fetch(`${one.listening}/api/v1/media?durationMs=2000&width=320&height=240`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "video/mp4" },
      body
    })
    assert.strictEqual(uploaded.status, 200, await uploaded.clone().text())
    const media = ((await uploaded.json()) as any).data
    assert.strictEqual(media.bytes, body.length)
    const path = new URL(media.url).pathname

    const whole = await fetch(`${other.listening}${path}`)
    assert.strictEqual(whole.status, 200)
    assert.strictEqual(whole.headers.get("content-type"), "video/mp4")
    assert.strictEqual(whole.headers.get("accept-ranges"), "bytes")
    assert.strictEqual(whole.headers.get("etag"), `"${path.slice("/media/".length)}"`)
    assert.deepStrictEqual(new Uint8Array(await whole.arrayBuffer()), body)

    const [first, last] = [1_000_000, 2_200_000]
    const part = await fetch(`${other.listening}${path}`, { headers: { range: `bytes=${first}-${last}` } })
    assert.strictEqual(part.status, 206)
    assert.strictEqual(part.headers.get("content-range"), `bytes ${first}-${last}/${body.length}`)
    assert.deepStrictEqual(new Uint8Array(await part.arrayBuffer()), body.subarray(first, last + 1))

    const outside = await fetch(`${other.listening}${path}`, { headers: { range: `bytes=${body.length}-` } })
    assert.strictEqual(outside.status, 416)
    const head = await fetch(`${other.listening}${path}`, { method: "HEAD" })
    assert.strictEqual(head.status, 200)
    assert.strictEqual(head.headers.get("content-length"), String(body.length))
  })
})
