import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends } from "@herald/db/testing"
import * as Packages from "../src/Packages.ts"
import { fastTuning, serverLayer } from "./harness.ts"
import * as Photos from "./photos.ts"
import { settled, setup, simulated } from "./publishing.ts"

// Alt text and fitted photos through the whole server, in the sandbox: set at upload and by PATCH, shown on
// the media and the post, held to each network's length, and a photo too large for Bluesky published as its
// fitted copy with its alt text.

const installed = Packages.all.filter((entry) => entry.network === "bluesky" || entry.network === "x")

const noisyPng = Effect.promise(() => Photos.noisyPng())
const smallJpeg = Effect.promise(() => Photos.plainJpeg())

// On the embedded database (files in the data folder) and, with a server, PostgreSQL (files in media_chunks).
for (const backend of backends()) {
  layer(serverLayer({}, installed, backend, fastTuning), { excludeTestServices: true })(`media alt text and fitted photos on ${backend.name}`, (it) => {
    it.effect("sets alt text at upload (?alt=) and by PATCH, refuses it over 1,500 characters naming alt, and 404s an unknown id", () =>
      Effect.gen(function*() {
        const { base, key, send } = yield* setup([])
        const uploaded = yield* Effect.flatMap(smallJpeg, (body) =>
          Effect.promise(() =>
            fetch(`${base}/api/v1/media?alt=${encodeURIComponent("A green field")}`, {
              method: "POST",
              headers: { authorization: `Bearer ${key.key}`, "content-type": "image/jpeg" },
              body
            }).then((answer) => answer.json() as Promise<any>)
          ))
        const media = uploaded.data
        assert.strictEqual(media.alt, "A green field")
        assert.deepStrictEqual(media.fitted, [])

        const changed = yield* send("PATCH", `/media/${media.id}`, { alt: "A green field under rain" })
        assert.strictEqual(changed.status, 200, changed.text)
        assert.strictEqual(changed.body.data.alt, "A green field under rain")
        const tooLong = yield* send("PATCH", `/media/${media.id}`, { alt: "x".repeat(1_501) })
        assert.strictEqual(tooLong.status, 400, tooLong.text)
        assert.strictEqual(tooLong.body.error.code, "invalid")
        assert.deepStrictEqual(tooLong.body.error.details.map((detail: { field: string }) => detail.field), ["alt"])
        const unknown = yield* send("PATCH", "/media/med_0000000000000000", { alt: "none" })
        assert.strictEqual(unknown.status, 404, unknown.text)
        const removed = yield* send("PATCH", `/media/${media.id}`, { alt: null })
        assert.isNull(removed.body.data.alt)
      }))

    it.effect("refuses a post whose media's alt text is longer than a network takes, naming the media, for that network only", () =>
      Effect.gen(function*() {
        const { accounts, base, key, send } = yield* setup(["x", "bluesky"])
        const answer = yield* Effect.flatMap(smallJpeg, (body) =>
          Effect.promise(() =>
            fetch(`${base}/api/v1/media?alt=${"a".repeat(1_200)}`, {
              method: "POST",
              headers: { authorization: `Bearer ${key.key}`, "content-type": "image/jpeg" },
              body
            }).then((response) => response.json() as Promise<any>)
          ))
        const mediaId = answer.data.id
        const both = yield* send("POST", "/posts", { content: "Look", mediaIds: [mediaId], accountIds: [accounts["x"], accounts["bluesky"]], draft: true })
        assert.strictEqual(both.status, 400, both.text)
        assert.deepStrictEqual(both.body.error.details.map((detail: { field: string; message: string }) => [detail.field, detail.message]), [
          ["mediaIds.0", "x: the alt text of photo 1 is 1200 characters; the limit is 1000"]
        ])
        const blueskyOnly = yield* send("POST", "/posts", { content: "Look", mediaIds: [mediaId], accountIds: [accounts["bluesky"]], draft: true })
        assert.strictEqual(blueskyOnly.status, 200, blueskyOnly.text)
        assert.strictEqual(blueskyOnly.body.data.media[0].alt, "a".repeat(1_200))
      }))

    it.effect("publishes a photo too large for Bluesky as its fitted copy, with its alt text", () =>
      Effect.gen(function*() {
        const { accounts, base, create, get, key } = yield* setup(["bluesky"])
        const answer = yield* Effect.flatMap(noisyPng, (body) =>
          Effect.promise(() =>
            fetch(`${base}/api/v1/media?alt=${encodeURIComponent("Static on an old television")}`, {
              method: "POST",
              headers: { authorization: `Bearer ${key.key}`, "content-type": "image/png" },
              body
            }).then((response) => response.json() as Promise<any>)
          ))
        const media = answer.data
        assert.isAbove(media.bytes, 2_000_000)
        assert.lengthOf(media.fitted, 1)
        const copy = media.fitted[0]
        assert.strictEqual(copy.maxBytes, 2_000_000)
        assert.isAtMost(copy.bytes, 2_000_000)
        assert.match(copy.url, new RegExp(`/media/${media.id}\\.fit2000000\\.jpg$`))
        const served = yield* Effect.promise(() =>
          fetch(`${base}/media/${media.id}.fit2000000.jpg`).then(async (response) => ({
            status: response.status,
            type: response.headers.get("content-type"),
            bytes: (await response.arrayBuffer()).byteLength
          }))
        )
        assert.deepStrictEqual(served, { status: 200, type: "image/jpeg", bytes: copy.bytes })

        const created = yield* create({ content: "Noise", mediaIds: [media.id], accountIds: [accounts["bluesky"]], publishNow: true })
        assert.strictEqual(created.media[0].alt, "Static on an old television")
        const post = yield* settled(get, created.id)
        assert.strictEqual(post.status, "published", JSON.stringify(post))
        assert.strictEqual(post.media[0].alt, "Static on an old television")
        const [stored] = yield* simulated("bluesky", accounts["bluesky"]!)
        const record = stored!.details["record"] as { embed: { images: ReadonlyArray<{ alt: string; image: { size: number } }> } }
        assert.deepStrictEqual(record.embed.images.map((image) => [image.alt, image.image.size]), [["Static on an old television", copy.bytes]])
      }))
  })
}
