import { Effect, Layer } from "effect"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { createHash } from "node:crypto"
import { chmodSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { resolve } from "node:path"
import * as Http from "./Http.ts"

// Unix socket paths are limited to about 107 bytes; a deep data folder gets its socket in the temp folder
// under a name derived from the folder, and the lock file says where it is.
const maxSocketPath = 100

export const socketPathFor = (dataDir: string): string => {
  const inFolder = resolve(dataDir, "admin.sock")
  if (inFolder.length <= maxSocketPath) return inFolder
  const digest = createHash("sha256").update(resolve(dataDir)).digest("hex").slice(0, 16)
  return resolve(tmpdir(), `herald-${digest}.sock`)
}

/**
 * Serves the operator's routes on a unix socket only the data folder's owner can open: whoever can read the
 * folder can read the database anyway, so the socket needs no key of its own.
 */
export const layer = (socketPath: string) =>
  Layer.unwrap(Effect.sync(() => {
    // A socket file left by a process that died would make listen fail; the data folder lock already
    // guarantees no live server owns it.
    rmSync(socketPath, { force: true })
    return Http.serve(Http.adminRoutes).pipe(
      Layer.provide(NodeHttpServer.layer(() => createServer(), { path: socketPath })),
      Layer.tap(() => Effect.sync(() => chmodSync(socketPath, 0o600))),
      Layer.tap(() => Effect.addFinalizer(() => Effect.sync(() => rmSync(socketPath, { force: true }))))
    )
  }))
