// bench/webhooks/receivers.ts: the three webhook receivers of bench/webhooks, in a process of their own so
// that their CPU is neither Herald's nor the bench's. Started by run.ts with an IPC channel:
//   healthy  answers 200 at once
//   slow     answers 200 after 2 s
//   failing  answers 500 at once
// Each records every body's `id` with `Date.now()` once the body has arrived. It sends
// `{ type: "ready", ports }` when listening, and answers `{ type: "count" }` (unique ids at the healthy
// receiver), `{ type: "reset" }` (forget what came so far) and `{ type: "report" }` (every arrival).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export type Receiver = "healthy" | "slow" | "failing"
export const receivers: ReadonlyArray<Receiver> = ["healthy", "slow", "failing"]

/** One body as it arrived: the event's id (or "?" when the body was not JSON with an id) and when, in epoch ms. */
export type Arrival = readonly [id: string, at: number]

export type Request = { readonly type: "count" } | { readonly type: "reset" } | { readonly type: "report" }
export type Answer =
  | { readonly type: "ready"; readonly ports: Record<Receiver, number> }
  | { readonly type: "count"; readonly healthy: number }
  | { readonly type: "reset" }
  | { readonly type: "report"; readonly arrivals: Record<Receiver, ReadonlyArray<Arrival>>; readonly signed: number }

const slowMs = 2_000

const serve = async () => {
  let arrivals: Record<Receiver, Array<Arrival>> = { healthy: [], slow: [], failing: [] }
  let unique = new Set<string>()
  // Bodies that came without a `Service-Signature` (every one should have it).
  let unsigned = 0
  let seen = 0

  const handle = (name: Receiver) => (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const at = Date.now()
      let id = "?"
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id?: unknown }
        if (typeof body.id === "string") id = body.id
      } catch {
        // Counted under "?".
      }
      seen++
      if (typeof request.headers["service-signature"] !== "string") unsigned++
      arrivals[name].push([id, at])
      if (name === "healthy") unique.add(id)
      const answer = (status: number) => {
        response.writeHead(status, { "content-type": "text/plain" })
        response.end(status === 200 ? "ok" : "receiver down")
      }
      if (name === "slow") setTimeout(() => answer(200), slowMs)
      else answer(name === "failing" ? 500 : 200)
    })
  }

  const ports = {} as Record<Receiver, number>
  for (const name of receivers) {
    const server = createServer({ keepAliveTimeout: 60_000 }, handle(name))
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
    ports[name] = (server.address() as AddressInfo).port
  }

  const send = (answer: Answer) => process.send!(answer)
  process.on("message", (request: Request) => {
    switch (request.type) {
      case "count":
        return send({ type: "count", healthy: unique.size })
      case "reset":
        arrivals = { healthy: [], slow: [], failing: [] }
        unique = new Set()
        unsigned = 0
        seen = 0
        return send({ type: "reset" })
      case "report":
        return send({ type: "report", arrivals, signed: seen - unsigned })
    }
  })
  // Ends with the bench.
  process.on("disconnect", () => process.exit(0))
  send({ type: "ready", ports })
}

if (process.send !== undefined) await serve()
