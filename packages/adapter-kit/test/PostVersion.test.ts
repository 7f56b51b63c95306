import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import * as Adapter from "../src/Adapter.ts"
import * as ExampleNetwork from "../src/ExampleNetwork.ts"
import type { Limits } from "../src/Limits.ts"
import { fit, MediaItem, PostVersion } from "../src/PostVersion.ts"

const limits: Limits = {
  forms: {
    post: {
      text: { max: 300, counter: "graphemes" },
      media: { minItems: 0, maxItems: 4, maxPhotos: 4, maxVideos: 1, mixing: false, maxPhotoBytes: 1_000_000 }
    },
    // A form without a byte limit keeps the photo as uploaded.
    roomy: { text: { max: 300, counter: "characters" }, media: { minItems: 0, maxItems: 4, maxPhotos: 4, maxVideos: 1, mixing: false } }
  }
}

const copy = (maxBytes: number, bytes: number, width: number) => ({
  maxBytes,
  url: `https://media.herald.test/med_big.fit${maxBytes}.jpg`,
  bytes,
  width,
  height: width / 2
})

const big = new MediaItem({
  id: "med_big",
  kind: "image",
  mimeType: "image/jpeg",
  url: "https://media.herald.test/med_big.jpg",
  bytes: 6_000_000,
  width: 6000,
  height: 3000,
  durationMs: null,
  alt: "A harbour at dusk",
  fitted: [copy(1_000_000, 990_000, 2400), copy(5_242_880, 4_900_000, 6000)]
})

const small = new MediaItem({ ...big, id: "med_small", bytes: 400_000, fitted: [] })

const post = (format = "post") =>
  new PostVersion({ text: "hi", media: [small, big], thread: [], format, title: null, thumbnail: null, firstComment: null, settings: {} })

describe("PostVersion.fit", () => {
  it("swaps a photo over the byte limit for its largest copy within it, keeping its id and alt text", () => {
    const fitted = fit(limits, post())
    assert.strictEqual(fitted.media[0], small)
    const [, swapped] = fitted.media
    assert.deepStrictEqual(
      [swapped!.id, swapped!.url, swapped!.bytes, swapped!.width, swapped!.height, swapped!.alt],
      ["med_big", "https://media.herald.test/med_big.fit1000000.jpg", 990_000, 2400, 1200, "A harbour at dusk"]
    )
  })

  it("keeps the post as it is in a form without a byte limit, or when no copy fits", () => {
    const roomy = post("roomy")
    assert.strictEqual(fit(limits, roomy), roomy)
    const unfitted = new PostVersion({ ...post(), media: [new MediaItem({ ...big, fitted: [] })] })
    assert.strictEqual(fit(limits, unfitted).media[0]!.bytes, 6_000_000)
  })
})

describe("Adapter.make and fitted photos", () => {
  it("validates and publishes the fitted copy, so a photo too large for the network goes out instead of failing", () =>
    Effect.gen(function*() {
      const sent: Array<PostVersion> = []
      const adapter = Adapter.make({
        network: "fitting",
        name: "Fitting",
        limits,
        api: ExampleNetwork.api,
        capabilities: { text: true, photos: true, videos: false, thread: false, firstComment: false, refresh: false, reconcile: false, asyncProcessing: false },
        publish: ({ post }) => {
          sent.push(post)
          return Effect.succeed({ _tag: "Published", published: { id: "1", url: "https://fitting.test/1" } } as const)
        }
      })
      assert.deepStrictEqual(adapter.validate(post()), [])
      const unfitted = new PostVersion({ ...post(), media: [new MediaItem({ ...big, fitted: [] })] })
      assert.deepStrictEqual(adapter.validate(unfitted).map((violation) => violation.item), [0])
      yield* adapter.publish({ account: { networkAccountId: "1", username: "me", accessToken: Redacted.make("token") }, post: post() })
      assert.deepStrictEqual(sent[0]!.media.map((item) => item.bytes), [400_000, 990_000])
    }))
})
