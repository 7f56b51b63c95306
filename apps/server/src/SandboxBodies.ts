import { ByteSize, Effect } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import type { Limits } from "@herald/adapter-kit"
import { ApiError } from "@herald/api"
import { maxJsonBodyBytes } from "./Http.ts"

// How much of a request's body the sandbox's simulators read. A network takes a video or photo in the
// request itself (whole, in parts, or base64 in JSON), far over the 1 MiB the API's own JSON routes keep:
// each simulator's routes take the largest file its network declares, up to the cap below. The simulators
// read a body into memory whole (`arrayBuffer`, briefly twice: its chunks and their join), so the cap also
// bounds what one request holds (decision 0072).

/**
 * The most one sandbox request may carry: 10 times the 12 MB of a short phone video, and every file of the
 * installed networks whose largest is about 100 MB. A network that takes larger files has a larger body
 * refused in the sandbox (413), where it would go through on the network.
 */
export const maxBodyBytes = 128 * 1024 * 1024

/**
 * The largest body a network's simulator reads: its largest photo or video file as base64 (4/3 its size,
 * the largest form any network takes a file in) with a JSON body's worth for what comes with it, up to
 * `maxBodyBytes`. A network that declares no file size (or no limits) takes media by URL: a JSON body's limit.
 */
export const limitOf = (limits: Limits.Limits | undefined): number => {
  const largest = Math.max(
    0,
    ...Object.values(limits?.forms ?? {}).flatMap((form) => [form.media.maxPhotoBytes ?? 0, form.media.maxVideoBytes ?? 0])
  )
  return largest === 0 ? maxJsonBodyBytes : Math.min(maxBodyBytes, Math.ceil(largest * 4 / 3) + maxJsonBodyBytes)
}

const tooLarge = (network: string, limit: number) => {
  // The rest of the body is not wanted: closing the connection spares reading (and discarding) it.
  return HttpServerResponse.jsonUnsafe(
    ApiError.body("too_large", `The request body is larger than the ${limit} bytes the sandbox's ${network} network reads`),
    { status: 413, headers: { connection: "close" } }
  )
}

/**
 * The route reading its body up to `limit` bytes. A body announced larger (`Content-Length`) is refused
 * before a byte of it is read; a body of no announced length (chunked) is read here under the limit, and
 * refused once it passes it: the simulator's own read then gets the same bytes, as a request reads its body
 * once.
 */
export const bounded = (network: string, limit: number) => {
  const maxBody = ByteSize.bytes(limit)
  return (route: HttpRouter.Route<never, never>): HttpRouter.Route<never, never> =>
    HttpRouter.route(
      route.method,
      route.path,
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const declared = request.headers["content-length"]
        if (declared !== undefined && Number(declared) > limit) return tooLarge(network, limit)
        if (request.headers["transfer-encoding"] !== undefined) {
          // A body unreadable for another reason is left to the simulator, whose read gets the same failure.
          const over = yield* request.arrayBuffer.pipe(
            Effect.as(false),
            Effect.catchReason("HttpServerError", "RequestParseError", (parse) => Effect.succeed(parse.reason === "BodyTooLarge")),
            Effect.orElseSucceed(() => false)
          )
          if (over) return tooLarge(network, limit)
        }
        return yield* route.handler
      }).pipe(Effect.provideService(HttpIncomingMessage.MaxBodySize, maxBody)),
      { uninterruptible: route.uninterruptible }
    )
}
