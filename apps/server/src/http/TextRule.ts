import { Effect, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { ApiError, SchemaProblems } from "@herald/api"
import { SafeText } from "@herald/domain"

// Herald's text rule (packages/domain/src/SafeText.ts) for everything a client sends over HTTP, checked once
// for every route before it runs, so that no endpoint, present or future, can forget it: the path, the query,
// and JSON or form bodies (nested fields, arrays and field names too). Text breaking it is `invalid` (400),
// naming the field, before anything is read from or written to the database (docs/decisions/0009).
//
// NUL and lone surrogates reach a request only through escapes: `%00` in a URL or a form, `\u0000` or
// `\ud800` in JSON (raw control characters are not JSON, and the UTF-8 decoder turns bad bytes into U+FFFD).
// So requests without `%` or `\u` cost one substring search. Headers need nothing here: Node's parser refuses
// a NUL in them, and decodes them as Latin-1, which has no surrogates.
//
// Not checked here: MCP (its tool dispatcher answers a tool error instead, packages/mcp), and text from
// networks (network webhooks, the sandbox simulators), which the inbox repairs rather than refuses.

const exempt = (path: string) =>
  path === "/api/mcp" || path.startsWith("/sandbox/") || /^\/networks\/[^/]+\/webhook\/?$/.test(path)

const bodyMethods = new Set(["POST", "PUT", "PATCH", "DELETE"])

const refusal = (kind: "Params" | "Query" | "Payload", found: SafeText.Found) => {
  const { details, message } = SchemaProblems.formatTextProblem(kind, found)
  return HttpServerResponse.jsonUnsafe(ApiError.body("invalid", message, { details }), { status: 400 })
}

// A segment that is not valid percent-encoding matches no route; the router answers it 404.
const decodeSegment = Option.liftThrowable(decodeURIComponent)

// Every pair, repeated names included (an endpoint may read a repeated parameter as a list).
const findInPairs = (pairs: URLSearchParams): SafeText.Found | undefined => {
  for (const [name, value] of pairs) {
    const found = SafeText.find({ [name]: value })
    if (found !== undefined) return found
  }
  return undefined
}

const checkUrl = (url: string): HttpServerResponse.HttpServerResponse | undefined => {
  if (!url.includes("%")) return undefined
  const queryStart = url.indexOf("?")
  const path = queryStart === -1 ? url : url.slice(0, queryStart)
  for (const segment of path.split("/")) {
    if (!segment.includes("%")) continue
    const problem = Option.getOrUndefined(Option.map(decodeSegment(segment), SafeText.problem))
    if (problem !== undefined) return refusal("Params", { path: [], problem })
  }
  if (queryStart === -1) return undefined
  const found = findInPairs(new URLSearchParams(url.slice(queryStart + 1)))
  return found === undefined ? undefined : refusal("Query", found)
}

const parseJson = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Unknown))

const checkBody = (request: HttpServerRequest.HttpServerRequest) => {
  const contentType = (request.headers["content-type"] ?? "application/json").split(";")[0]!.trim().toLowerCase()
  const json = contentType === "application/json" || contentType.endsWith("+json")
  const form = contentType === "application/x-www-form-urlencoded"
  if (!json && !form) return Effect.succeed(undefined)
  // A body that cannot be read is left to the endpoint, which reads the same cached failure and answers it.
  return request.text.pipe(
    Effect.map((text) => {
      if (json) {
        if (!text.includes("\\u")) return undefined
        const value = parseJson(text)
        return Option.isNone(value) ? undefined : SafeText.find(value.value)
      }
      return text.includes("%") ? findInPairs(new URLSearchParams(text)) : undefined
    }),
    Effect.map((found) => found === undefined ? undefined : refusal("Payload", found)),
    Effect.orElseSucceed(() => undefined)
  )
}

const hasBody = (request: HttpServerRequest.HttpServerRequest) =>
  bodyMethods.has(request.method) &&
  (request.headers["transfer-encoding"] !== undefined ||
    (request.headers["content-length"] !== undefined && request.headers["content-length"] !== "0"))

/** The check, as a global middleware of the router (REST, review pages, OAuth callbacks, the admin socket). */
export const layer = HttpRouter.middleware(
  (httpEffect) =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const fromUrl = checkUrl(request.url)
      if (fromUrl !== undefined) return Effect.succeed(fromUrl)
      const path = request.url.split("?")[0]!
      if (!hasBody(request) || exempt(path)) return httpEffect
      return Effect.flatMap(checkBody(request), (refused) => refused === undefined ? httpEffect : Effect.succeed(refused))
    }),
  { global: true }
)
