/**
 * The SQL client layers: a PostgreSQL server when `DATABASE_URL` is set,
 * otherwise PostgreSQL embedded in the process (PGlite) and kept in the data
 * folder. Both provide `SqlClient` and `PgClient` with the migrations
 * applied, and `DatabaseInfo` saying which one it is.
 *
 * @since 0.0.0
 */
import { PGlite, type PGliteOptions } from "@electric-sql/pglite"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import { Config, Effect, Layer, Option, Path, Redacted, Schema } from "effect"
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

/** Opens PGlite for the scope, closing it when the scope closes. */
export const openPglite = (
  options: PGliteOptions & { readonly dataDir?: string | undefined }
): Effect.Effect<PGlite, EmbeddedDatabaseError, Scope> =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () => PGlite.create(options),
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
    const pglite = yield* openPglite({ dataDir: path.join(dataDir, "pgdata") })
    return layerPglite(pglite, { dataDirLock })
  })).pipe(Layer.provide([NodeFileSystem.layer, NodePath.layer]))

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
