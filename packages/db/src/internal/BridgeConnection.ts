/**
 * One bridged connection: the `Duplex` a PgClient connection writes its
 * frontend messages into and reads PGlite's answers from.
 *
 * This is plain Node stream code because it is the transport itself: the
 * client holds the `Duplex` and `@effect/sql-pg` drives it with `write` and
 * `data` events. The write callback is held until PGlite has run the batch,
 * so a connection has at most one batch waiting and Node buffers the rest
 * (handing them over together through `_writev`).
 */
import { Buffer } from "node:buffer"
import { Duplex } from "node:stream"
import { cleanupBatch } from "./bridgeCleanup.ts"
import type { BridgeSession } from "./BridgeSession.ts"
import { type ChannelCommand, channelCommands } from "./listenCommands.ts"
import { PreparedStatements } from "./PreparedStatements.ts"
import * as Wire from "./wire.ts"

type WriteCallback = (error?: Error | null) => void

export class BridgeConnection extends Duplex {
  readonly session: BridgeSession
  readonly processId: number
  /** Set while the session has this connection in its wait queue. */
  queued = false
  /** Status byte of the last ReadyForQuery PGlite sent for this connection. */
  status = Wire.IDLE
  /** The last batch stopped inside an extended-query cycle (no Sync yet). */
  inCycle = false
  /** The running batch was the bridge's own (cleanup, re-LISTEN): its output is not the client's. */
  batchInternal = false
  /** The channels this connection listens on. */
  readonly listening = new Set<string>()

  private started = false
  private terminated = false
  private detached = false
  private cleaned = false
  /** Bytes of a message that has not fully arrived yet. */
  private carry: Uint8Array | undefined
  private pending: Uint8Array | undefined
  private pendingCallback: WriteCallback | undefined
  private pendingEndsCycle = true
  private pendingCommands: Array<ChannelCommand> | undefined
  private runningCallback: WriteCallback | undefined
  /** Channels to LISTEN to again because this connection's UNLISTEN dropped them for everyone. */
  private relisten: Array<string> | undefined
  private readonly statements = new PreparedStatements()

  constructor(session: BridgeSession, processId: number) {
    super({ decodeStrings: false })
    this.session = session
    this.processId = processId
  }

  override _read(): void {
    // Output is pushed as PGlite produces it; PGlite cannot be paused mid-statement.
  }

  override _write(chunk: Uint8Array, _encoding: BufferEncoding, callback: WriteCallback): void {
    this.receive(chunk, callback)
  }

  override _writev(chunks: Array<{ chunk: Uint8Array }>, callback: WriteCallback): void {
    this.receive(chunks.length === 1 ? chunks[0]!.chunk : Buffer.concat(chunks.map((entry) => entry.chunk)), callback)
  }

  private receive(chunk: Uint8Array, callback: WriteCallback): void {
    if (this.detached) return callback()
    let bytes = chunk
    if (this.carry !== undefined) {
      bytes = Buffer.concat([this.carry, chunk])
      this.carry = undefined
    }
    let start = 0
    if (!this.started) {
      start = this.startup(bytes)
      if (start < 0) {
        if (!this.destroyed) callback()
        return
      }
    }
    const end = this.started ? this.scan(bytes, start) : start
    if (end > start) {
      this.pending = start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end)
      this.pendingCallback = callback
    }
    if (this.terminated) {
      // What came before the Terminate still runs, then the cleanup.
      this.close(false)
      this.push(null)
      this.resume()
    } else {
      if (end < bytes.length) this.carry = bytes.slice(end)
      if (end > start) this.session.schedule(this)
    }
    if (end === start && !this.destroyed) callback()
  }

  override _final(callback: WriteCallback): void {
    this.close(false)
    this.push(null)
    this.resume()
    callback()
  }

  override _destroy(error: Error | null, callback: WriteCallback): void {
    this.close(true)
    callback(error)
  }

  hasWork(): boolean {
    return (this.relisten !== undefined && !this.inCycle) || this.pending !== undefined ||
      (this.detached && !this.cleaned && this.needsCleanup())
  }

  /** Whether the session can go to another connection after this one's last batch. */
  isIdle(): boolean {
    return this.status === Wire.IDLE && !this.inCycle && this.relisten === undefined
  }

  isDetached(): boolean {
    return this.detached
  }

  /** The next batch to hand to PGlite; call only when `hasWork()`. */
  takeBatch(): Uint8Array {
    this.batchInternal = true
    if (this.relisten !== undefined && !this.inCycle) {
      const channels = this.relisten
      this.relisten = undefined
      return Buffer.concat(channels.map((channel) => Wire.encodeQuery(`LISTEN ${Wire.quoteIdentifier(channel)}`)))
    }
    const pending = this.pending
    if (pending !== undefined) {
      this.batchInternal = this.detached
      this.pending = undefined
      this.runningCallback = this.pendingCallback
      this.pendingCallback = undefined
      this.inCycle = !this.pendingEndsCycle
      if (this.pendingCommands !== undefined) {
        this.applyCommands(this.pendingCommands)
        this.pendingCommands = undefined
      }
      return pending
    }
    this.cleaned = true
    const cleanup = cleanupBatch(this.session, this.inCycle, this.status, this.statements, this.listening)
    this.inCycle = false
    return cleanup
  }

  /** PGlite ran the batch: `status` is its last ReadyForQuery status, 0 when it sent none. */
  recordStatus(status: number): void {
    if (status !== 0) this.status = status
  }

  /**
   * Lets Node pass on the next write, then hands the batch's answer to the
   * client. In that order: the client may react to the answer at once (even
   * end the stream), and what it writes then must not queue behind a write
   * Node still thinks is in progress.
   */
  deliver(output: Uint8Array | undefined): void {
    const callback = this.runningCallback
    this.runningCallback = undefined
    if (callback !== undefined && !this.destroyed) callback()
    if (output !== undefined && !this.detached) this.push(output)
  }

  private close(dropPending: boolean): void {
    if (this.detached) return
    this.detached = true
    if (dropPending) {
      this.pending = undefined
      this.pendingCallback = undefined
      this.pendingCommands = undefined
    }
    this.session.connectionClosed(this)
  }

  private needsCleanup(): boolean {
    return this.inCycle || this.status !== Wire.IDLE || this.statements.size > 0 || this.listening.size > 0
  }

  private applyCommands(commands: ReadonlyArray<ChannelCommand>): void {
    for (const { channel, listen } of commands) {
      if (listen) {
        this.listening.add(channel)
        // A batch that runs after its client left still LISTENs; the cleanup undoes it.
        if (!this.detached) this.session.addListener(channel, this)
        continue
      }
      // PGlite's UNLISTEN ends the channel for the whole session, so
      // channels other connections still listen on are listened to again.
      const dropped = channel === "*" ? Array.from(this.listening) : [channel]
      for (const name of dropped) {
        this.listening.delete(name)
        this.session.removeListener(name, this)
      }
      const again = channel === "*" ? this.session.listenedChannels() : dropped.filter((name) => this.session.isListened(name))
      if (again.length > 0) (this.relisten ??= []).push(...again)
    }
  }

  /** Answers the untyped opening messages; returns where typed messages start, or -1 once the connection ended. */
  private startup(bytes: Uint8Array): number {
    let position = 0
    while (!this.started && position + 8 <= bytes.length) {
      const length = Wire.readInt32(bytes, position)
      if (length < 8 || length > 65536) return this.refuse("08P01", "invalid startup packet length")
      if (position + length > bytes.length) break
      const code = Wire.readInt32(bytes, position + 4)
      if (code === Wire.SSL_REQUEST || code === Wire.GSSENC_REQUEST) {
        this.push(Wire.REFUSE_ENCRYPTION)
      } else if (code === Wire.CANCEL_REQUEST) {
        // PGlite runs each batch to completion, so there is never anything to cancel.
        this.destroy()
        return -1
      } else if (code >>> 16 === Wire.PROTOCOL_MAJOR_3) {
        this.started = true
        this.push(this.session.startupResponse(this.processId))
      } else {
        return this.refuse("0A000", "unsupported frontend protocol")
      }
      position += length
    }
    if (!this.started) this.carry = bytes.slice(position)
    return this.started ? position : -1
  }

  private refuse(code: string, text: string): number {
    this.push(Wire.encodeFatal(code, text))
    this.push(null)
    this.destroy()
    return -1
  }

  /** Walks the whole messages in `bytes` from `start`, noting what the bridge tracks; returns where they end. */
  private scan(bytes: Uint8Array, start: number): number {
    let position = start
    let lastType = 0
    while (position + 5 <= bytes.length) {
      const type = bytes[position]!
      const next = position + 1 + Wire.readInt32(bytes, position + 1)
      if (next < position + 5) {
        this.refuse("08P01", "invalid message length")
        return start
      }
      if (next > bytes.length) break
      const body = position + 5
      switch (type) {
        case Wire.TERMINATE:
          // Not forwarded: it would end PGlite's one session for everybody.
          this.terminated = true
          this.pendingEndsCycle = lastType === 0 || lastType === Wire.SYNC || lastType === Wire.QUERY
          return position
        case Wire.PARSE:
          this.statements.parse(bytes, body, next)
          break
        case Wire.BIND:
          this.addCommands(this.statements.bind(bytes, body, next))
          break
        case Wire.CLOSE:
          this.statements.close(bytes, body, next)
          break
        case Wire.QUERY:
          this.addCommands(channelCommands(bytes, body, next))
          break
      }
      lastType = type
      position = next
    }
    this.pendingEndsCycle = lastType === 0 || lastType === Wire.SYNC || lastType === Wire.QUERY
    return position
  }

  private addCommands(commands: ReadonlyArray<ChannelCommand> | undefined): void {
    if (commands !== undefined) (this.pendingCommands ??= []).push(...commands)
  }
}
