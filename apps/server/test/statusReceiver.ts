import { Effect } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { closeNow } from "./harness.ts"

/** A local receiver answering every request with `status`. */
export const receiver = (status: number) =>
  Effect.acquireRelease(
    Effect.promise(() =>
      new Promise<{ readonly url: string; readonly close: () => Promise<void> }>((resolve) => {
        const server = createServer((request, response) => {
          request.resume()
          request.on("end", () => response.writeHead(status).end())
        })
        server.listen(0, "127.0.0.1", () =>
          resolve({
            url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
            close: () => closeNow(server)
          }))
      })
    ),
    (made) => Effect.promise(made.close)
  )
