import { assert } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { SimulatorRules } from "@herald/adapter-kit"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { YouTubeAdapter, YouTubeRules, YouTubeSimulator } from "../src/index.ts"
import * as Videos from "./videos.ts"

// Every rule of YouTube's table, broken on its own by a request sent to the simulator over HTTP, is refused
// with Google's answer (status, error.code, error.message, errors[0] with the reason and domain, the
// status text); a request that keeps them all is accepted. Each rule has its breaking example here, found
// by the rule's words: a rule added without one, or one whose check is removed, fails.

type Json = Readonly<Record<string, unknown>>
type Query = Readonly<Record<string, string | undefined>>

/** A request to the simulator: a path under it (or a session's whole address), its query, headers and body. */
interface Sent {
  readonly method: "GET" | "POST" | "PUT"
  readonly path: string
  readonly query: Query
  readonly headers: Readonly<Record<string, string>>
  readonly body?: unknown
}

/** What the examples work on: a finished video with a top-level comment, and an open upload session. */
interface Fixture {
  readonly channelId: string
  readonly videoId: string
  readonly commentId: string
  readonly session: string
}

interface Case {
  readonly call: YouTubeRules.Call<never>
  readonly valid: (fixture: Fixture) => Sent
  /** What the simulator reads of a request: the rules' input. */
  readonly input: (sent: Sent) => unknown
  readonly breaking: Readonly<Record<string, (valid: Sent) => Sent>>
}

const withField = SimulatorRules.withField
const withBody = (sent: Sent, path: string, value: unknown): Sent => ({ ...sent, body: withField(sent.body as Json, path, value) })
const withQuery = (sent: Sent, name: string, value: string | undefined): Sent => ({ ...sent, query: { ...sent.query, [name]: value } })
const withHeader = (sent: Sent, name: string, value: string | undefined): Sent => {
  const { [name]: _, ...others } = sent.headers
  return { ...sent, headers: value === undefined ? others : { ...others, [name]: value } }
}
const bytesOf = (sent: Sent) => sent.body instanceof Uint8Array ? sent.body.length : 0

const video = Videos.fixture

const metadata = {
  snippet: {
    title: "界".repeat(99) + "a",
    // 4,960 bytes, and the start's own id after it: under the 5,000.
    description: "é".repeat(2_480),
    tags: ["cats", "two cats"],
    categoryId: "22"
  },
  status: { privacyStatus: "unlisted", selfDeclaredMadeForKids: false }
}

const startSession = (fixture?: Fixture): Sent => ({
  method: "POST",
  path: "/upload/youtube/v3/videos",
  query: { uploadType: "resumable", part: "snippet,status" },
  headers: {
    "content-type": "application/json; charset=UTF-8",
    "x-upload-content-type": "video/mp4",
    "x-upload-content-length": String(video.length)
  },
  body: { ...metadata, snippet: { ...metadata.snippet, description: `${metadata.snippet.description} ${fixture?.videoId ?? Date.now()}` } }
})

/** A list call's case: its valid query, and the part and filter rules broken by removing and misnaming. */
const listCase = (call: YouTubeRules.Call<never>, path: string, query: (fixture: Fixture) => Query, filters: ReadonlyArray<string>): Case => {
  const [required, known, filter] = call.rules.map((rule) => rule.rule)
  return {
    call,
    valid: (fixture) => ({ method: "GET", path, query: query(fixture), headers: {} }),
    input: (sent) => ({ query: sent.query }),
    breaking: {
      [required!]: (valid) => withQuery(valid, "part", undefined),
      [known!]: (valid) => withQuery(valid, "part", `${valid.query["part"]},statistic`),
      [filter!]: (valid) => filters.reduce((sent, name) => withQuery(sent, name, undefined), valid)
    }
  }
}

const cases: ReadonlyArray<Case> = [
  {
    call: YouTubeRules.insertVideo,
    valid: startSession,
    input: (sent) => ({ query: sent.query, headers: sent.headers, body: sent.body }),
    breaking: {
      "`part` is given": (valid) => withQuery(valid, "part", ""),
      "each `part` is one of contentDetails, fileDetails, id, liveStreamingDetails, localizations, paidProductPlacementDetails, player, processingDetails, recordingDetails, snippet, statistics, status, suggestions, topicDetails":
        (valid) => withQuery(valid, "part", "snippet,privacy"),
      "the body is a video resource (a JSON object)": (valid) => ({ ...valid, body: ["snippet"] }),
      "`snippet.title` is given, a string that is not blank": (valid) => withBody(valid, "snippet.title", "  "),
      "`snippet.title` is at most 100 characters": (valid) => withBody(valid, "snippet.title", "😀".repeat(101)),
      "`snippet.title` has no < or >": (valid) => withBody(valid, "snippet.title", "cats <3"),
      "`snippet.description` is a string of at most 5000 bytes in UTF-8": (valid) => withBody(valid, "snippet.description", "é".repeat(2_501)),
      "`snippet.description` has no < or >": (valid) => withBody(valid, "snippet.description", "a > b"),
      "`snippet.tags` is a list of strings of at most 500 characters in all (commas between them count, and quotes around a tag with a space)":
        // 49 tags of 9 characters, "two  cats" counted 11 with its quotes, 49 commas between: 501.
        (valid) => withBody(valid, "snippet.tags", [...Array.from({ length: 49 }, () => "abcdefghi"), "two  cats"]),
      "`snippet.categoryId` is the id of a category videos can be put in (videoCategories.list, assignable)": (valid) =>
        withBody(valid, "snippet.categoryId", "18"),
      "`status.privacyStatus` is public, private or unlisted": (valid) => withBody(valid, "status.privacyStatus", "Public"),
      "`status.selfDeclaredMadeForKids` is a boolean": (valid) => withBody(valid, "status.selfDeclaredMadeForKids", "false"),
      "`X-Upload-Content-Type`, when sent, is video/* or application/octet-stream": (valid) =>
        withHeader(valid, "x-upload-content-type", "image/png"),
      "`X-Upload-Content-Length` is the video's size, a whole number of bytes above zero": (valid) =>
        withHeader(valid, "x-upload-content-length", undefined),
      "`X-Upload-Content-Length` is at most 274877906944 bytes (256 GB)": (valid) =>
        withHeader(valid, "x-upload-content-length", String(256 * 1024 ** 3 + 1))
    }
  },
  {
    call: YouTubeRules.uploadBytes,
    valid: (fixture) => ({ method: "PUT", path: fixture.session, query: {}, headers: { "content-type": "video/mp4" }, body: video }),
    input: (sent) => ({ contentRange: sent.headers["content-range"], bytes: bytesOf(sent), announced: video.length }),
    breaking: {
      "`Content-Range`, when sent, is `bytes */{total}` or `bytes {first}-{last}/{total}`, its total the announced size and its range the body's bytes":
        (valid) => withHeader(valid, "content-range", `bytes 0-${video.length - 1}/${video.length + 1}`),
      "the body carries the announced `X-Upload-Content-Length` bytes (the sandbox takes an upload in one request)": (valid) => ({
        ...valid,
        body: video.subarray(1)
      })
    }
  },
  {
    call: YouTubeRules.setThumbnail,
    valid: (fixture) => ({
      method: "POST",
      path: "/upload/youtube/v3/thumbnails/set",
      query: { videoId: fixture.videoId },
      headers: { "content-type": "application/octet-stream" },
      body: new Uint8Array(YouTubeRules.maxThumbnailBytes)
    }),
    input: (sent) => ({ query: sent.query, contentType: sent.headers["content-type"], bytes: bytesOf(sent) }),
    breaking: {
      "`videoId` is given": (valid) => withQuery(valid, "videoId", undefined),
      "the body holds the image": (valid) => ({ ...valid, body: new Uint8Array(0) }),
      "the image is image/jpeg, image/png or application/octet-stream": (valid) => withHeader(valid, "content-type", "image/gif"),
      "the image is at most 2 MB (2097152 bytes)": (valid) => ({ ...valid, body: new Uint8Array(YouTubeRules.maxThumbnailBytes + 1) })
    }
  },
  {
    call: YouTubeRules.insertComment,
    valid: (fixture) => ({
      method: "POST",
      path: "/youtube/v3/comments",
      query: { part: "snippet" },
      headers: { "content-type": "application/json" },
      body: { snippet: { parentId: fixture.commentId, textOriginal: "😀".repeat(10_000) } }
    }),
    input: (sent) => ({ query: sent.query, body: sent.body }),
    breaking: {
      "`part` is given": (valid) => withQuery(valid, "part", undefined),
      "each `part` is one of id, snippet": (valid) => withQuery(valid, "part", "snippet,replies"),
      "`snippet.parentId` is given": (valid) => withBody(valid, "snippet.parentId", undefined),
      "`snippet.textOriginal` is given and not blank": (valid) => withBody(valid, "snippet.textOriginal", "\n"),
      "`snippet.textOriginal` is at most 10000 characters": (valid) => withBody(valid, "snippet.textOriginal", "a".repeat(10_001))
    }
  },
  listCase(YouTubeRules.listChannels, "/youtube/v3/channels", () => ({ part: "snippet,contentDetails,status", mine: "true" }), ["mine"]),
  listCase(YouTubeRules.listVideos, "/youtube/v3/videos", (fixture) => ({ part: "processingDetails,status", id: fixture.videoId }), ["id"]),
  listCase(
    YouTubeRules.listPlaylistItems,
    "/youtube/v3/playlistItems",
    (fixture) => ({ part: "snippet", playlistId: `UU${fixture.channelId}`, maxResults: "50" }),
    ["playlistId"]
  ),
  listCase(
    YouTubeRules.listCommentThreads,
    "/youtube/v3/commentThreads",
    (fixture) => ({ part: "snippet,replies", allThreadsRelatedToChannelId: fixture.channelId, order: "time", maxResults: "100" }),
    ["allThreadsRelatedToChannelId"]
  ),
  listCase(YouTubeRules.listComments, "/youtube/v3/comments", (fixture) => ({ part: "snippet", parentId: fixture.commentId }), ["parentId"])
]

interface Answer {
  readonly status: number
  readonly location: string | null
  readonly body: { readonly error?: { code: number; message: string; errors: Array<Json>; status: string } } & Json
}

const send = (root: string, token: Redacted.Redacted<string>, sent: Sent) =>
  Effect.promise(async (): Promise<Answer> => {
    const url = new URL(sent.path.startsWith("http") ? sent.path : `${root}${sent.path}`)
    for (const [name, value] of Object.entries(sent.query)) if (value !== undefined) url.searchParams.set(name, value)
    const body = sent.body instanceof Uint8Array ? sent.body : sent.body === undefined ? undefined : JSON.stringify(sent.body)
    const response = await fetch(url, {
      method: sent.method,
      headers: { authorization: `Bearer ${Redacted.value(token)}`, ...sent.headers },
      ...(body === undefined ? {} : { body })
    })
    const text = await response.text()
    return { status: response.status, location: response.headers.get("location"), body: text === "" ? {} : JSON.parse(text) }
  })

const prepare = Effect.gen(function*() {
  const context = yield* AdapterSuite.Harness
  const { account } = yield* AdapterSuite.connect(context)
  const root = `${context.baseUrl}/sandbox/youtube`
  const token = account.accessToken
  const started = yield* send(root, token, startSession())
  const uploaded = yield* send(root, token, { method: "PUT", path: started.location!, query: {}, headers: {}, body: video })
  const videoId = uploaded.body["id"] as string
  const comment = context.simulator.state.addComment({
    accountId: account.networkAccountId,
    author: { username: "a_viewer" },
    text: "Nice cats",
    postId: videoId
  })
  const session = (yield* send(root, token, startSession())).location!
  const fixture: Fixture = { channelId: account.networkAccountId, videoId, commentId: comment.id, session }
  return { root, token, fixture }
})

AdapterSuite.withHarness({ makeAdapter: YouTubeAdapter.make, makeSimulator: YouTubeSimulator.simulator })("YouTube's rules", (it) => {
  it.effect("every call's rule has a breaking example, and every example a rule", () =>
    Effect.sync(() => {
      assert.deepStrictEqual(cases.map((entry) => entry.call.call), YouTubeRules.rules.map((entry) => entry.call))
      for (const entry of cases) {
        assert.deepStrictEqual(Object.keys(entry.breaking), entry.call.rules.map((rule) => rule.rule), entry.call.call)
      }
    }))

  it.effect("refuses a request that breaks a rule, with Google's answer", () =>
    Effect.gen(function*() {
      const { root, token, fixture } = yield* prepare
      for (const entry of cases) {
        const rules = entry.call.rules as ReadonlyArray<YouTubeRules.Rule<unknown>>
        for (const rule of rules) {
          const sent = entry.breaking[rule.rule]!(entry.valid(fixture))
          const input = entry.input(sent)
          const broken = rules.filter((candidate) => candidate.check(input) !== undefined)
          assert.deepStrictEqual(broken.map((candidate) => candidate.rule), [rule.rule], `the example breaks only "${rule.rule}"`)
          const message = rule.check(input)!
          const answer = yield* send(root, token, sent)
          const { status, reason, domain, statusText } = rule.answer
          assert.deepStrictEqual(answer.status, status, rule.rule)
          assert.deepStrictEqual(answer.body, {
            error: { code: status, message, errors: [{ message, domain, reason }], status: statusText }
          }, `${entry.call.call}: ${rule.rule}`)
        }
      }
    }))

  it.effect("accepts requests that keep every rule", () =>
    Effect.gen(function*() {
      const { root, token, fixture } = yield* prepare
      for (const entry of cases) {
        const answer = yield* send(root, token, entry.valid(fixture))
        assert.include([200, 201], answer.status, `${entry.call.call}: ${JSON.stringify(answer.body).slice(0, 200)}`)
      }
    }))
})
