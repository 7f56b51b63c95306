import { assert } from "@effect/vitest"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { Effect, Redacted } from "effect"
import { MastodonAdapter, MastodonRules, MastodonSimulator } from "../src/index.ts"

// Every rule of the Mastodon simulator's table, broken alone over HTTP: refused with Mastodon's status and
// `{ "error": "..." }`; and requests that keep them all, taken.

interface Api {
  /** `POST /api/v1/statuses` with a JSON body. */
  readonly status: (body: Record<string, unknown>) => Promise<Response>
  /** `POST /api/v2/media` with a file of this type and size (none when undefined), and a description. */
  readonly upload: (file: { readonly type: string; readonly size: number } | undefined, description?: string) => Promise<Response>
  /** An uploaded media's id, processed (a video is checked once) unless `processed` is false. */
  readonly media: (type: string, processed?: boolean) => Promise<string>
  /** Changes the instance's limits (`POST /_control/instance`). */
  readonly limits: (change: Record<string, number>) => Promise<void>
}

const makeApi = (root: string, token: string): Api => {
  const bearer = { authorization: `Bearer ${token}` }
  const upload: Api["upload"] = (file, description) => {
    const form = new FormData()
    if (file !== undefined) form.append("file", new Blob([new Uint8Array(file.size)], { type: file.type }), "upload")
    if (description !== undefined) form.append("description", description)
    return fetch(`${root}/api/v2/media`, { method: "POST", headers: bearer, body: form })
  }
  return {
    status: (body) =>
      fetch(`${root}/api/v1/statuses`, { method: "POST", headers: { ...bearer, "content-type": "application/json" }, body: JSON.stringify(body) }),
    upload,
    media: async (type, processed = true) => {
      const { id } = await (await upload({ type, size: 100 })).json() as { id: string }
      if (processed) await fetch(`${root}/api/v1/media/${id}`, { headers: bearer })
      return id
    },
    limits: async (change) => {
      await fetch(`${root}/_control/instance`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(change) })
    }
  }
}

/** For each rule (by its words), a request that breaks it and no other, and the words Mastodon answers. */
type Examples = Record<string, { readonly send: (api: Api) => Promise<Response>; readonly error: string }>

const image = { type: "image/jpeg", size: 100 }

const uploads: Examples = {
  "a file (`file`), not empty": { send: (api) => api.upload(undefined, "no file"), error: "Validation failed: File can't be blank" },
  "a file of a MIME type the instance supports (`configuration.media_attachments.supported_mime_types`)": {
    send: (api) => api.upload({ type: "application/pdf", size: 100 }),
    error: "Validation failed: File content type is invalid"
  },
  "an image of at most the instance's `image_size_limit` bytes (16 MiB on a stock instance)": {
    send: async (api) => {
      await api.limits({ imageBytes: 1000 })
      return api.upload({ type: "image/png", size: 1001 }).finally(() => api.limits({ imageBytes: 16 * 1024 * 1024 }))
    },
    error: "Validation failed: File file size must be less than 1000 Bytes"
  },
  "a video or audio of at most the instance's `video_size_limit` bytes (99 MiB on a stock instance)": {
    send: async (api) => {
      await api.limits({ videoBytes: 1000 })
      return api.upload({ type: "audio/mpeg", size: 1001 }).finally(() => api.limits({ videoBytes: 99 * 1024 * 1024 }))
    },
    error: "Validation failed: File file size must be less than 1000 Bytes"
  },
  "a `description` of at most the instance's `description_limit` characters (1,500 on a stock instance)": {
    send: (api) => api.upload(image, "é".repeat(1501)),
    error: "Validation failed: Description is too long (maximum is 1500 characters)"
  }
}

const poll = { options: ["yes", "no"], expires_in: 3600 }

const statuses: Examples = {
  "an `in_reply_to_id` naming a status the account can see (404)": {
    send: (api) => api.status({ status: "a reply", in_reply_to_id: "999999" }),
    error: "The post you are trying to reply to does not appear to exist."
  },
  "at most the instance's `max_media_attachments` media (4 on a stock instance)": {
    send: async (api) => api.status({ status: "five", media_ids: await Promise.all([1, 2, 3, 4, 5].map(() => api.media("image/png"))) }),
    error: "Cannot attach more than 4 files"
  },
  "`media_ids` or a `poll`, not both": {
    send: async (api) => api.status({ status: "both", media_ids: [await api.media("image/png")], poll }),
    error: "Cannot attach more than 4 files"
  },
  "`media_ids` naming the account's own uploads, none attached to a status yet": {
    send: async (api) => {
      const id = await api.media("image/png")
      await api.status({ status: "first", media_ids: [id] })
      return api.status({ status: "again", media_ids: [id, "424242"] })
    },
    error: "Media __first__, 424242 not found or already attached to another post"
  },
  "a video or audio alone: no other media with it": {
    send: async (api) => api.status({ status: "mixed", media_ids: [await api.media("image/png"), await api.media("video/mp4")] }),
    error: "Cannot attach a video to a post that already contains images"
  },
  "media the instance has finished processing (`GET /api/v1/media/:id` answers 200)": {
    send: async (api) => api.status({ status: "too soon", media_ids: [await api.media("video/mp4", false)] }),
    error: "Cannot attach files that have not finished processing. Try again in a moment!"
  },
  "a `status` text, unless `media_ids` or a content warning (`spoiler_text`, which becomes the text) is given": {
    send: (api) => api.status({ status: "  ", spoiler_text: "" }),
    error: "Validation failed: Text can't be blank"
  },
  "text and content warning together of at most the instance's `max_characters` (500 on a stock instance; each link 23, a remote mention as @user)":
    { send: (api) => api.status({ status: "a".repeat(495), spoiler_text: "warns" + "!" }), error: "Validation failed: Text character limit of 500 exceeded" },
  "a `visibility` of `public`, `unlisted`, `private` or `direct`": {
    send: (api) => api.status({ status: "who sees it", visibility: "everyone" }),
    error: "Validation failed: Visibility is not included in the list"
  },
  "a poll with both `poll[options][]` and `poll[expires_in]`": {
    send: (api) => api.status({ status: "vote", poll: { options: ["a", "b"] } }),
    error: "Validation failed: Poll expires at can't be blank"
  },
  "a poll of 2 to the instance's `max_options` options (4 on a stock instance)": {
    send: (api) => api.status({ status: "vote", poll: { ...poll, options: ["a", "b", "c", "d", "e"] } }),
    error: "Validation failed: Poll options can't contain more than 4 items"
  },
  "poll options of at most `max_characters_per_option` characters each (50 on a stock instance)": {
    send: (api) => api.status({ status: "vote", poll: { ...poll, options: ["a", "b".repeat(51)] } }),
    error: "Validation failed: Poll options cannot be longer than 50 characters each"
  },
  "a poll open at least `min_expiration` seconds (300 on a stock instance)": {
    send: (api) => api.status({ status: "vote", poll: { ...poll, expires_in: 299 } }),
    error: "Validation failed: Poll expires at is too soon"
  },
  "a poll open at most `max_expiration` seconds (2,629,746 on a stock instance)": {
    send: (api) => api.status({ status: "vote", poll: { ...poll, expires_in: 2_629_747 } }),
    error: "Validation failed: Poll expires at is too far into the future"
  }
}

const examples: Record<string, Examples> = { [MastodonRules.upload.call]: uploads, [MastodonRules.status.call]: statuses }

AdapterSuite.withHarness({ makeAdapter: MastodonAdapter.make, makeSimulator: MastodonSimulator.simulator })("Mastodon simulator rules", (it) => {
  const context = Effect.service(AdapterSuite.Harness)
  const api = (username: string) =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account } = yield* AdapterSuite.connect(ctx, username)
      return makeApi(`${ctx.baseUrl}/sandbox/mastodon`, Redacted.value(account.accessToken))
    })

  it("every rule of the table has an example that breaks it", () => {
    assert.deepStrictEqual(Object.keys(examples), MastodonRules.rules.map((call) => call.call))
    for (const call of [MastodonRules.upload, MastodonRules.status]) {
      assert.deepStrictEqual(Object.keys(examples[call.call]!).sort(), call.rules.map((rule) => rule.rule).sort(), call.call)
    }
  })

  for (const call of [MastodonRules.upload, MastodonRules.status]) {
    for (const rule of call.rules) {
      it.effect(`${call.call} refuses what breaks only: ${rule.rule}`, () =>
        Effect.gen(function*() {
          const example = examples[call.call]?.[rule.rule]
          assert.isDefined(example, "no example")
          const client = yield* api("rules_author")
          const response = yield* Effect.promise(() => example!.send(client))
          const body = yield* Effect.promise(() => response.json() as Promise<Record<string, unknown>>)
          assert.strictEqual(response.status, rule.status, JSON.stringify(body))
          assert.deepStrictEqual(Object.keys(body), ["error"])
          const first = /^Media (\d+)/.exec(String(body["error"]))?.[1]
          assert.strictEqual(body["error"], example!.error.replace("__first__", first ?? "?"))
        }))
    }
  }

  it.effect("takes what keeps every rule: an upload with alt text, a status with it and a content warning, a reply, a poll", () =>
    Effect.gen(function*() {
      const client = yield* api("rules_keeper")
      const upload = yield* Effect.promise(() => client.upload(image, "é".repeat(1500)))
      assert.strictEqual(upload.status, 200)
      const { id: mediaId } = yield* Effect.promise(() => upload.json() as Promise<{ id: string }>)
      const made = yield* Effect.promise(() =>
        client.status({ status: "a".repeat(495), spoiler_text: "warns", media_ids: [mediaId], visibility: "unlisted", language: "en" })
      )
      assert.strictEqual(made.status, 200)
      const { id } = yield* Effect.promise(() => made.json() as Promise<{ id: string }>)
      const checks = [
        client.status({ status: "a reply", in_reply_to_id: id, visibility: "direct" }),
        client.status({ status: "", spoiler_text: "only a warning" }),
        client.media("video/mp4").then((video) => client.status({ status: "", media_ids: [video] })),
        client.status({ status: "vote", poll: { options: ["a", "b", "c", "d"], expires_in: 300 } })
      ]
      for (const check of checks) assert.strictEqual((yield* Effect.promise(() => check)).status, 200)
    }))
})
