/**
 * The few pieces of the PostgreSQL wire protocol the PGlite bridge reads or
 * writes itself. Everything else passes through as opaque bytes.
 * Message formats: https://www.postgresql.org/docs/current/protocol-message-formats.html
 */
import { Buffer } from "node:buffer"

// Frontend (client to server) message types the bridge looks at.
export const PARSE = 0x50 // 'P'
export const BIND = 0x42 // 'B'
export const CLOSE = 0x43 // 'C'
export const QUERY = 0x51 // 'Q'
export const SYNC = 0x53 // 'S'
export const TERMINATE = 0x58 // 'X'

// Backend (server to client) message types the bridge looks at.
export const READY_FOR_QUERY = 0x5a // 'Z'
export const NOTIFICATION = 0x41 // 'A'

// Transaction status byte of ReadyForQuery: idle; the others are 'T' (in a transaction) and 'E' (failed one).
export const IDLE = 0x49 // 'I'

// Codes of the untyped messages a connection may open with.
export const SSL_REQUEST = 80877103
export const GSSENC_REQUEST = 80877104
export const CANCEL_REQUEST = 80877102
export const PROTOCOL_MAJOR_3 = 3

/** The single byte that refuses an SSLRequest or GSSENCRequest. */
export const REFUSE_ENCRYPTION: Uint8Array = Buffer.from("N", "latin1")

export const readInt32 = (bytes: Uint8Array, offset: number): number =>
  (bytes[offset]! << 24) | (bytes[offset + 1]! << 16) | (bytes[offset + 2]! << 8) | bytes[offset + 3]!

/** Offset just past the NUL that ends the C string starting at `offset`, or -1. */
export const skipCString = (bytes: Uint8Array, offset: number, end: number): number => {
  const nul = bytes.indexOf(0, offset)
  return nul < 0 || nul >= end ? -1 : nul + 1
}

const decoder = new TextDecoder()

export const decodeCString = (bytes: Uint8Array, offset: number, end: number): string => {
  const next = skipCString(bytes, offset, end)
  return decoder.decode(bytes.subarray(offset, next < 0 ? end : next - 1))
}

/** Builds one typed message from its body parts; only used off the hot path. */
const message = (type: number, body: ReadonlyArray<Uint8Array>): Buffer => {
  let length = 4
  for (const part of body) length += part.length
  const bytes = Buffer.allocUnsafe(1 + length)
  bytes[0] = type
  bytes.writeInt32BE(length, 1)
  let offset = 5
  for (const part of body) {
    bytes.set(part, offset)
    offset += part.length
  }
  return bytes
}

const cString = (text: string): Buffer => Buffer.from(`${text}\0`, "utf8")

const int32 = (value: number): Buffer => {
  const bytes = Buffer.allocUnsafe(4)
  bytes.writeInt32BE(value, 0)
  return bytes
}

export const encodeQuery = (sql: string): Buffer => message(QUERY, [cString(sql)])

export const encodeCloseStatement = (name: string): Buffer => message(CLOSE, [Buffer.from("S", "latin1"), cString(name)])

export const encodedSync: Uint8Array = message(SYNC, [])

export const quoteIdentifier = (name: string): string => `"${name.replaceAll("\"", "\"\"")}"`

/**
 * What the bridge answers a StartupMessage with, standing in for PGlite's
 * own startup: PGlite is already running its one session, so there is no
 * authentication, and the parameters are the session's. The process id and
 * secret key of BackendKeyData are written per connection at `keyOffset`.
 */
export const encodeStartupResponse = (
  parameters: ReadonlyArray<readonly [name: string, value: string]>
): { readonly bytes: Buffer; readonly keyOffset: number } => {
  const parts: Array<Buffer> = [message(0x52, [int32(0)])] // AuthenticationOk
  for (const [name, value] of parameters) {
    parts.push(message(0x53, [cString(name), cString(value)])) // ParameterStatus
  }
  const beforeKey = parts.reduce((total, part) => total + part.length, 0)
  parts.push(message(0x4b, [int32(0), int32(0)])) // BackendKeyData
  parts.push(message(READY_FOR_QUERY, [Buffer.from("I", "latin1")]))
  return { bytes: Buffer.concat(parts), keyOffset: beforeKey + 5 }
}

/** A fatal ErrorResponse, for a startup the bridge cannot serve. */
export const encodeFatal = (code: string, text: string): Buffer =>
  message(0x45, [
    cString("SFATAL"),
    cString("VFATAL"),
    cString(`C${code}`),
    cString(`M${text}`),
    Buffer.from([0])
  ])
