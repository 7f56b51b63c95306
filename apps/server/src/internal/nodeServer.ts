import { createServer, ServerResponse } from "node:http"

// Effect's Node server turns on Node's `strictContentLength` for every response. Node then writes the
// headers and the body of a small response separately; measured on this machine, that alone cost about a
// quarter of a bare server's throughput (docs/decisions/0003-api-overhead.md). Effect already sets
// `content-length` from the body it writes and checks streamed lengths itself, so the check adds nothing.
class Response extends ServerResponse {}
Object.defineProperty(Response.prototype, "strictContentLength", {
  get: () => false,
  set: () => {},
  configurable: true
})

/** The Node HTTP server Herald listens with. */
export const make = () => createServer({ ServerResponse: Response })
