import { Effect, Option, Stream } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { ApiError } from "@herald/api"
import { Media } from "@herald/core"

// `GET /media/<id>.<ext>` and `GET /media/<id>.preview.jpg`: public by URL, because networks fetch the files
// themselves when a post goes out; media ids are random enough not to be guessed. A stored file never
// changes, so it may be cached for good, and its name is a strong validator. The bytes stream from wherever
// the core keeps them (the data folder, or PostgreSQL, which every process reaches), a range reading only
// what it covers.

const cacheControl = "public, max-age=31536000, immutable"

type ByteRange = { readonly start: number; readonly end: number } | "unsatisfiable" | undefined

/**
 * The one byte range a `Range` header asks for (inclusive ends), `"unsatisfiable"`, or undefined to send the
 * whole file. Several ranges, other units and malformed values are ignored, as RFC 9110 §14.2 allows.
 */
const parseRange = (header: string | undefined, size: number): ByteRange => {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (match === null) return undefined
  const [, first = "", last = ""] = match
  if (first === "") {
    if (last === "") return undefined
    const suffix = Number(last)
    return suffix === 0 ? "unsatisfiable" : { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(first)
  if (start >= size) return "unsatisfiable"
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1)
  return end < start ? undefined : { start, end }
}

const json = (status: number, code: ApiError.Code, message: string, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe(ApiError.body(code, message), { status, headers })

const serveFile = Effect.gen(function*() {
  const media = yield* Media.Media
  const request = yield* HttpServerRequest.HttpServerRequest
  const name = (yield* HttpRouter.params)["file"] ?? ""
  const dot = name.indexOf(".")
  const found = dot === -1 ? Option.none() : yield* Effect.orDie(media.file(name.slice(0, dot), name.slice(dot + 1)))
  if (Option.isNone(found)) return json(404, "not_found", `No media file ${name}`)
  const file = found.value
  const etag = `"${name}"`
  // Served as what it was checked to be at upload, never sniffed as another type, and never run as a page of
  // Herald's origin if opened (issue 28).
  const headers = {
    "cache-control": cacheControl,
    "accept-ranges": "bytes",
    etag,
    "x-content-type-options": "nosniff",
    "content-security-policy": "sandbox"
  }
  if (request.headers["if-none-match"]?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) {
    return HttpServerResponse.empty({ status: 304, headers })
  }
  // A range is only honoured for the version the client already holds part of.
  const ifRange = request.headers["if-range"]
  const range = ifRange === undefined || ifRange === etag ? parseRange(request.headers["range"], file.bytes) : undefined
  if (range === "unsatisfiable") {
    return json(416, "invalid", `The requested range is outside the file's ${file.bytes} bytes`, {
      "content-range": `bytes */${file.bytes}`
    })
  }
  const { start, end } = range ?? { start: 0, end: file.bytes - 1 }
  // HEAD answers the same headers without reading a byte of the file.
  const body = request.method === "HEAD" || file.bytes === 0 ? Stream.empty : file.read(start, end)
  return HttpServerResponse.stream(body, {
    status: range === undefined ? 200 : 206,
    contentType: file.contentType,
    contentLength: end - start + 1,
    headers: range === undefined ? headers : { ...headers, "content-range": `bytes ${start}-${end}/${file.bytes}` }
  })
})

/** The route, for `Http.routes`; it needs `Media.Media`. */
export const layer = HttpRouter.add("GET", "/media/:file", serveFile)
