import { assert } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { SimulatorRules } from "@herald/adapter-kit"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { TikTokAdapter, TikTokRules, TikTokSimulator } from "../src/index.ts"

// Every rule of TikTok's table, broken on its own by an init request sent to the simulator over HTTP, is
// refused with TikTok's answer (status, error.code, error.message, a log_id); a request that keeps them all
// is accepted. Each rule has its breaking example here, found by the rule's words: a rule added without
// one, or one whose check is removed, fails.

type Body = Readonly<Record<string, unknown>>

const withField = SimulatorRules.withField

/** What creator_info/query offers the sandbox's (public) accounts. */
const offered = ["PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "SELF_ONLY"]

interface Case {
  readonly call: TikTokRules.Call<TikTokRules.Init>
  readonly path: string
  readonly valid: (context: AdapterSuite.Context) => Body
  readonly breaking: Readonly<Record<string, (valid: Body) => Body>>
}

const postInfo = {
  privacy_level: "PUBLIC_TO_EVERYONE",
  disable_comment: false,
  brand_content_toggle: false,
  brand_organic_toggle: false
}

const cases: ReadonlyArray<Case> = [
  {
    call: TikTokRules.videoInit,
    path: "/v2/post/publish/video/init/",
    valid: (context) => ({
      post_info: { ...postInfo, title: `keeps every rule ${Date.now()}`, disable_duet: false, disable_stitch: false, is_aigc: false },
      source_info: { source: "PULL_FROM_URL", video_url: AdapterSuite.media.video(context).url }
    }),
    breaking: {
      "`post_info` is an object": (valid) => ({ ...valid, post_info: "public" }),
      "`post_info.privacy_level` is given, and is one of the `privacy_level_options` creator_info/query offered": (valid) =>
        withField(valid, "post_info.privacy_level", "FOLLOWER_OF_CREATOR"),
      "`post_info.title` is a string of at most 2200 UTF-16 runes": (valid) => withField(valid, "post_info.title", `${"a".repeat(2_199)}😀`),
      "`post_info.disable_duet` is a boolean": (valid) => withField(valid, "post_info.disable_duet", "false"),
      "`post_info.disable_stitch` is a boolean": (valid) => withField(valid, "post_info.disable_stitch", 0),
      "`post_info.disable_comment` is a boolean": (valid) => withField(valid, "post_info.disable_comment", null),
      "`post_info.brand_content_toggle` is a boolean": (valid) => withField(valid, "post_info.brand_content_toggle", undefined),
      "`post_info.brand_organic_toggle` is a boolean": (valid) => withField(valid, "post_info.brand_organic_toggle", "yes"),
      "`post_info.is_aigc` is a boolean": (valid) => withField(valid, "post_info.is_aigc", 1),
      "branded content (`brand_content_toggle`) is not posted SELF_ONLY": (valid) =>
        withField(withField(valid, "post_info.brand_content_toggle", true), "post_info.privacy_level", "SELF_ONLY"),
      "`source_info` is an object": (valid) => ({ ...valid, source_info: undefined }),
      "`source_info.source` is PULL_FROM_URL or FILE_UPLOAD": (valid) => withField(valid, "source_info.source", "PUSH"),
      "`source_info.video_url` is a public http(s) URL": (valid) => withField(valid, "source_info.video_url", "file:///etc/video.mp4"),
      "`source_info.video_size` is the file's size, a whole number of bytes above zero": (valid) => ({
        ...valid,
        source_info: { source: "FILE_UPLOAD", video_size: -1, chunk_size: 1, total_chunk_count: 1 }
      })
    }
  },
  {
    call: TikTokRules.photoInit,
    path: "/v2/post/publish/content/init/",
    valid: (context) => ({
      media_type: "PHOTO",
      post_mode: "DIRECT_POST",
      post_info: { ...postInfo, title: "Cats", description: `keeps every rule ${Date.now()}`, auto_add_music: true },
      source_info: {
        source: "PULL_FROM_URL",
        photo_images: [1, 2].map((index) => AdapterSuite.media.photo(context, index).url),
        photo_cover_index: 1
      }
    }),
    breaking: {
      "`media_type` is PHOTO": (valid) => ({ ...valid, media_type: "VIDEO" }),
      "`post_mode` is DIRECT_POST or MEDIA_UPLOAD": (valid) => ({ ...valid, post_mode: "DIRECT POST" }),
      "`post_info` is an object": (valid) => ({ ...valid, post_info: [] }),
      "`post_info.privacy_level` is given, and is one of the `privacy_level_options` creator_info/query offered": (valid) =>
        withField(valid, "post_info.privacy_level", undefined),
      "`post_info.title` is a string of at most 90 UTF-16 runes": (valid) => withField(valid, "post_info.title", "a".repeat(91)),
      "`post_info.description` is a string of at most 4000 UTF-16 runes": (valid) =>
        withField(valid, "post_info.description", "😀".repeat(2_001)),
      "`post_info.disable_comment` is a boolean": (valid) => withField(valid, "post_info.disable_comment", "true"),
      "`post_info.auto_add_music` is a boolean": (valid) => withField(valid, "post_info.auto_add_music", "on"),
      "`post_info.brand_content_toggle` is a boolean": (valid) => withField(valid, "post_info.brand_content_toggle", undefined),
      "`post_info.brand_organic_toggle` is a boolean": (valid) => withField(valid, "post_info.brand_organic_toggle", undefined),
      "branded content (`brand_content_toggle`) is not posted SELF_ONLY": (valid) =>
        withField(withField(valid, "post_info.brand_content_toggle", true), "post_info.privacy_level", "SELF_ONLY"),
      "`source_info` is an object": (valid) => ({ ...valid, source_info: "photos" }),
      "`source_info.source` is PULL_FROM_URL (the only source for photos)": (valid) => withField(valid, "source_info.source", "FILE_UPLOAD"),
      "`source_info.photo_images` lists 1 to 35 photos": (valid) =>
        withField(valid, "source_info.photo_images", Array.from({ length: 36 }, (_, index) => `https://example.com/${index}.jpg`)),
      "`source_info.photo_images` lists public http(s) URLs": (valid) =>
        withField(valid, "source_info.photo_images", ["https://example.com/1.jpg", "photo2.jpg"]),
      "`source_info.photo_cover_index` is the index (from 0) of one of the photos": (valid) =>
        withField(valid, "source_info.photo_cover_index", 2)
    }
  }
]

const send = (context: AdapterSuite.Context, token: Redacted.Redacted<string>, path: string, body: unknown) =>
  Effect.promise(async () => {
    const response = await fetch(`${context.baseUrl}/sandbox/tiktok${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${Redacted.value(token)}`, "content-type": "application/json; charset=UTF-8" },
      body: JSON.stringify(body)
    })
    const answer = await response.json() as { data: unknown; error: { code: string; message: string; log_id: string } }
    return { status: response.status, ...answer }
  })

AdapterSuite.withHarness({ makeAdapter: TikTokAdapter.make, makeSimulator: TikTokSimulator.simulator })("TikTok's rules", (it) => {
  const harness = Effect.service(AdapterSuite.Harness)

  it.effect("every call's rule has a breaking example, and every example a rule", () =>
    Effect.sync(() => {
      assert.deepStrictEqual(cases.map((entry) => entry.call.call), TikTokRules.rules.map((entry) => entry.call))
      for (const entry of cases) {
        assert.deepStrictEqual(Object.keys(entry.breaking), entry.call.rules.map((rule) => rule.rule), entry.call.call)
      }
    }))

  it.effect("refuses an init that breaks a rule, with TikTok's answer, and starts no post", () =>
    Effect.gen(function*() {
      const context = yield* harness
      for (const entry of cases) {
        for (const rule of entry.call.rules) {
          // A fresh account for each: TikTok allows six init calls a minute per user.
          const { account } = yield* AdapterSuite.connect(context)
          const body = entry.breaking[rule.rule]!(entry.valid(context))
          const input = { body, privacyLevelOptions: offered }
          const broken = entry.call.rules.filter((candidate) => candidate.check(input) !== undefined)
          assert.deepStrictEqual(broken.map((candidate) => candidate.rule), [rule.rule], `the example breaks only "${rule.rule}"`)
          const message = rule.check(input)
          assert.isDefined(message)
          const answer = yield* send(context, account.accessToken, entry.path, body)
          assert.strictEqual(answer.status, rule.answer.status, rule.rule)
          assert.deepStrictEqual(answer.data, {}, rule.rule)
          assert.deepInclude(answer.error, { code: rule.answer.code, message: message! }, rule.rule)
          assert.match(answer.error.log_id, /^\w+$/)
        }
      }
    }))

  it.effect("accepts a video and a photo post that keep every rule, and offers the levels of a public account", () =>
    Effect.gen(function*() {
      const context = yield* harness
      const { account } = yield* AdapterSuite.connect(context)
      const creator = yield* send(context, account.accessToken, "/v2/post/publish/creator_info/query/", {})
      assert.deepStrictEqual((creator.data as { privacy_level_options: unknown }).privacy_level_options, offered)
      for (const entry of cases) {
        const answer = yield* send(context, account.accessToken, entry.path, entry.valid(context))
        assert.strictEqual(answer.status, 200, entry.call.call)
        assert.strictEqual(answer.error.code, "ok")
        assert.match((answer.data as { publish_id: string }).publish_id, /_pub_url~v2/)
      }
    }))
})
