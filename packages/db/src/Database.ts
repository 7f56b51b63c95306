/**
 * The SQL client layers: a PostgreSQL server when `DATABASE_URL` is set,
 * otherwise PostgreSQL embedded in the process (PGlite) and kept in the data
 * folder. Both provide `SqlClient` and `PgClient` with the migrations
 * applied, and `DatabaseInfo` saying which one it is.
 *
 * @since 0.0.0
 */
import type { PGlite, PGliteOptions } from "@electric-sql/pglite"
import { execFile } from "node:child_process"
import { readFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import { Config, Effect, FileSystem, Layer, Option, Path, Redacted, Schema } from "effect"
import type { PlatformError } from "effect/PlatformError"
import type { Scope } from "effect/Scope"
import type { MigrationError } from "effect/sql/Migrator"
import type { SqlError } from "effect/sql/SqlError"
import * as DataDirLock from "./DataDirLock.ts"
import { layerClient, migrate as runMigrations, type Services as ClientServices } from "./internal/client.ts"
import * as PgliteBridge from "./PgliteBridge.ts"

/** What every database layer provides. */
export type Services = ClientServices

/** PGlite failed to open (or to create) its database. */
export class EmbeddedDatabaseError extends Schema.TaggedError<EmbeddedDatabaseError>()("EmbeddedDatabaseError", {
  dataDir: Schema.UndefinedOr(Schema.String),
  cause: Schema.Defect()
}) {
  override get message(): string {
    const where = this.dataDir === undefined ? "in memory" : `in ${this.dataDir}`
    return `The embedded database could not open ${where}: ${String(this.cause)}`
  }
}

export type EmbeddedError =
  | SqlError
  | MigrationError
  | PgliteBridgeError
  | EmbeddedDatabaseError
  | DataDirLock.DataDirBusy
  | PlatformError

type PgliteBridgeError = PgliteBridge.PgliteBridgeError

/**
 * Applies the pending migrations through the provided client and returns
 * those it applied. The layers here run it as they start and report the
 * result in `DatabaseInfo.appliedMigrations`, so after them it finds
 * nothing left to do.
 */
export const migrate = runMigrations

/** A PostgreSQL server, e.g. `postgres://user:password@host:5432/herald`. */
export const layerUrl = (url: Redacted.Redacted<string> | string): Layer.Layer<Services, SqlError | MigrationError> =>
  layerClient(
    Effect.succeed({ url: typeof url === "string" ? Redacted.make(url) : url }),
    { backend: "postgres", pglite: Option.none(), dataDirLock: Option.none() }
  )

/**
 * Serves an already open PGlite through the bridge. The caller owns the
 * PGlite and closes it after this layer is released.
 */
export const layerPglite = (
  pglite: PGlite,
  options?: { readonly dataDirLock?: DataDirLock.DataDirLock | undefined }
): Layer.Layer<Services, SqlError | MigrationError | PgliteBridgeError> =>
  layerClient(
    // PGlite has one user; the name only has to be present.
    Effect.map(PgliteBridge.make(pglite), (bridge) => ({ stream: bridge.connect, username: "postgres" })),
    { backend: "embedded", pglite: Option.some(pglite), dataDirLock: Option.fromUndefinedOr(options?.dataDirLock) }
  )

/**
 * PostgreSQL's buffer cache for the embedded database: 16 MB instead of its default 128 MB, which PGlite
 * keeps in its WebAssembly memory (memory that never shrinks). The data folder is read through the
 * operating system's file cache anyway, and on a 50 MB table CPU per lookup and per scan measured the same
 * at 16 and 128 MB (docs/decisions/0055-idle-memory.md); the idle process holds some 60 MB less.
 */
const memorySettings = ["-c", "shared_buffers=16MB"]

// The one WebAssembly function used here: the project's TypeScript libraries (ES2024, node) declare none.
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<PGliteOptions["pgliteWasmModule"]> }

/**
 * PGlite's WebAssembly module, compiled once per open: a new data folder is initialised by a second PGlite
 * instance that otherwise compiles the same 9 MB module again, and the compiler's memory stays with the
 * process afterwards (about 50 MB resident).
 */
const compilePglite = (): Promise<PGliteOptions["pgliteWasmModule"]> => {
  const dist = dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"))
  return readFile(join(dist, "pglite.wasm")).then((bytes) => WebAssembly.compile(bytes))
}

/**
 * Opens PGlite for the scope, closing it when the scope closes. PGlite's module is imported here, when an
 * embedded database is opened, so that a process on a PostgreSQL server never loads it (its code and
 * sources cost an idle process a few MB; see docs/decisions/0055-idle-memory.md).
 */
export const openPglite = (
  options: PGliteOptions & { readonly dataDir?: string | undefined }
): Effect.Effect<PGlite, EmbeddedDatabaseError, Scope> =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () =>
        Promise.all([import("@electric-sql/pglite"), compilePglite()]).then(([{ PGlite }, pgliteWasmModule]) =>
          PGlite.create({ startParams: [...PGlite.defaultStartParams, ...memorySettings], pgliteWasmModule, ...options })
        ),
      catch: (cause) => new EmbeddedDatabaseError({ dataDir: options.dataDir, cause })
    }),
    (pglite) =>
      Effect.tryPromise(() => pglite.close()).pipe(
        Effect.catch((error) => Effect.logWarning("The embedded database did not close cleanly", error))
      )
  )

/**
 * PostgreSQL embedded in this process, kept in `<dataDir>/pgdata` (in memory
 * when `dataDir` is undefined). A data folder is locked for this process
 * (`<dataDir>/herald.lock`) for as long as the layer lives.
 */
export const layerEmbedded = (options: { readonly dataDir: string | undefined }): Layer.Layer<Services, EmbeddedError> =>
  Layer.unwrap(Effect.gen(function*() {
    if (options.dataDir === undefined) return layerPglite(yield* openPglite({}))
    const path = yield* Path.Path
    const dataDir = path.resolve(options.dataDir)
    const dataDirLock = yield* DataDirLock.acquire(dataDir)
    const pgdata = path.join(dataDir, "pgdata")
    if (!(yield* (yield* FileSystem.FileSystem).exists(path.join(pgdata, "PG_VERSION")))) yield* initialise(pgdata)
    const pglite = yield* openPglite({ dataDir: pgdata })
    return layerPglite(pglite, { dataDirLock })
  })).pipe(Layer.provide([NodeFileSystem.layer, NodePath.layer]))

/**
 * Makes a new data folder's database (initdb) in a child process that exits once it is made. PGlite runs
 * initdb in two WebAssembly instances of its own besides the one it then serves; in this process the memory
 * they took stays resident after they are gone (about 140 MB for as long as Herald runs), in a child it goes
 * with the child. A first start takes a second or so longer (docs/decisions/0055-idle-memory.md).
 */
const initialise = (pgdata: string) =>
  Effect.callback<void, EmbeddedDatabaseError>((resume) => {
    const script = fileURLToPath(new URL("./internal/initdb.ts", import.meta.url))
    execFile(process.execPath, [script, pgdata], { timeout: 120_000 }, (error, _stdout, stderr) =>
      resume(
        error === null
          ? Effect.void
          : Effect.fail(new EmbeddedDatabaseError({ dataDir: pgdata, cause: stderr.trim() || error.message }))
      ))
  })

/**
 * From the environment: `DATABASE_URL` selects a PostgreSQL server,
 * otherwise the embedded database lives in `HERALD_DATA_DIR` (`./.herald`).
 */
export const layerConfig: Layer.Layer<Services, EmbeddedError | Config.ConfigError> = Layer.unwrap(
  Effect.gen(function*() {
    const url = yield* Config.option(Config.Redacted("DATABASE_URL"))
    if (Option.isSome(url)) return layerUrl(url.value)
    const dataDir = yield* Config.String("HERALD_DATA_DIR").pipe(Config.withDefault("./.herald"))
    return layerEmbedded({ dataDir })
  })
)
