import { Effect, Layer, Option } from "effect"
import { HttpServer } from "effect/http"
import type { SqlClient } from "effect/sql"
import type { PgClient } from "@effect/sql-pg"
import { NodeHttpServer, NodeServices } from "@effect/platform-node"
import { SecretKey, Settings } from "@herald/core"
import { Database, DataDirLock } from "@herald/db"
import type { ApiKey, Workspace } from "@herald/domain"
import * as AdminSocket from "./AdminSocket.ts"
import * as FirstRun from "./FirstRun.ts"
import * as Http from "./Http.ts"
import * as NodeServer from "./internal/nodeServer.ts"
import * as Services from "./Services.ts"

/** What a started server tells its operator. */
export interface Started {
  readonly api: string
  readonly docs: string
  readonly openapi: string
  readonly mcp: string
  readonly health: string
  readonly listening: string
  readonly database: "embedded" | "postgres"
  readonly firstRun: Option.Option<{ readonly workspace: Workspace.Workspace; readonly key: ApiKey.CreatedApiKey }>
}

const database = (settings: Settings.Settings) =>
  Option.match(settings.databaseUrl, {
    onNone: () => Database.layerEmbedded({ dataDir: settings.dataDir }),
    onSome: (url) => Database.layerUrl(url)
  })

/** The whole service over the configured database: public HTTP, and the admin socket in embedded mode. */
export const layer = (settings: Settings.Settings) =>
  layerWith(settings, database(settings), Option.isNone(settings.databaseUrl))

/** The service over a given database layer (tests give theirs); `adminSocket` serves the operator's socket. */
export const layerWith = <E, R>(
  settings: Settings.Settings,
  databaseLayer: Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, E, R>,
  adminSocket: boolean
) => {
  const publicHttp = Http.serve(Http.routes).pipe(
    Layer.provideMerge(NodeHttpServer.layer(NodeServer.make, {
      port: settings.port,
      ...(settings.host === undefined ? {} : { host: settings.host })
    }))
  )
  const socketPath = AdminSocket.socketPathFor(settings.dataDir)
  const admin = adminSocket
    ? AdminSocket.layer(socketPath).pipe(
      Layer.tap(() => DataDirLock.setAdminSocket(settings.dataDir, socketPath))
    )
    : Layer.empty
  return Layer.mergeAll(publicHttp, admin).pipe(
    Layer.provideMerge(Services.layer(settings)),
    Layer.provideMerge(SecretKey.SecretKey.fromSettings(settings)),
    Layer.provideMerge(databaseLayer),
    Layer.provide(NodeServices.layer)
  )
}

/** Starts Herald, reports the addresses once it listens, and runs until interrupted. */
export const run = (onReady: (started: Started) => Effect.Effect<void>) =>
  Effect.scoped(Effect.gen(function*() {
    const settings = yield* Settings.load
    const context = yield* Layer.build(layer(settings))
    const firstRun = yield* FirstRun.ensureDemo.pipe(Effect.provideContext(context))
    const server = yield* HttpServer.HttpServer.pipe(Effect.provideContext(context))
    const base = Option.getOrElse(settings.baseUrl, () => {
      const address = server.address
      return address._tag === "UnixPathAddress" ? HttpServer.formatAddress(address) : `http://localhost:${address.port}`
    })
    yield* onReady({
      api: `${base}/api/v1`,
      docs: `${base}/docs`,
      openapi: `${base}${Http.openapiPath}`,
      mcp: `${base}/api/mcp`,
      health: `${base}/health`,
      listening: HttpServer.formatAddress(server.address),
      database: Option.isSome(settings.databaseUrl) ? "postgres" : "embedded",
      firstRun
    })
    return yield* Effect.never
  }))
