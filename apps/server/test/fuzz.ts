// Malformed requests for every operation of Herald's OpenAPI document, made by fast-check, and the property
// every answer must have: never a 5xx, and every error in the reference's shape. Used by the bounded run in
// the tests (Fuzz.test.ts) and the long run (bench/fuzz/run.ts).
import fc from "fast-check"
import { request as httpRequest } from "node:http"
import { ApiError } from "@herald/api"
import { type JsonSchema, type Operation, operations, resolve } from "./openapi.ts"

export interface FuzzRequest {
  readonly method: string
  /** Path and query, percent-encoded as sent. */
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | undefined
}

export interface FuzzAnswer {
  readonly status: number
  readonly contentType: string
  readonly text: string
}

export interface Context {
  /** The served OpenAPI document. */
  readonly document: JsonSchema
  /** A working API key. */
  readonly key: string
  /** Ids of real resources of the key's workspace, so some requests reach past "not found". */
  readonly ids: ReadonlyArray<string>
}

const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code))

/** Text that has hurt servers: NUL, lone surrogates, numbers as text, odd times, huge and empty strings. */
const nastyText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "\u0000", "a\u0000b", "\ud800", "x\udc00y", "\ud83d", "\ufffe", "\u202e", "", " ", "null", "true", "-1", "0", "1e309",
    "9".repeat(400), "%00", "../..", "<script>", "a".repeat(5_000), "2026-02-30T25:61:00Z", "2999-01-01T00:00:00Z",
    "1970-01-01T00:00:00Z", "2026-12-01T09:00:00", "pst_0000000000000000000000", "acc_0000000000000000", "x", "draft"
  ),
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.string({ unit: codeUnit, maxLength: 6 })
)

const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -1, 1, 1e308, -1e308, 2 ** 53 + 1, 2 ** 31, -(2 ** 31) - 1, 0.5, 720, 721),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true })
)

const anything: fc.Arbitrary<unknown> = fc.oneof(fc.jsonValue({ maxDepth: 2 }), nastyText, nastyNumber)

/** A value shaped like `schema`, with nasty leaves, missing or extra fields and now and then the wrong type. */
const valueFor = (document: JsonSchema, schema: JsonSchema | undefined, depth: number): fc.Arbitrary<unknown> => {
  const resolved = resolve(document, schema) ?? {}
  const variants = resolved.anyOf ?? resolved.oneOf
  if (Array.isArray(variants) && variants.length > 0) {
    return fc.oneof(...variants.map((variant: JsonSchema) => valueFor(document, variant, depth)))
  }
  if (Array.isArray(resolved.enum) && resolved.enum.length > 0) {
    return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...resolved.enum) }, { weight: 1, arbitrary: nastyText })
  }
  if (resolved.const !== undefined) return fc.oneof({ weight: 3, arbitrary: fc.constant(resolved.const) }, { weight: 1, arbitrary: anything })
  const types: ReadonlyArray<string> = Array.isArray(resolved.type) ? resolved.type : resolved.type === undefined ? [] : [resolved.type]
  if (types.length > 1) return fc.oneof(...types.map((type) => valueFor(document, { ...resolved, type }, depth)))
  const shaped = ((): fc.Arbitrary<unknown> => {
    switch (types[0]) {
      case "string":
        return nastyText
      case "number":
      case "integer":
        return nastyNumber
      case "boolean":
        return fc.boolean()
      case "null":
        return fc.constant(null)
      case "array":
        return depth > 3 ? fc.constant([]) : fc.array(valueFor(document, resolved.items, depth + 1), { maxLength: 4 })
      case "object": {
        const properties: Record<string, JsonSchema> = resolved.properties ?? {}
        const names = Object.keys(properties)
        if (names.length === 0 || depth > 3) return fc.dictionary(nastyText, anything, { maxKeys: 3 })
        return fc.record(
          Object.fromEntries(names.map((name) => [name, valueFor(document, properties[name], depth + 1)])),
          { requiredKeys: [] }
        )
      }
      default:
        return anything
    }
  })()
  return fc.oneof({ weight: 8, arbitrary: shaped }, { weight: 1, arbitrary: anything })
}

const deepNesting = "[".repeat(50_000) + "\"\\u0000\"" + "]".repeat(50_000)

/** The body text of a request to `operation`. */
const bodyFor = (document: JsonSchema, operation: Operation): fc.Arbitrary<string | undefined> => {
  const shaped = valueFor(document, operation.bodySchema, 0)
  const withExtra = fc.tuple(shaped, nastyText, anything).map(([value, name, extra]) =>
    typeof value === "object" && value !== null && !Array.isArray(value) ? { ...value, [name]: extra } : value
  )
  const json = fc.oneof({ weight: 6, arbitrary: shaped }, { weight: 1, arbitrary: withExtra }).map((value) => JSON.stringify(value))
  const form = fc.dictionary(fc.constantFrom(...operation.bodyFields, "note", "action"), nastyText, { maxKeys: 3 })
    .map((fields) => new URLSearchParams(fields).toString())
  const broken = fc.constantFrom(
    "{", "", "null", "[", "{\"a\":1e999}", "\"\\u0000\"", "{\"content\":\"\\ud800\"}", "\u0000", deepNesting, "{\"__proto__\":{\"x\":1}}"
  )
  return fc.oneof(
    { weight: operation.bodyTypes.length === 0 ? 1 : 12, arbitrary: operation.bodyTypes.includes("application/x-www-form-urlencoded") ? form : json },
    { weight: 1, arbitrary: broken },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
    { weight: operation.bodyTypes.length === 0 ? 12 : 1, arbitrary: fc.constant(undefined) }
  )
}

/** Percent-encodes the UTF-8 bytes of `text` (a lone surrogate goes as U+FFFD's bytes, as any client's would). */
export const percentEncode = (text: string) =>
  [...Buffer.from(text, "utf8")].map((byte) =>
    /[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`
  ).join("")

const rawSegments = ["%00", "%ED%A0%80", "%2F", "..", "%", "%zz", "x".repeat(300), "%C0%80", "%F0%9F%91%8B", ""]

const contentTypes = [
  "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=z", "application/json; charset=latin1",
  "application/xml", "image/png", "video/mp4", "application/json;;", "*/*", "application/merge-patch+json"
]

const printable = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 300 })

/** One malformed (or now and then well-formed) request to one of the operations. */
export const requests = (context: Context): fc.Arbitrary<FuzzRequest> => {
  const all = operations(context.document)
  const idLike = context.ids.length === 0 ? fc.constant("x") : fc.constantFrom(...context.ids)
  return fc.constantFrom(...all).chain((operation) => {
    const pathValue = fc.oneof(
      { weight: 4, arbitrary: idLike },
      { weight: 2, arbitrary: fc.constantFrom(...rawSegments) },
      { weight: 2, arbitrary: nastyText.map(percentEncode) }
    )
    const pathNames = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!)
    const queryNames = operation.parameters.filter((parameter) => parameter.in === "query").map((parameter) => parameter.name)
    const query = fc.array(
      fc.tuple(fc.constantFrom(...queryNames, "unknown", "limit", "cursor"), fc.oneof(nastyText.map(percentEncode), fc.constantFrom(...rawSegments))),
      { maxLength: 3 }
    )
    const declared = operation.bodyTypes.length === 0 ? "application/json" : operation.bodyTypes[0]!
    const contentType = fc.oneof(
      { weight: 6, arbitrary: fc.constant(declared) },
      { weight: 2, arbitrary: fc.constantFrom(...contentTypes) },
      { weight: 1, arbitrary: fc.constant(undefined) }
    )
    const authorization = fc.oneof(
      { weight: 18, arbitrary: fc.constant(`Bearer ${context.key}`) },
      { weight: 1, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: printable.map((text) => `Bearer ${text}`) }
    )
    const idempotencyKey = fc.option(printable.filter((text) => text.length > 0), { freq: 4 })
    return fc.record({
      segments: fc.tuple(...pathNames.map(() => pathValue)),
      query,
      body: bodyFor(context.document, operation),
      contentType,
      authorization,
      idempotencyKey
    }).map(({ authorization, body, contentType, idempotencyKey, query, segments }): FuzzRequest => {
      let index = 0
      const path = operation.path.replace(/\{[^}]+\}/g, () => segments[index++] ?? "x")
      const search = query.length === 0 ? "" : `?${query.map(([name, value]) => `${name}=${value}`).join("&")}`
      const headers: Record<string, string> = {}
      if (authorization !== undefined) headers["authorization"] = authorization
      if (body !== undefined && contentType !== undefined) headers["content-type"] = contentType
      if (idempotencyKey !== null) headers["idempotency-key"] = idempotencyKey
      return { method: operation.method, url: `${path}${search}`, headers, body }
    })
  })
}

/** `count` requests, the same ones for the same seed. */
export const sample = (context: Context, count: number, seed: number): ReadonlyArray<FuzzRequest> =>
  fc.sample(requests(context), { numRuns: count, seed })

/** Sends a request as given (no client-side normalising of the path or the body) and reads the answer. */
export const send = (base: string, request: FuzzRequest): Promise<FuzzAnswer> =>
  new Promise((resolveAnswer, reject) => {
    const target = new URL(base)
    const body = request.body === undefined ? undefined : Buffer.from(request.body, "utf8")
    const outgoing = httpRequest({
      host: target.hostname,
      port: target.port,
      method: request.method,
      path: request.url,
      headers: { ...request.headers, ...(body === undefined ? {} : { "content-length": String(body.length) }) },
      timeout: 30_000
    }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () =>
        resolveAnswer({
          status: response.statusCode ?? 0,
          contentType: String(response.headers["content-type"] ?? ""),
          text: Buffer.concat(chunks).toString("utf8")
        }))
      response.on("error", reject)
    })
    outgoing.on("timeout", () => outgoing.destroy(new Error("no answer within 30 s")))
    outgoing.on("error", reject)
    outgoing.end(body)
  })

/** Every code of the reference's error shape (storage faults' `unavailable` and `insufficient_storage` too). */
const codes: ReadonlySet<string> = new Set(ApiError.codes)

// Pages meant for a person's browser (a review link, an invitation, an OAuth callback) answer their errors as
// HTML pages; every other error is JSON in the reference's shape.
const browserPage = /^\/(review|invitations|oauth)\//

/** What is wrong with an answer, or `undefined`: never a 5xx; a 4xx in the error shape. */
export const judge = (request: FuzzRequest, answer: FuzzAnswer): string | undefined => {
  if (answer.status >= 500) return `answered ${answer.status}: ${answer.text.slice(0, 300)}`
  if (answer.status < 400) return undefined
  if (answer.contentType.startsWith("text/html") && browserPage.test(request.url)) return undefined
  const body = parse(answer.text)
  const error = typeof body === "object" && body !== null ? (body as { error?: any }).error : undefined
  if (typeof error !== "object" || error === null || !codes.has(error.code) || typeof error.message !== "string" || error.message === "") {
    return `answered ${answer.status} outside the error shape: ${answer.contentType} ${answer.text.slice(0, 300)}`
  }
  return undefined
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** A request as a line a person can replay with curl. */
export const describe = (request: FuzzRequest) =>
  `${request.method} ${request.url} ${JSON.stringify(request.headers)} ${request.body === undefined ? "" : JSON.stringify(request.body.slice(0, 400))}`
