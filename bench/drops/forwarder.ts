// bench/drops/forwarder: a TCP forwarder between Herald and the sandbox networks that misbehaves the way a
// flaky network path does. While dropping, every `everyMs` it holds every connection's bytes for `holdMs`,
// then drops every connection open at that moment: an answer the network sent during the hold never reaches
// Herald (the network acted, the answer is lost). Holding `answers` lets requests through meanwhile (each is
// acted on and its answer lost: the harsher case for "never twice"); holding `both` stops them too (a request
// sent during the hold never reaches the network). Loopback only.
// bench/faults uses two more faults, for as long as it chooses: `hang` (connections are taken and nothing
// passes either way, as a network that stops answering) and `refuse` (every connection is cut as it opens, as a
// network that cannot be reached); `heal` ends either, dropping the connections the hang held.
import { connect, createServer, type Server, type Socket } from "node:net"

interface Pair {
  readonly client: Socket
  readonly upstream: Socket
  /** Bytes held this round, from the network to Herald (a lost answer) and from Herald to the network. */
  toHerald: number
  toNetwork: number
}

export type Holding = "answers" | "both"

export class Forwarder {
  /** Connections forwarded; rounds of holding and dropping; connections dropped, and of those, with an answer or a request held. */
  connections = 0
  rounds = 0
  dropped = 0
  answersLost = 0
  requestsCut = 0
  private readonly pairs = new Set<Pair>()
  private holding = false
  private fault: "none" | "hang" | "refuse" = "none"
  /** Connections cut as they opened while refusing. */
  refused = 0
  private readonly what: Holding

  constructor(what: Holding) {
    this.what = what
  }
  private timer: ReturnType<typeof setInterval> | undefined
  private server: Server | undefined

  /** Listens on `port` of 127.0.0.1 and forwards each connection to `targetPort` there. */
  listen(port: number, targetPort: number): Promise<void> {
    this.server = createServer((client) => {
      if (this.fault === "refuse") {
        this.refused++
        client.resetAndDestroy()
        return
      }
      this.connections++
      const upstream = connect(targetPort, "127.0.0.1")
      const pair: Pair = { client, upstream, toHerald: 0, toNetwork: 0 }
      this.pairs.add(pair)
      const close = () => {
        this.pairs.delete(pair)
        client.destroy()
        upstream.destroy()
      }
      client.on("data", (chunk: Buffer) => {
        if ((this.holding && this.what === "both") || this.fault === "hang") pair.toNetwork += chunk.length
        else upstream.write(chunk)
      })
      upstream.on("data", (chunk: Buffer) => {
        if (this.holding || this.fault === "hang") pair.toHerald += chunk.length
        else client.write(chunk)
      })
      client.on("error", close)
      client.on("close", close)
      // While hanging, Herald's own server ends the upstream side it hears nothing on (its keep-alive and
      // request timeouts, 5 s): the client side is kept open, silent, as a network that hangs keeps it, until
      // `heal` drops it. Closing it too made a hang look like connections dropped every 5 s.
      const upstreamClosed = () => {
        if (this.fault === "hang") return
        close()
      }
      upstream.on("error", upstreamClosed)
      upstream.on("close", upstreamClosed)
    })
    const server = this.server
    return new Promise((done, fail) => {
      server.once("error", fail)
      server.listen(port, "127.0.0.1", () => done())
    })
  }

  /** Starts the rounds: every `everyMs`, hold for `holdMs`, then drop every open connection. */
  startDropping(everyMs: number, holdMs: number): void {
    this.timer = setInterval(() => {
      this.rounds++
      this.holding = true
      setTimeout(() => {
        this.dropAll()
        this.holding = false
      }, holdMs)
    }, everyMs)
  }

  /** From now until `heal`, nothing passes on any connection, open or new. */
  hang(): void {
    this.fault = "hang"
  }

  /** From now until `heal`, every new connection is cut as it opens, and the open ones are dropped. */
  refuse(): void {
    this.fault = "refuse"
    this.dropAll()
  }

  /** Ends a hang or a refusal; the connections a hang held are dropped (what they carried never passed). */
  heal(): void {
    if (this.fault === "hang") this.dropAll()
    this.fault = "none"
  }

  private dropAll(): void {
    for (const pair of [...this.pairs]) {
      this.dropped++
      if (pair.toHerald > 0) this.answersLost++
      if (pair.toNetwork > 0) this.requestsCut++
      this.pairs.delete(pair)
      pair.client.destroy()
      pair.upstream.destroy()
    }
  }

  stopDropping(): void {
    if (this.timer !== undefined) clearInterval(this.timer)
    this.timer = undefined
  }

  close(): void {
    this.stopDropping()
    for (const pair of this.pairs) {
      pair.client.destroy()
      pair.upstream.destroy()
    }
    this.server?.close()
  }
}
