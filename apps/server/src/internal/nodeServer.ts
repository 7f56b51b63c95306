import { randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, ServerResponse, STATUS_CODES } from "node:http"
import type { Duplex } from "node:stream"
import { ApiError } from "@herald/api"

// Herald's Node HTTP server. These things happen here, below Effect, because Effect's server cannot see them or
// leaves them to Node (docs/decisions/0003-api-overhead.md, 0086-above-the-framework.md):
//
// - Node's `strictContentLength`, which Effect's server turns on for every answer, is kept off through Node's
//   own hook for it (the `ServerResponse` class `createServer` takes): with it, Node writes the headers and
//   the body of a small answer separately, which cost a bare server a quarter of its throughput. Effect sets
//   `content-length` from the body itself and checks streamed lengths on its own.
// - What never reaches Effect is answered here in the error shape: a request Node cannot parse (400), headers
//   over Node's 16 KB (431), headers that take too long (408). A request body that stops arriving (a
//   `Content-Length` promising more than is sent) is cut off after `bodyIdleMs` without a byte (408), instead
//   of holding the connection until Node's five-minute `requestTimeout`.
//
// Every answer's `X-Request-Id` is set by the error middleware (ErrorRendering), and headers the request path
// asks for by Effect's pre-response handler (AnswerHeaders); the answers made here carry an id of their own.

const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/
// A random prefix per process and a counter: unique across processes and restarts without paying for
// random bytes on every request.
const requestIdPrefix = `req_${randomBytes(9).toString("base64url")}`
let requestCounter = 0
const newRequestId = () => `${requestIdPrefix}${(requestCounter++).toString(36)}`

/** A request's id: the client's own `X-Request-Id` when well-formed, else a new one. */
export const requestId = (headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>): string => {
  const given = headers["x-request-id"]
  return typeof given === "string" && requestIdPattern.test(given) ? given : newRequestId()
}

class HeraldResponse extends ServerResponse {}
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
      connection: "close",
      "x-request-id": newRequestId()
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
