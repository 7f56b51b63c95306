/**
 * The batch that undoes what a vanished client left in PGlite's one shared
 * session. Apart from `BridgeConnection`, which tracks that state as the
 * client's messages pass and runs this once, after the client has gone.
 */
import { Buffer } from "node:buffer"
import type { BridgeSession } from "./BridgeSession.ts"
import type { PreparedStatements } from "./PreparedStatements.ts"
import * as Wire from "./wire.ts"

/**
 * Undoes what a vanished client left in the shared session: its open
 * transaction, its prepared statements and the channels nobody else wants.
 */
export const cleanupBatch = (
  session: BridgeSession,
  inCycle: boolean,
  status: number,
  statements: PreparedStatements,
  listening: Set<string>
): Uint8Array => {
  const parts: Array<Uint8Array> = []
  if (inCycle) parts.push(Wire.encodedSync)
  if (inCycle || status !== Wire.IDLE) parts.push(Wire.encodeQuery("ROLLBACK"))
  if (statements.size > 0) {
    for (const name of statements.takeNames()) parts.push(Wire.encodeCloseStatement(name))
    parts.push(Wire.encodedSync)
  }
  for (const channel of listening) {
    if (!session.isListened(channel)) {
      parts.push(Wire.encodeQuery(`UNLISTEN ${Wire.quoteIdentifier(channel)}`))
    }
  }
  listening.clear()
  return Buffer.concat(parts)
}
