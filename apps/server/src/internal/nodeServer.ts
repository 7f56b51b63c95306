import { randomBytes } from "node:crypto"
import { createServer, IncomingMessage, ServerResponse } from "node:http"

// Herald's Node HTTP server. Two things happen here, below Effect, because they run on every request and
// cost least at this level (docs/decisions/0003-api-overhead.md):
//
// - Every answer gets `X-Request-Id`, and the headers code on the request path asked for (the rate-limit
//   state), whatever the answer is: success, typed error, or a failure the error middleware rendered.
//   They travel on Node's request object, which every copy of Effect's request wraps.
// - Node's `strictContentLength`, which Effect's server turns on, is kept off: with it, Node writes the
//   headers and the body of a small answer separately, which cost a bare server a quarter of its
//   throughput. Effect sets `content-length` from the body itself and checks streamed lengths on its own.

const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/
// A random prefix per process and a counter: unique across processes and restarts without paying for
// random bytes on every request.
const requestIdPrefix = `req_${randomBytes(9).toString("base64url")}`
let requestCounter = 0

class HeraldRequest extends IncomingMessage {
  heraldRequestId: string | undefined = undefined
  heraldHeaders: Record<string, string> | undefined = undefined
}

interface Carrier {
  heraldRequestId?: string | undefined
  heraldHeaders?: Record<string, string> | undefined
  readonly headers?: Record<string, string | ReadonlyArray<string> | undefined>
}

/** The request's id: the client's own `X-Request-Id` when well-formed, else a new one; the same every call. */
export const requestId = (source: object): string => {
  const carrier = source as Carrier
  if (carrier.heraldRequestId !== undefined) return carrier.heraldRequestId
  const given = carrier.headers?.["x-request-id"]
  const id = typeof given === "string" && requestIdPattern.test(given)
    ? given
    : `${requestIdPrefix}${(requestCounter++).toString(36)}`
  carrier.heraldRequestId = id
  return id
}

/** Headers to put on this request's answer, whatever it turns out to be. */
export const addHeaders = (source: object, headers: Record<string, string>): void => {
  const carrier = source as Carrier
  carrier.heraldHeaders = carrier.heraldHeaders === undefined ? headers : { ...carrier.heraldHeaders, ...headers }
}

class HeraldResponse extends ServerResponse<HeraldRequest> {}
const writeHead = ServerResponse.prototype.writeHead as (
  this: ServerResponse,
  statusCode: number,
  ...rest: ReadonlyArray<unknown>
) => ServerResponse
// The headers go into the object handed to `writeHead` (a copy: Effect may share it between answers), not
// through `setHeader`, which would take Node off its fast path for writing the head.
Object.defineProperty(HeraldResponse.prototype, "writeHead", {
  value: function(this: HeraldResponse, statusCode: number, reason?: unknown, headers?: unknown) {
    const given = (typeof reason === "string" || reason === undefined ? headers : reason) as
      | Record<string, unknown>
      | undefined
    const merged = { ...given, ...this.req.heraldHeaders, "x-request-id": requestId(this.req) }
    return typeof reason === "string"
      ? writeHead.call(this, statusCode, reason, merged)
      : writeHead.call(this, statusCode, merged)
  },
  configurable: true,
  writable: true
})
Object.defineProperty(HeraldResponse.prototype, "strictContentLength", {
  get: () => false,
  set: () => {},
  configurable: true
})

/** The Node HTTP server Herald listens with. */
export const make = () => createServer({ IncomingMessage: HeraldRequest, ServerResponse: HeraldResponse })
