import { Effect } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { ApiError } from "@herald/api"
import { IdempotencyKeys } from "@herald/core"
import { createHash } from "node:crypto"

const methods = new Set(["POST", "PATCH", "DELETE"])
const keyPattern = /^[\x21-\x7e]{1,255}$/

/**
 * Runs a request under its `Idempotency-Key` (product.md, "Posts"): a repeat of the same request within 24
 * hours gets the first answer again (status and body, with `Idempotent-Replayed: true`); the same key with
 * another request is `conflict`. JSON bodies are compared byte for byte; uploads, which are not read here,
 * by their type and length.
 */
export const run = <E, R>(
  keys: IdempotencyKeys.IdempotencyKeys["Service"],
  workspaceId: string,
  httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const key = request.headers["idempotency-key"]
    if (key === undefined || !methods.has(request.method)) return yield* httpEffect
    if (!keyPattern.test(key)) {
      return yield* new ApiError.Invalid({ message: "Idempotency-Key must be 1 to 255 visible ASCII characters" })
    }
    const type = request.headers["content-type"] ?? ""
    const body = type.startsWith("application/json") || type === ""
      ? yield* Effect.orElseSucceed(request.text, () => "")
      : `${type};${request.headers["content-length"] ?? ""}`
    const hash = createHash("sha256").update(`${request.method} ${request.url}\n${body}`).digest("hex")
    const claim = yield* keys.claim(workspaceId, key, hash).pipe(
      Effect.catchTag("IdempotencyMismatch", (error) => Effect.fail(new ApiError.Conflict({ message: error.message }))),
      Effect.catchTag("SqlError", Effect.die)
    )
    if (claim._tag === "Replay") {
      return HttpServerResponse.text(claim.answer.body, {
        status: claim.answer.statusCode,
        contentType: "application/json",
        headers: { "idempotent-replayed": "true" }
      })
    }
    const release = Effect.orDie(keys.release(workspaceId, key))
    const response = yield* httpEffect.pipe(Effect.onError(() => release))
    const answer = response.body
    if (response.status < 400 && answer._tag === "Uint8Array") {
      const text = answer.text ?? new TextDecoder().decode(answer.body)
      yield* Effect.orDie(keys.complete(workspaceId, key, { statusCode: response.status, body: text }))
    } else {
      yield* release
    }
    return response
  })
