import { Effect, Layer, Option } from "effect"
import { Settings } from "@herald/core"
import { Database, DataDirLock } from "@herald/db"
import { Admin, AdminError } from "./Admin.ts"
import { Accounts, ApiKeys } from "@herald/core"

// Where the `herald` command does its work. With PostgreSQL any number of processes share the database, so
// the command opens it directly. The embedded database admits one process: when a server holds the data
// folder the command goes through that server's admin socket; otherwise it opens the folder itself.

export const adminLayer = Layer.unwrap(Effect.gen(function*() {
  const settings = yield* Settings.load
  if (Option.isSome(settings.databaseUrl)) {
    return Admin.layerDirect.pipe(
      Layer.provide(Layer.merge(ApiKeys.ApiKeys.layer, Accounts.Accounts.layer)),
      Layer.provideMerge(Database.layerUrl(settings.databaseUrl.value))
    )
  }
  const holder = yield* DataDirLock.readLock(settings.dataDir)
  if (Option.isSome(holder)) {
    const socket = holder.value.adminSocket
    if (socket === undefined) {
      return yield* new AdminError({
        code: "unavailable",
        message: `Herald process ${holder.value.pid} holds ${settings.dataDir} and is still starting; ` +
          `try again in a moment`
      })
    }
    return Admin.layerRemote(socket)
  }
  return Admin.layerDirect.pipe(
    Layer.provide(Layer.merge(ApiKeys.ApiKeys.layer, Accounts.Accounts.layer)),
    Layer.provideMerge(Database.layerEmbedded({ dataDir: settings.dataDir }))
  )
}))
