import { randomBytes } from "node:crypto"
import { createServer, IncomingMessage, ServerResponse, STATUS_CODES } from "node:http"
import type { Duplex } from "node:stream"
import { ApiError } from "@herald/api"

// Herald's Node HTTP server. These things happen here, below Effect, because they concern every request and
// cost least at this level (docs/decisions/0003-api-overhead.md):
//
// - Every answer gets `X-Request-Id`, and the headers code on the request path asked for (the rate-limit
//   state), whatever the answer is: success, typed error, or a failure the error middleware rendered.
//   They travel on Node's request object, which every copy of Effect's request wraps.
// - Node's `strictContentLength`, which Effect's server turns on, is kept off: with it, Node writes the
//   headers and the body of a small answer separately, which cost a bare server a quarter of its
//   throughput. Effect sets `content-length` from the body itself and checks streamed lengths on its own.
// - What never reaches Effect is answered here in the error shape: a request Node cannot parse (400), headers
//   over Node's 16 KB (431), headers that take too long (408). A request body that stops arriving (a
//   `Content-Length` promising more than is sent) is cut off after `bodyIdleMs` without a byte (408), instead
//   of holding the connection until Node's five-minute `requestTimeout`.

const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/
// A random prefix per process and a counter: unique across processes and restarts without paying for
// random bytes on every request.
const requestIdPrefix = `req_${randomBytes(9).toString("base64url")}`
let requestCounter = 0
const newRequestId = () => `${requestIdPrefix}${(requestCounter++).toString(36)}`

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
  const id = typeof given === "string" && requestIdPattern.test(given) ? given : newRequestId()
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

const errorJson = (message: string) => JSON.stringify(ApiError.body("invalid", message))

/** Answers what Node's parser refused, on the raw socket (no response object exists for it). */
const onClientError = (error: Error & { readonly code?: string; readonly reason?: unknown }, socket: Duplex) => {
  const inFlight = (socket as { _httpMessage?: ServerResponse })._httpMessage
  if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent === true) {
    socket.destroy()
    return
  }
  const [status, message] = error.code === "HPE_HEADER_OVERFLOW"
    ? [431, "The request headers are larger than the limit of 16 KB"] as const
    : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
    ? [408, "The request was not received in time"] as const
    : [400, `The request is not valid HTTP${typeof error.reason === "string" ? `: ${error.reason}` : ""}`] as const
  const body = errorJson(message)
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\nx-request-id: ${newRequestId()}\r\n\r\n${body}`
  )
}

/**
 * Cuts off a request whose body stops arriving. The socket's byte count is looked at every half `idleMs`:
 * two looks in a row with no new byte, while Herald waits for one (nothing is buffered unread), end it.
 */
const watchBody = (idleMs: number) => (request: IncomingMessage, response: ServerResponse) => {
  if (request.complete) return
  const socket = request.socket
  let bytesRead = socket.bytesRead
  let quietLooks = 0
  const timer = setInterval(() => {
    if (request.complete || request.destroyed || response.writableEnded || socket.destroyed) {
      stop()
      return
    }
    const waiting = request.readableLength === 0
    quietLooks = socket.bytesRead === bytesRead && waiting ? quietLooks + 1 : 0
    bytesRead = socket.bytesRead
    if (quietLooks < 2) return
    stop()
    if (response.headersSent) {
      socket.destroy()
      return
    }
    response.shouldKeepAlive = false
    const body = errorJson(`The request body stopped arriving: nothing came for ${idleMs / 1000} s before its end`)
    response.writeHead(408, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      connection: "close"
    })
    response.end(body, () => socket.destroySoon())
  }, idleMs / 2)
  // The response closes when it is sent or its connection is lost: either way the watch is over.
  const stop = () => clearInterval(timer)
  timer.unref()
  response.once("close", stop)
}

export interface Options {
  /** How long a request body may go without a byte before it is cut off (10 s by default). */
  readonly bodyIdleMs?: number
  /** How long a request's headers may take to arrive (10 s by default); looked at every fifth of it. */
  readonly headersTimeoutMs?: number
  /** How long an idle connection is kept for the client's next request (65 s by default). */
  readonly keepAliveTimeoutMs?: number
}

/** The Node HTTP server Herald listens with. */
export const make = (options: Options = {}) => {
  const headersTimeout = options.headersTimeoutMs ?? 10_000
  const server = createServer({
    IncomingMessage: HeraldRequest,
    ServerResponse: HeraldResponse,
    // Headers arrive at once from any real client; Node's 60 s (looked at every 30 s) only serves slowloris.
    headersTimeout,
    connectionsCheckingInterval: headersTimeout / 5,
    // Longer than the idle time of the clients and proxies in front (a load balancer's 60 s, a client's own
    // guess from `Keep-Alive: timeout=`): with Node's 5 s, a client busy for a few seconds sent its next request
    // on a connection the server was closing that moment, and got a reset instead of an answer
    // (docs/decisions/0071-keep-alive.md).
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 65_000
  })
  server.on("clientError", onClientError)
  server.on("request", watchBody(options.bodyIdleMs ?? 10_000))
  return server
}
