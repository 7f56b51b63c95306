import { assert, describe, it } from "@effect/vitest"
import type { Limits } from "../src/Limits.ts"
import { MediaItem, PostVersion } from "../src/PostVersion.ts"
import { summarize, validate } from "../src/Validator.ts"

// The limits of product.md's "Networks and their keys" table, written out here so the validator is tested
// against the rules people are promised, independently of the adapters' own data.
const table: Record<string, Limits> = {
  x: {
    forms: {
      post: {
        text: { max: 280, counter: "x-weighted" },
        media: { minItems: 0, maxItems: 4, maxPhotos: 4, maxVideos: 1, mixing: false },
        thread: { maxPosts: 25, maxLength: 280 },
        textOrMedia: true
      }
    }
  },
  instagram: {
    forms: {
      post: {
        text: { max: 2200, counter: "characters" },
        media: {
          minItems: 1,
          maxItems: 10,
          maxPhotos: 10,
          maxVideos: 10,
          mixing: true,
          photoAspectRatio: { min: 0.8, max: 1.91 },
          videoDurationMs: { min: 3_000, max: 900_000 }
        }
      },
      story: {
        text: { max: 2200, counter: "characters", ignored: true },
        media: {
          minItems: 1,
          maxItems: 1,
          maxPhotos: 1,
          maxVideos: 1,
          mixing: false,
          videoDurationMs: { min: 3_000, max: 60_000 }
        }
      }
    }
  },
  threads: {
    forms: {
      post: {
        // Emoji as their UTF-8 bytes (issue 31): Threads' own page, beyond product.md's table.
        text: { max: 500, counter: "emoji-bytes", maxLinks: 5 },
        // Videos of at most 5 minutes (issue 31): Threads' own page, beyond product.md's table.
        media: {
          minItems: 0,
          maxItems: 20,
          maxPhotos: 20,
          maxVideos: 20,
          mixing: true,
          videoDurationMs: { min: 0, max: 300_000 }
        }
      }
    }
  },
  tiktok: {
    forms: {
      post: {
        // UTF-16 code units (issue 31): TikTok's own reference, beyond product.md's table.
        text: { max: 2200, counter: "utf16-units" },
        media: {
          minItems: 1,
          maxItems: 35,
          maxPhotos: 35,
          maxVideos: 1,
          mixing: false,
          videoDurationMs: { min: 3_000, max: 600_000 }
        }
      }
    }
  },
  youtube: {
    forms: {
      post: {
        text: { max: 5000, counter: "utf8-bytes", forbidden: ["<", ">"] },
        media: { minItems: 1, maxItems: 1, maxPhotos: 0, maxVideos: 1, mixing: false },
        title: { required: true, max: 100, forbidden: ["<", ">"] },
        thumbnail: true
      }
    }
  },
  linkedin: {
    forms: {
      post: {
        text: { max: 3000, counter: "characters" },
        media: {
          minItems: 0,
          maxItems: 20,
          maxPhotos: 20,
          maxVideos: 1,
          mixing: false,
          videoDurationMs: { min: 3_000, max: 1_800_000 },
          // MP4 only (issue 31): LinkedIn's Videos API page, beyond product.md's table.
          videoTypes: ["video/mp4"]
        }
      }
    }
  },
  facebook: {
    forms: {
      post: {
        text: { max: 63206, counter: "characters" },
        media: { minItems: 0, maxItems: 10, maxPhotos: 10, maxVideos: 1, mixing: false }
      }
    }
  }
}

let mediaCounter = 0

const photo = (width: number | null = 1080, height: number | null = 1080): MediaItem =>
  new MediaItem({
    id: `media-${++mediaCounter}`,
    kind: "image",
    mimeType: "image/jpeg",
    url: `https://media.herald.test/${mediaCounter}.jpg`,
    bytes: 200_000,
    width,
    height,
    durationMs: null,
    alt: null
  })

const video = (durationMs: number | null = 10_000, mimeType = "video/mp4"): MediaItem =>
  new MediaItem({
    id: `media-${++mediaCounter}`,
    kind: "video",
    mimeType,
    url: `https://media.herald.test/${mediaCounter}.mp4`,
    bytes: 5_000_000,
    width: 1080,
    height: 1920,
    durationMs,
    alt: null
  })

const photos = (amount: number) => Array.from({ length: amount }, () => photo())
const videos = (amount: number) => Array.from({ length: amount }, () => video())

const post = (fields: Partial<ConstructorParameters<typeof PostVersion>[0]> = {}): PostVersion =>
  new PostVersion({
    text: "",
    media: [],
    thread: [],
    format: "post",
    title: null,
    thumbnail: null,
    firstComment: null,
    settings: {},
    ...fields
  })

/** The messages `network` reports for the post; `[]` means it passes. */
const messages = (network: string, version: PostVersion): ReadonlyArray<string> =>
  validate(network, table[network]!, version).map((violation) => violation.message)

const text = (length: number) => "a".repeat(length)

describe("Validator on x", () => {
  it("accepts 280 characters and refuses 281", () => {
    assert.deepStrictEqual(messages("x", post({ text: text(280) })), [])
    assert.deepStrictEqual(messages("x", post({ text: text(281) })), ["x: text is 281 characters; the limit is 280"])
  })

  it("counts the way X does: CJK and emoji weigh 2, a URL 23", () => {
    assert.deepStrictEqual(messages("x", post({ text: "東".repeat(140) })), [])
    assert.deepStrictEqual(messages("x", post({ text: "東".repeat(141) })), ["x: text is 282 characters; the limit is 280"])
    assert.deepStrictEqual(messages("x", post({ text: "😀".repeat(141) })), ["x: text is 282 characters; the limit is 280"])
    const url = `https://example.com/${text(200)}`
    assert.deepStrictEqual(messages("x", post({ text: `${text(256)} ${url}` })), [])
    assert.deepStrictEqual(messages("x", post({ text: `${text(257)} ${url}` })), [
      "x: text is 281 characters; the limit is 280"
    ])
  })

  it("needs text or media", () => {
    assert.deepStrictEqual(messages("x", post({ text: "" })), ["x: a post needs text or media"])
    assert.deepStrictEqual(messages("x", post({ text: "  \n " })), ["x: a post needs text or media"])
    assert.deepStrictEqual(messages("x", post({ media: [photo()] })), [])
  })

  it("takes up to 4 photos or 1 video, never both", () => {
    assert.deepStrictEqual(messages("x", post({ media: photos(4) })), [])
    assert.deepStrictEqual(messages("x", post({ media: photos(5) })), ["x: 5 photos attached; the limit is 4"])
    assert.deepStrictEqual(messages("x", post({ media: videos(1) })), [])
    assert.deepStrictEqual(messages("x", post({ media: videos(2) })), ["x: 2 videos attached; the limit is 1"])
    assert.deepStrictEqual(messages("x", post({ media: [photo(), video()] })), [
      "x: photos and videos cannot be mixed in one post"
    ])
  })

  it("takes a thread of up to 25 posts, each at most 280", () => {
    assert.deepStrictEqual(messages("x", post({ text: "first", thread: Array(24).fill("more") })), [])
    assert.deepStrictEqual(messages("x", post({ text: "first", thread: Array(25).fill("more") })), [
      "x: thread has 26 posts; the limit is 25"
    ])
    assert.deepStrictEqual(messages("x", post({ text: "first", thread: ["second", text(280), text(290)] })), [
      "x: thread post 4 is 290 characters; the limit is 280"
    ])
    assert.deepStrictEqual(messages("x", post({ text: "first", thread: ["東".repeat(141)] })), [
      "x: thread post 2 is 282 characters; the limit is 280"
    ])
    assert.deepStrictEqual(messages("x", post({ text: "first", thread: ["second", " "] })), ["x: thread post 3 is empty"])
  })
})

describe("Validator on instagram", () => {
  it("accepts a caption of 2,200 characters and refuses 2,201", () => {
    assert.deepStrictEqual(messages("instagram", post({ text: text(2200), media: [photo()] })), [])
    assert.deepStrictEqual(messages("instagram", post({ text: text(2201), media: [photo()] })), [
      "instagram: text is 2201 characters; the limit is 2200"
    ])
  })

  it("needs 1 to 10 photos or videos", () => {
    assert.deepStrictEqual(messages("instagram", post({ text: "caption" })), [
      "instagram: 0 media attached; a post needs a photo or video"
    ])
    assert.deepStrictEqual(messages("instagram", post({ media: [...photos(5), ...videos(5)] })), [])
    assert.deepStrictEqual(messages("instagram", post({ media: [...photos(6), ...videos(5)] })), [
      "instagram: 11 media attached; the limit is 10"
    ])
  })

  it("takes photos between 4:5 and 1.91:1, checking only photos whose size is known", () => {
    const withinBounds = [photo(1080, 1350), photo(1910, 1000), photo(1080, 1080), photo(null, null)]
    assert.deepStrictEqual(messages("instagram", post({ media: withinBounds })), [])
    assert.deepStrictEqual(messages("instagram", post({ media: [photo(), photo(1000, 3000)] })), [
      "instagram: photo 2 is 1:3 (0.33); allowed between 4:5 (0.8) and 1.91:1"
    ])
    assert.deepStrictEqual(messages("instagram", post({ media: [photo(1920, 1000)] })), [
      "instagram: photo 1 is 48:25 (1.92); allowed between 4:5 (0.8) and 1.91:1"
    ])
    // 0.7994 would read as an allowed 0.80 with two decimals.
    assert.deepStrictEqual(messages("instagram", post({ media: [photo(1080, 1351)] })), [
      "instagram: photo 1 is 1080:1351 (0.799); allowed between 4:5 (0.8) and 1.91:1"
    ])
  })

  it("takes videos of 3 s to 15 min, checking only videos whose duration is known", () => {
    assert.deepStrictEqual(messages("instagram", post({ media: [video(3_000), video(900_000), video(null)] })), [])
    assert.deepStrictEqual(messages("instagram", post({ media: [video(2_000)] })), [
      "instagram: video 1 is 2.0 s long; allowed 3 s to 15 min"
    ])
    assert.deepStrictEqual(messages("instagram", post({ media: [photo(), video(2_999)] })), [
      "instagram: video 2 is 2.9 s long; allowed 3 s to 15 min"
    ])
    assert.deepStrictEqual(messages("instagram", post({ media: [video(900_001)] })), [
      "instagram: video 1 is 900.1 s long; allowed 3 s to 15 min"
    ])
  })

  it("takes a story of exactly one photo, or one video of 3 to 60 s, whatever its caption", () => {
    const story = (fields: Parameters<typeof post>[0]) => post({ format: "story", ...fields })
    assert.deepStrictEqual(messages("instagram", story({ text: text(5000), media: [photo(1000, 3000)] })), [])
    assert.deepStrictEqual(messages("instagram", story({ media: [video(60_000)] })), [])
    assert.deepStrictEqual(messages("instagram", story({ text: "caption" })), [
      "instagram: 0 media attached; a post needs a photo or video"
    ])
    assert.deepStrictEqual(messages("instagram", story({ media: photos(2) })), [
      "instagram: 2 photos attached; the limit is 1"
    ])
    assert.deepStrictEqual(messages("instagram", story({ media: [video(60_001)] })), [
      "instagram: video 1 is 60.1 s long; allowed 3 s to 60 s"
    ])
    assert.deepStrictEqual(messages("instagram", story({ media: [photo(), video()] })), [
      "instagram: 2 media attached; the limit is 1",
      "instagram: photos and videos cannot be mixed in one post"
    ])
  })

  it("refuses a form it does not have, and checks nothing else", () => {
    assert.deepStrictEqual(messages("instagram", post({ format: "reel", text: text(3000) })), [
      "instagram: format \"reel\" is not supported; use post or story"
    ])
    assert.deepStrictEqual(messages("x", post({ format: "story" })), ["x: format \"story\" is not supported; use post"])
    assert.deepStrictEqual(messages("x", post({ format: "constructor" })), [
      "x: format \"constructor\" is not supported; use post"
    ])
  })
})

describe("Validator on threads", () => {
  it("accepts 500 characters and refuses 501; text alone is fine", () => {
    assert.deepStrictEqual(messages("threads", post({ text: text(500) })), [])
    assert.deepStrictEqual(messages("threads", post({ text: text(501) })), [
      "threads: text is 501 characters; the limit is 500"
    ])
  })

  it("counts an emoji as its UTF-8 bytes, as Threads does: 497 letters and a face are 501", () => {
    assert.deepStrictEqual(messages("threads", post({ text: `${text(496)}😀` })), [])
    assert.deepStrictEqual(messages("threads", post({ text: `${text(497)}😀` })), [
      "threads: text is 501 characters; the limit is 500"
    ])
  })

  it("takes at most 5 distinct links", () => {
    const five = ["a.com", "b.com", "c.com", "d.com", "https://e.com/page"].join(" ")
    assert.deepStrictEqual(messages("threads", post({ text: `${five} a.com again` })), [])
    assert.deepStrictEqual(messages("threads", post({ text: `${five} https://f.org` })), [
      "threads: text has 6 links; the limit is 5"
    ])
  })

  it("takes up to 20 items, mixed", () => {
    assert.deepStrictEqual(messages("threads", post({ media: [...photos(10), ...videos(10)] })), [])
    assert.deepStrictEqual(messages("threads", post({ media: [...photos(11), ...videos(10)] })), [
      "threads: 21 media attached; the limit is 20"
    ])
  })

  it("takes a video of up to 5 minutes, however short", () => {
    assert.deepStrictEqual(messages("threads", post({ media: [video(300_000), video(100)] })), [])
    assert.deepStrictEqual(messages("threads", post({ media: [video(360_000)] })), [
      "threads: video 1 is 360.0 s long; allowed up to 5 min"
    ])
  })
})

describe("Validator on tiktok", () => {
  it("needs exactly one video of 3 s to 10 min, or 1 to 35 photos, never both", () => {
    assert.deepStrictEqual(messages("tiktok", post({ text: "caption" })), [
      "tiktok: 0 media attached; a post needs a photo or video"
    ])
    assert.deepStrictEqual(messages("tiktok", post({ media: [video(600_000)] })), [])
    assert.deepStrictEqual(messages("tiktok", post({ media: [video(600_001)] })), [
      "tiktok: video 1 is 600.1 s long; allowed 3 s to 10 min"
    ])
    assert.deepStrictEqual(messages("tiktok", post({ media: videos(2) })), ["tiktok: 2 videos attached; the limit is 1"])
    assert.deepStrictEqual(messages("tiktok", post({ media: photos(35) })), [])
    assert.deepStrictEqual(messages("tiktok", post({ media: photos(36) })), [
      "tiktok: 36 photos attached; the limit is 35"
    ])
    assert.deepStrictEqual(messages("tiktok", post({ media: [video(), photo()] })), [
      "tiktok: photos and videos cannot be mixed in one post"
    ])
  })

  it("accepts a caption of 2,200 characters and refuses 2,201", () => {
    assert.deepStrictEqual(messages("tiktok", post({ text: text(2200), media: [video()] })), [])
    assert.deepStrictEqual(messages("tiktok", post({ text: text(2201), media: [video()] })), [
      "tiktok: text is 2201 characters; the limit is 2200"
    ])
  })

  it("counts the caption in UTF-16 code units, as TikTok does: 2,199 letters and an emoji are 2,201", () => {
    assert.deepStrictEqual(messages("tiktok", post({ text: `${text(2198)}😀`, media: [video()] })), [])
    assert.deepStrictEqual(messages("tiktok", post({ text: `${text(2199)}😀`, media: [video()] })), [
      "tiktok: text is 2201 characters; the limit is 2200"
    ])
  })
})

describe("Validator on youtube", () => {
  const upload = (fields: Parameters<typeof post>[0]) => post({ title: "A title", media: [video()], ...fields })

  it("counts the description in UTF-8 bytes: 5,000 pass, 5,001 fail", () => {
    assert.deepStrictEqual(messages("youtube", upload({ text: text(5000) })), [])
    assert.deepStrictEqual(messages("youtube", upload({ text: "😀".repeat(1250) })), [])
    assert.deepStrictEqual(messages("youtube", upload({ text: text(5001) })), [
      "youtube: text is 5001 bytes; the limit is 5000"
    ])
    assert.deepStrictEqual(messages("youtube", upload({ text: `a${"😀".repeat(1250)}` })), [
      "youtube: text is 5001 bytes; the limit is 5000"
    ])
  })

  it("refuses < and > in the description and the title", () => {
    assert.deepStrictEqual(messages("youtube", upload({ text: "a <b> tag", title: "1 < 2" })), [
      "youtube: text contains \"<\" and \">\"; it may not contain < or >",
      "youtube: title contains \"<\"; it may not contain < or >"
    ])
  })

  it("requires a title of at most 100 characters", () => {
    assert.deepStrictEqual(messages("youtube", upload({ title: null })), ["youtube: a title is required"])
    assert.deepStrictEqual(messages("youtube", upload({ title: "   " })), ["youtube: a title is required"])
    assert.deepStrictEqual(messages("youtube", upload({ title: "é".repeat(100) })), [])
    assert.deepStrictEqual(messages("youtube", upload({ title: text(101) })), [
      "youtube: title is 101 characters; the limit is 100"
    ])
  })

  it("needs exactly one video and no photos", () => {
    assert.deepStrictEqual(messages("youtube", upload({ media: [] })), ["youtube: 0 media attached; a post needs a video"])
    assert.deepStrictEqual(messages("youtube", upload({ media: [photo()] })), [
      "youtube: photos are not accepted; attach one video"
    ])
    assert.deepStrictEqual(messages("youtube", upload({ media: videos(2) })), [
      "youtube: 2 videos attached; the limit is 1"
    ])
  })

  it("takes a thumbnail, which must be a photo", () => {
    assert.deepStrictEqual(messages("youtube", upload({ thumbnail: photo() })), [])
    assert.deepStrictEqual(messages("youtube", upload({ thumbnail: video() })), ["youtube: the thumbnail must be a photo"])
  })
})

describe("Validator on linkedin", () => {
  it("accepts 3,000 characters and refuses 3,001; text alone is fine", () => {
    assert.deepStrictEqual(messages("linkedin", post({ text: text(3000) })), [])
    assert.deepStrictEqual(messages("linkedin", post({ text: text(3001) })), [
      "linkedin: text is 3001 characters; the limit is 3000"
    ])
  })

  it("takes up to 20 photos, or 1 video of 3 s to 30 min, never both", () => {
    assert.deepStrictEqual(messages("linkedin", post({ media: photos(20) })), [])
    assert.deepStrictEqual(messages("linkedin", post({ media: photos(21) })), [
      "linkedin: 21 photos attached; the limit is 20"
    ])
    assert.deepStrictEqual(messages("linkedin", post({ media: [video(1_800_000)] })), [])
    assert.deepStrictEqual(messages("linkedin", post({ media: [video(1_800_001)] })), [
      "linkedin: video 1 is 1800.1 s long; allowed 3 s to 30 min"
    ])
    assert.deepStrictEqual(messages("linkedin", post({ media: [photo(), video()] })), [
      "linkedin: photos and videos cannot be mixed in one post"
    ])
  })

  it("takes MP4 videos only: a MOV file is refused with its type", () => {
    assert.deepStrictEqual(messages("linkedin", post({ media: [video(10_000, "video/mp4")] })), [])
    const violations = validate("linkedin", table["linkedin"]!, post({ media: [video(10_000, "video/quicktime")] }))
    assert.deepStrictEqual(violations.map(({ actual, item, limit, message }) => ({ actual, item, limit, message })), [{
      actual: "video/quicktime",
      item: 0,
      limit: "video/mp4",
      message: "linkedin: video 1 is video/quicktime; allowed video/mp4"
    }])
  })

  it("refuses a thread, a thumbnail and a first comment it does not take, and ignores a title", () => {
    assert.deepStrictEqual(
      messages("linkedin", post({ text: "hi", title: "ignored", thread: ["more"], thumbnail: photo(), firstComment: "!" })),
      [
        "linkedin: threads are not supported",
        "linkedin: a thumbnail is not supported",
        "linkedin: a first comment is not supported"
      ]
    )
  })
})

describe("Validator on facebook", () => {
  it("accepts 63,206 characters and refuses 63,207; text alone is fine", () => {
    assert.deepStrictEqual(messages("facebook", post({ text: text(63206) })), [])
    assert.deepStrictEqual(messages("facebook", post({ text: text(63207) })), [
      "facebook: text is 63207 characters; the limit is 63206"
    ])
  })

  it("takes up to 10 photos, or 1 video", () => {
    assert.deepStrictEqual(messages("facebook", post({ media: photos(10) })), [])
    assert.deepStrictEqual(messages("facebook", post({ media: photos(11) })), [
      "facebook: 11 photos attached; the limit is 10"
    ])
    assert.deepStrictEqual(messages("facebook", post({ media: videos(2) })), ["facebook: 2 videos attached; the limit is 1"])
  })

  it("takes a first comment only where the limits allow one", () => {
    const withComments: Limits = { forms: { post: { ...table["facebook"]!.forms.post, firstComment: true } } }
    assert.deepStrictEqual(validate("facebook", withComments, post({ text: "hi", firstComment: "first!" })), [])
    assert.deepStrictEqual(messages("facebook", post({ text: "hi", firstComment: "first!" })), [
      "facebook: a first comment is not supported"
    ])
  })

  it("holds a first comment to the length and bytes a post may have there", () => {
    const limits: Limits = {
      forms: { post: { ...table["facebook"]!.forms.post, text: { max: 10, counter: "graphemes", maxBytes: 40 }, firstComment: true } }
    }
    assert.deepStrictEqual(validate("facebook", limits, post({ text: "hi", firstComment: "👍🏽".repeat(5) })), [])
    assert.deepStrictEqual(validate("facebook", limits, post({ text: "hi", firstComment: "a".repeat(11) })).map((v) => v.message), [
      "facebook: first comment is 11 graphemes; the limit is 10"
    ])
    assert.deepStrictEqual(
      validate("facebook", limits, post({ text: "hi", firstComment: "👍🏽".repeat(6) })).map((v) => [v.field, v.message]),
      [["firstComment", "facebook: first comment is 48 bytes; the limit is 40"]]
    )
  })
})

describe("Validator with a setting counted with the text", () => {
  // Mastodon counts the content warning and the text in one limit (issue 31: 480 + 30 passed, Mastodon refused).
  const mastodon: Limits = {
    forms: {
      post: {
        text: { max: 500, counter: "mastodon", countsWith: { setting: "spoilerText", name: "content warning", counter: "graphemes" } },
        media: { minItems: 0, maxItems: 4, maxPhotos: 4, maxVideos: 1, mixing: false },
        thread: { maxPosts: 25, maxLength: 500 },
        textOrMedia: true,
        firstComment: true
      }
    }
  }
  const check = (version: PostVersion) => validate("mastodon", mastodon, version).map((violation) => violation.message)
  const warned = { spoilerText: "w".repeat(30) }

  it("adds the content warning to the text, each follow-up and the first comment", () => {
    assert.deepStrictEqual(check(post({ text: text(470), settings: warned })), [])
    assert.deepStrictEqual(check(post({ text: text(480), settings: warned, thread: [text(471)], firstComment: text(490) })), [
      "mastodon: text with its content warning is 510 characters; the limit is 500",
      "mastodon: thread post 2 with its content warning is 501 characters; the limit is 500",
      "mastodon: first comment with its content warning is 520 characters; the limit is 500"
    ])
  })

  it("counts the warning as it is, a link in it at its full length, and nothing without one", () => {
    const link = `https://example.com/${"a".repeat(60)}`
    assert.deepStrictEqual(check(post({ text: text(430), settings: { spoilerText: link } })), [
      "mastodon: text with its content warning is 510 characters; the limit is 500"
    ])
    assert.deepStrictEqual(check(post({ text: text(500), settings: { spoilerText: null } })), [])
    assert.deepStrictEqual(check(post({ text: text(501) })), ["mastodon: text is 501 characters; the limit is 500"])
  })
})

describe("Validator reporting", () => {
  it("reports every violation together, in a stable order", () => {
    const version = post({
      text: `${text(5000)} <`,
      title: null,
      media: [photo(), video(1_000)],
      thread: ["follow-up"],
      firstComment: "hello"
    })
    assert.deepStrictEqual(messages("youtube", version), [
      "youtube: text is 5002 bytes; the limit is 5000",
      "youtube: text contains \"<\"; it may not contain < or >",
      "youtube: a title is required",
      "youtube: 2 media attached; the limit is 1",
      "youtube: photos are not accepted; attach one video",
      "youtube: photos and videos cannot be mixed in one post",
      "youtube: threads are not supported",
      "youtube: a first comment is not supported"
    ])
  })

  it("gives each violation its field, limit and actual size", () => {
    assert.deepStrictEqual(validate("x", table["x"]!, post({ text: text(312), media: photos(5) })), [
      {
        network: "x",
        field: "text",
        limit: "at most 280 characters",
        actual: "312 characters",
        message: "x: text is 312 characters; the limit is 280"
      },
      {
        network: "x",
        field: "media",
        limit: "at most 4 photos",
        actual: "5 photos",
        message: "x: 5 photos attached; the limit is 4"
      }
    ])
  })

  it("summarizes violations into one line", () => {
    const violations = validate("x", table["x"]!, post({ text: text(312), media: photos(5) }))
    assert.strictEqual(
      summarize(violations),
      "x: text is 312 characters; the limit is 280; x: 5 photos attached; the limit is 4"
    )
    assert.strictEqual(summarize([]), "")
  })

  it("says which attachment or follow-up a rule is about (its place from 0), and nothing for the whole post", () => {
    const places = (network: string, version: PostVersion) =>
      validate(network, table[network]!, version).map((violation) => [violation.field, violation.item])
    assert.deepStrictEqual(places("instagram", post({ media: [photo(), photo(1000, 3000)] })), [["media", 1]])
    assert.deepStrictEqual(places("x", post({ text: "first", thread: ["second", " ", text(281)] })), [["thread", 1], ["thread", 2]])
    assert.deepStrictEqual(places("x", post({ text: text(281), media: photos(5) })), [["text", undefined], ["media", undefined]])
  })
})
