/**
 * PGlite's one backend session, shared by every bridged connection.
 *
 * A connection holds the session from its first batch until PGlite answers
 * a ReadyForQuery with status `I` at the end of a cycle, so a transaction
 * excludes every other connection until it ends; the others wait in FIFO
 * order. One batch runs at a time. PGlite answers synchronously into
 * `onRawData`, with views into its WebAssembly memory, so each answer is
 * copied once into `output` and handed on from there.
 */
import type { PGlite } from "@electric-sql/pglite"
import { Buffer } from "node:buffer"
import { BridgeConnection } from "./BridgeConnection.ts"
import * as Wire from "./wire.ts"

/** The part of PGlite the bridge drives. */
export type ProtocolEngine = Pick<PGlite, "execProtocolRawStream">

/** Answers up to this size are copied out of `output`; larger ones take it over, saving the copy. */
const copyLimit = 64 * 1024
const initialOutput = 64 * 1024

export class BridgeSession {
  private readonly engine: ProtocolEngine
  private readonly startup: { readonly bytes: Buffer; readonly keyOffset: number }
  private readonly connections = new Set<BridgeConnection>()
  private readonly waiting: Array<BridgeConnection> = []
  private readonly channels = new Map<string, Set<BridgeConnection>>()
  private readonly drainWaiters: Array<() => void> = []
  private owner: BridgeConnection | undefined
  private running: BridgeConnection | undefined
  private output = Buffer.allocUnsafe(initialOutput)
  private outputLength = 0
  private nextProcessId = 1
  private shuttingDown = false
  // Created once: the hot path passes the same options object and callbacks to every call.
  private readonly execOptions: { readonly syncToFs: boolean; readonly onRawData: (data: Uint8Array) => void }

  constructor(engine: ProtocolEngine, parameters: ReadonlyArray<readonly [string, string]>) {
    this.engine = engine
    this.startup = Wire.encodeStartupResponse(parameters)
    // The Node and in-memory file systems write through, so PGlite's per-call
    // `syncToFs` would only add an await to every batch.
    this.execOptions = { syncToFs: false, onRawData: this.onRawData }
  }

  connect(): BridgeConnection {
    const connection = new BridgeConnection(this, this.nextProcessId++)
    if (this.shuttingDown) {
      connection.destroy(new Error("The embedded database is shutting down"))
      return connection
    }
    this.connections.add(connection)
    return connection
  }

  startupResponse(processId: number): Buffer {
    const bytes = Buffer.from(this.startup.bytes)
    bytes.writeInt32BE(processId, this.startup.keyOffset)
    bytes.writeInt32BE(processId, this.startup.keyOffset + 4)
    return bytes
  }

  /** A connection has a batch (or cleanup) to run. */
  schedule(connection: BridgeConnection): void {
    if (connection !== this.owner && !connection.queued) {
      connection.queued = true
      this.waiting.push(connection)
    }
    this.pump()
  }

  connectionClosed(connection: BridgeConnection): void {
    for (const channel of connection.listening) this.removeListener(channel, connection)
    // A batch in flight may still open a transaction: settled when it comes back.
    if (connection === this.running) return
    if (connection.hasWork()) this.schedule(connection)
    else this.release(connection)
  }

  addListener(channel: string, connection: BridgeConnection): void {
    let listeners = this.channels.get(channel)
    if (listeners === undefined) this.channels.set(channel, listeners = new Set())
    listeners.add(connection)
  }

  removeListener(channel: string, connection: BridgeConnection): void {
    const listeners = this.channels.get(channel)
    if (listeners !== undefined && listeners.delete(connection) && listeners.size === 0) this.channels.delete(channel)
  }

  isListened(channel: string): boolean {
    return this.channels.has(channel)
  }

  listenedChannels(): Array<string> {
    return Array.from(this.channels.keys())
  }

  /** Refuses new connections, ends the open ones and calls back once their cleanup has run. */
  shutdown(onDrained: () => void): void {
    this.shuttingDown = true
    for (const connection of this.connections) connection.destroy()
    this.drainWaiters.push(onDrained)
    this.checkDrained()
  }

  private readonly onRawData = (data: Uint8Array): void => {
    const needed = this.outputLength + data.length
    if (needed > this.output.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.output.length * 2))
      grown.set(this.output.subarray(0, this.outputLength))
      this.output = grown
    }
    this.output.set(data, this.outputLength)
    this.outputLength = needed
  }

  private pump(): void {
    while (this.running === undefined) {
      let connection = this.owner
      if (connection === undefined) {
        connection = this.waiting.shift()
        if (connection === undefined) return this.checkDrained()
        connection.queued = false
        if (!connection.hasWork()) continue
        this.owner = connection
      } else if (!connection.hasWork()) {
        // The owner is inside a transaction: everyone waits for its next message.
        return
      }
      this.running = connection
      this.outputLength = 0
      setImmediate(this.execute, connection.takeBatch())
    }
  }

  /**
   * Runs a batch in a turn of the event loop of its own, as a socket hands
   * over what it reads. PGlite answers through promises alone, so otherwise a
   * fiber's statement, its answer and its next statement would all run as
   * microtasks, and a fiber sending statement after statement would keep
   * Effect's scheduler (which waits for `setImmediate`) from running any
   * other fiber, such as a freshly forked listener, until it paused.
   */
  private readonly execute = (batch: Uint8Array): void => {
    this.engine.execProtocolRawStream(batch, this.execOptions).then(this.onDone, this.onFailed)
  }

  private readonly onDone = (): void => {
    const connection = this.running!
    // `running` stays set until the answer is copied out: a listener woken by
    // `route` may write, and its batch must not start over `output` yet.
    const status = this.route(connection)
    let output: Uint8Array | undefined
    if (!connection.batchInternal && this.outputLength > 0) {
      output = this.outputLength <= copyLimit ? Buffer.from(this.output.subarray(0, this.outputLength)) : this.takeOutput()
    }
    this.running = undefined
    connection.recordStatus(status)
    if (connection.isIdle() || (connection.isDetached() && !connection.hasWork())) this.release(connection)
    // Delivering may run client code that writes again, so it comes after the bookkeeping.
    connection.deliver(output)
    this.pump()
  }

  private readonly onFailed = (error: unknown): void => {
    const connection = this.running!
    // PGlite itself failed (closed, or its WebAssembly aborted): the connection
    // cannot go on. Its cleanup still gets a try, in its turn.
    connection.destroy(error instanceof Error ? error : new Error(String(error)))
    this.running = undefined
    this.release(connection)
    this.pump()
  }

  private release(connection: BridgeConnection): void {
    if (this.owner === connection) this.owner = undefined
    if (connection.hasWork()) {
      if (!connection.queued) {
        connection.queued = true
        this.waiting.push(connection)
      }
    } else if (connection.isDetached()) {
      this.connections.delete(connection)
    }
  }

  private takeOutput(): Uint8Array {
    const output = this.output.subarray(0, this.outputLength)
    this.output = Buffer.allocUnsafe(initialOutput)
    return output
  }

  /**
   * Walks the answer for its last ReadyForQuery status and delivers the
   * notifications in it to the connections listening on their channel,
   * cutting them out of the answer of a connection that is not listening.
   */
  private route(connection: BridgeConnection): number {
    const output = this.output
    let length = this.outputLength
    let status = 0
    let position = 0
    while (position + 5 <= length) {
      const type = output[position]!
      const next = position + 1 + Wire.readInt32(output, position + 1)
      if (type === Wire.READY_FOR_QUERY) {
        status = output[position + 5]!
      } else if (type === Wire.NOTIFICATION) {
        const listeners = this.channels.get(Wire.decodeCString(output, position + 9, next))
        let ownIsListening = false
        if (listeners !== undefined) {
          const message = Buffer.from(output.subarray(position, next))
          for (const listener of listeners) {
            if (listener === connection) ownIsListening = true
            else listener.push(message)
          }
        }
        if (!ownIsListening) {
          output.copyWithin(position, next, length)
          length -= next - position
          continue
        }
      }
      position = next
    }
    this.outputLength = length
    return status
  }

  private checkDrained(): void {
    if (!this.shuttingDown || this.running !== undefined || this.connections.size > 0) return
    const waiters = this.drainWaiters.splice(0)
    for (const waiter of waiters) waiter()
  }
}
