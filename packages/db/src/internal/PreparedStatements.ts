/**
 * The named prepared statements one bridged connection has created in
 * PGlite's shared session: they outlive the connection unless the bridge
 * closes them, and a LISTEN prepared once may run again by name alone.
 */
import { type ChannelCommand, channelCommands } from "./listenCommands.ts"
import * as Wire from "./wire.ts"

export class PreparedStatements {
  /** Each statement's name, with its channel commands when it is a LISTEN / UNLISTEN. */
  private readonly statements = new Map<string, Array<ChannelCommand> | undefined>()
  private withCommands = 0
  private unnamed: Array<ChannelCommand> | undefined

  get size(): number {
    return this.statements.size
  }

  /** A Parse message's body: name, then statement text. */
  parse(bytes: Uint8Array, body: number, end: number): void {
    const text = Wire.skipCString(bytes, body, end)
    if (text < 0) return
    const commands = channelCommands(bytes, text, end)
    if (text === body + 1) {
      this.unnamed = commands
      return
    }
    const name = Wire.decodeCString(bytes, body, end)
    this.forget(name)
    this.statements.set(name, commands)
    if (commands !== undefined) this.withCommands++
  }

  /** A Bind message's body: the channel commands of the statement it binds, if any. */
  bind(bytes: Uint8Array, body: number, end: number): Array<ChannelCommand> | undefined {
    // Names are only decoded while some statement is a channel command: the usual Bind costs nothing.
    if (this.unnamed === undefined && this.withCommands === 0) return undefined
    const statement = Wire.skipCString(bytes, body, end)
    if (statement < 0) return undefined
    if (bytes[statement] === 0) return this.unnamed
    return this.withCommands > 0 ? this.statements.get(Wire.decodeCString(bytes, statement, end)) : undefined
  }

  /** A Close message's body: `S` and a statement name, or `P` and a portal. */
  close(bytes: Uint8Array, body: number, end: number): void {
    if (bytes[body] === 0x53 && this.statements.size > 0) this.forget(Wire.decodeCString(bytes, body + 1, end))
  }

  /** Every name, forgetting them all: the connection is going away. */
  takeNames(): Array<string> {
    const names = Array.from(this.statements.keys())
    this.statements.clear()
    this.withCommands = 0
    this.unnamed = undefined
    return names
  }

  private forget(name: string): void {
    if (this.statements.get(name) !== undefined) this.withCommands--
    this.statements.delete(name)
  }
}
