/**
 * Recognises LISTEN / UNLISTEN in statement text, so the bridge knows which
 * connection asked for which channel: PGlite has one session, so it cannot
 * tell the bridged connections apart itself.
 *
 * Only statements that start with the command are recognised, including a
 * `;`-separated run of them in one simple query. That covers what clients
 * send (`@effect/sql-pg` sends `LISTEN "channel"` on its own).
 */

export interface ChannelCommand {
  readonly listen: boolean
  /** The channel as PostgreSQL names it, or `*` for `UNLISTEN *`. */
  readonly channel: string
}

const isSpace = (byte: number): boolean => byte === 0x20 || (byte >= 0x09 && byte <= 0x0d)

const isIdentifierByte = (byte: number): boolean =>
  (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x30 && byte <= 0x39) ||
  byte === 0x5f || byte === 0x24 || byte >= 0x80

const LISTEN = [0x6c, 0x69, 0x73, 0x74, 0x65, 0x6e] // "listen"
const UNLISTEN = [0x75, 0x6e, 0x6c, 0x69, 0x73, 0x74, 0x65, 0x6e] // "unlisten"

/** Matches a lower-case ASCII keyword case-insensitively, followed by a token boundary. */
const matchKeyword = (bytes: Uint8Array, offset: number, end: number, keyword: ReadonlyArray<number>): boolean => {
  if (offset + keyword.length >= end) return false
  for (let index = 0; index < keyword.length; index++) {
    if ((bytes[offset + index]! | 0x20) !== keyword[index]) return false
  }
  const next = bytes[offset + keyword.length]!
  return isSpace(next) || next === 0x22 || next === 0x2a
}

const decoder = new TextDecoder()

/**
 * The LISTEN / UNLISTEN commands at the start of the NUL-terminated text at
 * `offset`, or `undefined` for any other statement. The common case (not a
 * channel command) returns after looking at one byte.
 */
export const channelCommands = (
  bytes: Uint8Array,
  offset: number,
  end: number
): Array<ChannelCommand> | undefined => {
  let commands: Array<ChannelCommand> | undefined
  let position = offset
  while (true) {
    while (position < end && isSpace(bytes[position]!)) position++
    const first = bytes[position]! | 0x20
    let listen: boolean
    if (first === 0x6c && matchKeyword(bytes, position, end, LISTEN)) {
      listen = true
      position += LISTEN.length
    } else if (first === 0x75 && matchKeyword(bytes, position, end, UNLISTEN)) {
      listen = false
      position += UNLISTEN.length
    } else {
      return commands
    }
    while (position < end && isSpace(bytes[position]!)) position++
    let channel: string
    if (bytes[position] === 0x22) {
      // A quoted identifier keeps its case; `""` stands for one quote.
      const start = position + 1
      position = start
      while (position < end && !(bytes[position] === 0x22 && bytes[position + 1] !== 0x22)) {
        position += bytes[position] === 0x22 ? 2 : 1
      }
      channel = decoder.decode(bytes.subarray(start, position)).replaceAll("\"\"", "\"")
      position++
    } else if (!listen && bytes[position] === 0x2a) {
      channel = "*"
      position++
    } else {
      // PostgreSQL folds unquoted identifiers to lower case (ASCII only for UTF-8).
      const start = position
      while (position < end && isIdentifierByte(bytes[position]!)) position++
      if (position === start) return commands
      channel = decoder.decode(bytes.subarray(start, position)).replace(/[A-Z]+/g, (text) => text.toLowerCase())
    }
    ;(commands ??= []).push({ listen, channel })
    while (position < end && isSpace(bytes[position]!)) position++
    if (bytes[position] !== 0x3b) return commands
    position++
  }
}
