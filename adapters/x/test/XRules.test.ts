import { assert } from "@effect/vitest"
import { SimulatorRules } from "@herald/adapter-kit"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { Effect, Redacted } from "effect"
import { XAdapter, XRules, XSimulator } from "../src/index.ts"

// Every rule of X's table, broken alone, over HTTP: the simulator answers X's problem JSON with the rule's
// words; requests that keep every rule are taken.

/** A request to the simulator: JSON (`body`), a form (`form`), or a query on a GET. */
interface Sent {
  readonly method?: "GET" | "POST"
  readonly path: string
  readonly body?: unknown
  readonly form?: Readonly<Record<string, string | Blob>>
}

/** A request that breaks one rule, and what the simulator reads of it (the rule's input). */
interface Breaking {
  readonly sent: (upload: string) => Sent
  readonly input: (upload: string) => unknown
}

const json = (path: string, body: unknown): Breaking => ({ sent: () => ({ path, body }), input: () => body })
const digits = "1234567890123456789"
const segment = (bytes: number) => new Blob([new Uint8Array(bytes)])
const append = (form: Readonly<Record<string, string | Blob>>, input: Omit<XRules.Append, "mediaId" | "tooLarge">): Breaking => ({
  sent: (upload) => ({ path: `/2/media/upload/${upload}/append`, form }),
  input: (upload) => ({ ...input, mediaId: upload, tooLarge: false })
})

/** For each call, each rule (by its words) and a request breaking it and no other. */
const examples: Record<string, Record<string, Breaking>> = {
  "POST /2/tweets": {
    "a JSON object body": json("/2/tweets", ["hello"]),
    "only the fields CreatePostsRequest lists": json("/2/tweets", { text: "hello", tweet_text: "hello" }),
    "text a string": json("/2/tweets", { text: 42 }),
    "text, unless media is provided": json("/2/tweets", { text: "  " }),
    [XRules.tooLong.rule]: json("/2/tweets", { text: "a".repeat(281) }),
    "media an object with media_ids and only the fields CreatePostsMedia lists": json("/2/tweets", {
      text: "hello",
      media: { media_ids: [digits], alt_text: "a cat" }
    }),
    "media.media_ids an array of 1 to 4 ids": json("/2/tweets", { text: "hello", media: { media_ids: ["1", "2", "3", "4", "5"] } }),
    "each of media.media_ids 1 to 19 digits": json("/2/tweets", { text: "hello", media: { media_ids: ["abc"] } }),
    "reply an object with in_reply_to_tweet_id and only the fields CreatePostsReply lists": json("/2/tweets", {
      text: "hello",
      reply: { in_reply_to_status_id: digits }
    }),
    "reply.in_reply_to_tweet_id 1 to 19 digits": json("/2/tweets", { text: "hello", reply: { in_reply_to_tweet_id: "12345678901234567890" } })
  },
  "POST /2/media/upload": {
    "a JSON object body": json("/2/media/upload", "media"),
    "only the fields MediaUploadRequest lists (additional_owners, media, media_category)": json("/2/media/upload", {
      media: "AAAA",
      media_category: "tweet_image",
      media_type: "image/jpeg"
    }),
    "media required, base64 in a JSON body": json("/2/media/upload", { media: "not base64!", media_category: "tweet_image" }),
    "media_category required, one of tweet_image, tweet_video, tweet_gif, dm_image, dm_video, dm_gif, subtitles": json(
      "/2/media/upload",
      { media: "AAAA" }
    )
  },
  "POST /2/media/upload/initialize": {
    "a JSON object body": json("/2/media/upload/initialize", null),
    "only the fields InitializeMediaUploadRequest lists": json("/2/media/upload/initialize", { total_bytes: 10, command: "INIT" }),
    "media_type one of the 15 types the schema lists (video/mp4, image/jpeg, …)": json("/2/media/upload/initialize", {
      media_type: "video/x-matroska",
      total_bytes: 10
    }),
    "media_category one of amplify_video, tweet_image, tweet_video, tweet_gif, dm_image, dm_video, dm_gif, subtitles": json(
      "/2/media/upload/initialize",
      { media_type: "video/mp4", total_bytes: 10, media_category: "video" }
    ),
    "total_bytes an integer from 0 to 17179869184": json("/2/media/upload/initialize", { media_type: "video/mp4", total_bytes: 17_179_869_185 })
  },
  "POST /2/media/upload/{id}/append": {
    "a chunk of at most 5000000 bytes, raw or base64": {
      sent: (upload) => ({ path: `/2/media/upload/${upload}/append`, form: { segment_index: "0", media: segment(5_000_001) } }),
      input: (upload) => ({ tooLarge: true, mediaId: upload, segmentIndex: undefined, mediaBytes: undefined, otherFields: [] })
    },
    "the media id in the path 1 to 19 digits": {
      sent: () => ({ path: "/2/media/upload/abc/append", form: { segment_index: "0", media: segment(10) } }),
      input: () => ({ tooLarge: false, mediaId: "abc", segmentIndex: "0", mediaBytes: 10, otherFields: [] })
    },
    "only media and segment_index (AppendMediaUploadRequest)": append(
      { segment_index: "0", media: segment(10), command: "APPEND" },
      { segmentIndex: "0", mediaBytes: 10, otherFields: ["command"] }
    ),
    "media required and not empty": append({ segment_index: "0" }, { segmentIndex: "0", mediaBytes: undefined, otherFields: [] }),
    "segment_index required, an integer from 0 to 999": append(
      { segment_index: "1000", media: segment(10) },
      { segmentIndex: "1000", mediaBytes: 10, otherFields: [] }
    )
  },
  "POST /2/media/upload/{id}/finalize": {
    "the media id in the path 1 to 19 digits": { sent: () => ({ path: "/2/media/upload/media-1/finalize" }), input: () => "media-1" }
  },
  "GET /2/media/upload": {
    "media_id required, 1 to 19 digits": { sent: () => ({ method: "GET", path: "/2/media/upload?command=STATUS" }), input: () => ({ command: "STATUS" }) },
    "command, when given, STATUS": {
      sent: (upload) => ({ method: "GET", path: `/2/media/upload?command=INIT&media_id=${upload}` }),
      input: (upload) => ({ command: "INIT", media_id: upload })
    }
  },
  "POST /2/media/metadata": {
    "a JSON object body": json("/2/media/metadata", 7),
    "id required, 1 to 19 digits": json("/2/media/metadata", { metadata: { alt_text: { text: "a cat" } } }),
    "metadata.alt_text an object with text, a string": json("/2/media/metadata", { id: digits, metadata: { alt_text: "a cat" } }),
    "metadata.alt_text.text of at most 1,000 characters": json("/2/media/metadata", { id: digits, metadata: { alt_text: { text: "é".repeat(1_001) } } })
  },
  "POST /2/dm_conversations/{dm_conversation_id}/messages": {
    "a JSON object body": json("/2/dm_conversations/1-2/messages", "hello"),
    "only text and attachments (CreateDirectMessagesByConversationIdRequest)": json("/2/dm_conversations/1-2/messages", {
      text: "hello",
      event_type: "MessageCreate"
    }),
    "at least one of text and attachments": json("/2/dm_conversations/1-2/messages", {}),
    "text a string of at least 1 character": json("/2/dm_conversations/1-2/messages", { text: "" }),
    "attachments an array of objects whose media_id is 1 to 19 digits": json("/2/dm_conversations/1-2/messages", {
      attachments: [{ media_id: "photo" }]
    })
  }
}

const send = (root: string, token: string, sent: Sent) =>
  Effect.promise(async () => {
    const form = sent.form === undefined ? undefined : new FormData()
    for (const [key, value] of Object.entries(sent.form ?? {})) form!.append(key, value)
    const response = await fetch(`${root}${sent.path}`, {
      method: sent.method ?? "POST",
      headers: {
        authorization: `Bearer ${token}`,
        ...(sent.body === undefined ? {} : { "content-type": "application/json" })
      },
      ...(form !== undefined ? { body: form } : sent.body === undefined ? {} : { body: JSON.stringify(sent.body) })
    })
    return { status: response.status, body: await response.json() as Record<string, unknown> }
  })

const connected = Effect.gen(function*() {
  const ctx = yield* AdapterSuite.Harness
  const { account } = yield* AdapterSuite.connect(ctx)
  return { ctx, account, root: `${ctx.baseUrl}/sandbox/x`, token: Redacted.value(account.accessToken) }
})

const data = (answer: { readonly body: Record<string, unknown> }) => answer.body["data"] as Record<string, unknown>

AdapterSuite.withHarness({ makeAdapter: XAdapter.make, makeSimulator: XSimulator.simulator })("x rules", (it) => {
  it("has a breaking example for every rule of the table, and none for a rule it lacks", () => {
    const table = Object.fromEntries(XRules.rules.map(({ call, rules }) => [call, rules.map(({ rule }) => rule)]))
    assert.deepStrictEqual(
      Object.fromEntries(Object.entries(examples).map(([call, rules]) => [call, Object.keys(rules)])),
      table
    )
  })

  it.effect("refuses each request that breaks one rule, with X's problem and the rule's words", () =>
    Effect.gen(function*() {
      const { root, token } = yield* connected
      const started = yield* send(root, token, { path: "/2/media/upload/initialize", body: { media_type: "video/mp4", total_bytes: 10 } })
      const upload = data(started)["id"] as string
      for (const call of XRules.rules as ReadonlyArray<SimulatorRules.Call<unknown>>) {
        for (const rule of call.rules) {
          const example = examples[call.call]![rule.rule]!
          const broken = SimulatorRules.refusal(call, example.input(upload))
          assert.strictEqual(broken?.rule, rule, `${call.call}: the example breaks "${rule.rule}" first`)
          const answer = yield* send(root, token, example.sent(upload))
          const forbidden = rule === XRules.tooLong
          assert.deepStrictEqual(answer, {
            status: forbidden ? 403 : 400,
            body: {
              title: forbidden ? "Forbidden" : "Invalid Request",
              detail: broken!.message,
              type: forbidden ? "about:blank" : "https://api.x.com/2/problems/invalid-request",
              status: forbidden ? 403 : 400
            }
          }, `${call.call}: ${rule.rule}`)
        }
      }
    }))

  it.effect("takes requests that keep every rule: a photo with alt text posted, a video uploaded in segments, a message", () =>
    Effect.gen(function*() {
      const { ctx, account, root, token } = yield* connected
      const photo = yield* send(root, token, { path: "/2/media/upload", body: { media: "/9j/4AAQ", media_category: "tweet_image" } })
      assert.strictEqual(photo.status, 200)
      const photoId = data(photo)["id"] as string
      const described = yield* send(root, token, { path: "/2/media/metadata", body: { id: photoId, metadata: { alt_text: { text: "é".repeat(1_000) } } } })
      assert.strictEqual(described.status, 200)
      const posted = yield* send(root, token, { path: "/2/tweets", body: { media: { media_ids: [photoId] } } })
      assert.strictEqual(posted.status, 201)
      const reply = yield* send(root, token, {
        path: "/2/tweets",
        body: { text: "界".repeat(140), reply: { in_reply_to_tweet_id: data(posted)["id"] } }
      })
      assert.strictEqual(reply.status, 201)

      const started = yield* send(root, token, {
        path: "/2/media/upload/initialize",
        body: { media_type: "video/mp4", total_bytes: 20, media_category: "tweet_video" }
      })
      const video = data(started)["id"] as string
      for (const index of ["0", "999"]) {
        const appended = yield* send(root, token, { path: `/2/media/upload/${video}/append`, form: { segment_index: index, media: segment(10) } })
        assert.strictEqual(appended.status, 200)
      }
      assert.strictEqual((yield* send(root, token, { path: `/2/media/upload/${video}/finalize` })).status, 200)
      assert.strictEqual((yield* send(root, token, { method: "GET", path: `/2/media/upload?media_id=${video}` })).status, 200)

      yield* AdapterSuite.control(ctx, "messages", { username: account.username, author: "dan", text: "Hello" })
      const conversation = ctx.simulator.state.messagesAfter(account.networkAccountId, 0)[0]!.conversationId
      const sent = yield* send(root, token, { path: `/2/dm_conversations/${conversation}/messages`, body: { text: "Hi Dan" } })
      assert.strictEqual(sent.status, 201)
    }))
})
