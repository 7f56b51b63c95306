import { Context, Effect, Option, Stream } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { ApiError, MediaApi } from "@herald/api"
import { IdempotencyKeys } from "@herald/core"
import { createHash } from "node:crypto"

const methods = new Set(["POST", "PATCH", "DELETE"])
const keyPattern = /^[\x21-\x7e]{1,255}$/
// Dry runs save nothing, so a key on one is ignored rather than claimed: a client may send its save's key
// along (the console does) without the check using it up.
const dryRuns = new Set(["/api/v1/posts/validate"])

/**
 * Where a handler that streamed a raw body (an upload) reports the body's SHA-256, taken as it read it: the
 * key's repeats are then compared by content, without this layer holding or re-reading the first body.
 */
export class BodyDigest extends Context.Service<BodyDigest, {
  report(sha256: string): Effect.Effect<void>
}>()("@herald/server/Idempotency/BodyDigest") {}

/** Reports a raw body's SHA-256 to the request's `Idempotency-Key`, when it has one. */
export const reportBodyDigest = (sha256: string) =>
  Effect.flatMap(Effect.serviceOption(BodyDigest), Option.match({
    onNone: () => Effect.void,
    onSome: (digest) => digest.report(sha256)
  }))

// The repeat's own body, hashed as it streams and thrown away; one longer than any upload cannot match, and
// is not read past that.
const digestOf = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.suspend(() => {
    const hash = createHash("sha256")
    let read = 0
    return Stream.runForEach(request.stream, (chunk) => {
      read += chunk.length
      if (read > MediaApi.maxUploadBytes) return Effect.fail("too long" as const)
      hash.update(chunk)
      return Effect.void
    }).pipe(
      Effect.map(() => Option.some(hash.digest("hex"))),
      Effect.catchIf((error) => error === "too long", () => Effect.succeed(Option.none<string>())),
      Effect.orDie
    )
  })

/**
 * Runs a request under its `Idempotency-Key` (product.md, "Posts"): a repeat of the same request within 24
 * hours gets the first answer again (status and body, with `Idempotent-Replayed: true`); the same key with
 * another request is `conflict`. JSON bodies are compared byte for byte; uploads, which are not buffered
 * here, by their type and length first and then by the SHA-256 of their bytes (`BodyDigest`).
 */
export const run = <E, R>(
  keys: IdempotencyKeys.IdempotencyKeys["Service"],
  workspaceId: string,
  httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const key = request.headers["idempotency-key"]
    if (key === undefined || !methods.has(request.method) || dryRuns.has(request.url.split("?")[0] ?? "")) {
      return yield* httpEffect
    }
    if (!keyPattern.test(key)) {
      return yield* new ApiError.Invalid({ message: "Idempotency-Key must be 1 to 255 visible ASCII characters" })
    }
    const type = request.headers["content-type"] ?? ""
    const body = type.startsWith("application/json") || type === ""
      ? yield* Effect.orElseSucceed(request.text, () => "")
      : `${type};${request.headers["content-length"] ?? ""}`
    const hash = createHash("sha256").update(`${request.method} ${request.url}\n${body}`).digest("hex")
    const conflict = (error: IdempotencyKeys.IdempotencyMismatch) => new ApiError.Conflict({ message: error.message })
    const claim = yield* keys.claim(workspaceId, key, hash).pipe(
      Effect.catchTag("IdempotencyMismatch", (error) => Effect.fail(conflict(error)))
    )
    if (claim._tag === "Replay") {
      const expected = claim.answer.bodySha256
      if (expected !== null && !Option.contains(yield* digestOf(request), expected)) {
        return yield* conflict(IdempotencyKeys.IdempotencyMismatch.differentRequest(key))
      }
      return HttpServerResponse.text(claim.answer.body, {
        status: claim.answer.statusCode,
        contentType: "application/json",
        headers: { "idempotent-replayed": "true" }
      })
    }
    let bodySha256: string | null = null
    const reported = BodyDigest.of({
      report: (sha256) =>
        Effect.sync(() => {
          bodySha256 = sha256
        })
    })
    const release = Effect.orDie(keys.release(workspaceId, key))
    const response = yield* httpEffect.pipe(Effect.provideService(BodyDigest, reported), Effect.onError(() => release))
    const answer = response.body
    if (response.status < 400 && answer._tag === "Uint8Array") {
      const text = answer.text ?? new TextDecoder().decode(answer.body)
      yield* Effect.orDie(keys.complete(workspaceId, key, { statusCode: response.status, body: text, bodySha256 }))
    } else {
      yield* release
    }
    return response
  })
