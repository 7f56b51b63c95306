import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import type { youtube_v3 } from "@googleapis/youtube"
import { Effect, Layer, Redacted } from "effect"
import { HttpClient, HttpClientResponse } from "effect/http"
import * as Request from "../src/internal/request.ts"
import * as YouTubeClient from "../src/YouTubeClient.ts"
import * as YouTubeConfig from "../src/YouTubeConfig.ts"

// The calls the adapter makes, held to Google's discovery document of the YouTube Data API v3 as the
// official @googleapis/youtube 39.0.0 ships it: every query parameter the client sends is one the method
// lists (its `Params$Resource$…` declaration, or a standard parameter), every parameter it requires
// (`requiredParams` in build/v3.js) is sent, and the bodies fit the discovery's resource types. The
// package's client is not run (its googleapis-common is left out, see pnpm-workspace.yaml): its files are
// read as text and its types checked by `pnpm typecheck`.

const build = join(dirname(createRequire(import.meta.url).resolve("@googleapis/youtube/package.json")), "build")
const declarations = readFileSync(join(build, "v3.d.ts"), "utf8")
const methods = readFileSync(join(build, "v3.js"), "utf8")

/** The fields an interface of v3.d.ts declares (its members sit at eight spaces). */
const fieldsOf = (name: string): ReadonlyArray<string> => {
  const start = [`export interface ${name} `, `interface ${name} `].map((head) => declarations.indexOf(`    ${head}`)).find((at) => at >= 0) ?? -1
  assert.isAtLeast(start, 0, `v3.d.ts declares ${name}`)
  const body = declarations.slice(start, declarations.indexOf("\n    }\n", start))
  return [...body.matchAll(/^ {8}([A-Za-z_$.]+)\??:/gm)].map((match) => match[1]!).filter((field) => field !== "requestBody" && field !== "media")
}

/** `requiredParams` of the method v3.js sends as `method` to `path` (its media path for an upload). */
const requiredOf = (method: string, path: string): ReadonlyArray<string> => {
  const found = [...methods.matchAll(/url: \(rootUrl \+ '([^']+)'\)[^]*?method: '([A-Z]+)'[^]*?(?:mediaUrl: \(rootUrl \+ '([^']+)'\)[^]*?)?requiredParams: \[([^\]]*)\]/g)]
    .find((match) => match[2] === method && (match[3] ?? match[1]) === path)
  assert.isDefined(found, `v3.js has ${method} ${path}`)
  return [...found![4]!.matchAll(/'([^']+)'/g)].map((match) => match[1]!)
}

/** Each address the client calls, and the discovery method that answers it. */
const discovered: Record<string, string> = {
  "GET /youtube/v3/channels": "Params$Resource$Channels$List",
  "POST /upload/youtube/v3/videos": "Params$Resource$Videos$Insert",
  "POST /upload/youtube/v3/thumbnails/set": "Params$Resource$Thumbnails$Set",
  "GET /youtube/v3/videos": "Params$Resource$Videos$List",
  "GET /youtube/v3/playlistItems": "Params$Resource$Playlistitems$List",
  "GET /youtube/v3/commentThreads": "Params$Resource$Commentthreads$List",
  "GET /youtube/v3/comments": "Params$Resource$Comments$List",
  "POST /youtube/v3/comments": "Params$Resource$Comments$Insert"
}

const config = YouTubeConfig.realConfig("client-id", Redacted.make("client-secret"))
const media = "https://herald.example/media/"
const session = "https://www.googleapis.com/upload/youtube/v3/videos?uploadType=resumable&upload_id=abc"

/** A fake Google that answers every call and records the Data API's. */
const recording = (seen: Array<{ readonly call: string; readonly query: URLSearchParams }>) =>
  Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request, url) => {
      const answer = (body: unknown, headers: Record<string, string> = {}) =>
        Effect.succeed(HttpClientResponse.fromWeb(request, new Response(JSON.stringify(body), { headers })))
      if (url.href.startsWith(media)) return Effect.succeed(HttpClientResponse.fromWeb(request, new Response(new Uint8Array(4))))
      // The session address is the one Google handed out, not a discovery method.
      if (url.href !== session) seen.push({ call: `${request.method} ${url.pathname}`, query: url.searchParams })
      if (request.method === "POST" && url.pathname === "/upload/youtube/v3/videos") return answer({}, { location: session })
      if (url.pathname === "/youtube/v3/comments" && request.method === "POST") {
        return answer({ id: "reply", snippet: { publishedAt: "2026-12-03T00:00:00Z" } })
      }
      return answer({ id: "video", items: [] })
    })
  )

const post = AdapterSuite.post({ text: "A video", media: [], title: "A title" })

describe("youtube calls and the discovery document", () => {
  it.effect("send only the parameters each method lists, and every one it requires", () =>
    Effect.gen(function*() {
      const seen: Array<{ readonly call: string; readonly query: URLSearchParams }> = []
      const token = Redacted.make("token")
      const client = yield* YouTubeClient.make(config).pipe(Effect.provide(recording(seen)))
      yield* client.channel(token, "contentDetails")
      yield* client.uploadVideo(token, Request.metadata(post), { url: `${media}video.mp4`, mimeType: "video/mp4", bytes: 4 })
      yield* client.setThumbnail(token, "video", { url: `${media}thumb.jpg`, mimeType: "image/jpeg", bytes: 4 })
      yield* client.videoStatus(token, "video")
      yield* client.playlistItems(token, "UUchannel")
      yield* client.commentThreads(token, "channel", "next")
      yield* client.replies(token, "parent")
      yield* client.reply(token, "parent", "Thanks")

      assert.deepStrictEqual([...new Set(seen.map(({ call }) => call))].sort(), Object.keys(discovered).sort())
      const standard = fieldsOf("StandardParameters")
      for (const { call, query } of seen) {
        const listed = [...fieldsOf(discovered[call]!), ...standard]
        for (const name of query.keys()) assert.include(listed, name, `${call} sends ${name}`)
        const [method, path] = call.split(" ") as [string, string]
        for (const name of requiredOf(method, path)) assert.isTrue(query.has(name), `${call} lacks ${name}`)
      }
    }))
})

type RequiredKeys<T> = { [Key in keyof T]-?: object extends Pick<T, Key> ? never : Key }[keyof T]

/** Whether every field of `Body` is one of the discovery's `Resource`, recursively, with a value it takes. */
type Within<Body, Resource> = [Body] extends [object]
  ? [Exclude<keyof Body, keyof Resource> | Exclude<RequiredKeys<Resource>, keyof Body>] extends [never]
    ? false extends { [Key in keyof Body]-?: Key extends keyof Resource ? Within<Body[Key], NonNullable<Resource[Key]>> : false }[keyof Body]
      ? false
      : true
    : false
  : [Body] extends [Resource] ? true
  : false

// `pnpm typecheck` fails here when a body names a field the discovery's resource does not have.
export const bodies: {
  readonly video: Within<Request.VideoMetadata, youtube_v3.Schema$Video>
  readonly reply: Within<ReturnType<typeof Request.replyBody>, youtube_v3.Schema$Comment>
  readonly misnamed: Within<{ snippet: { title: string; privacy: string } }, youtube_v3.Schema$Video>
} = { video: true, reply: true, misnamed: false }
