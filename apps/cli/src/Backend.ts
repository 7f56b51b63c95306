import { Effect, Layer, Option } from "effect"
import { Settings } from "@herald/core"
import { Database, DataDirLock } from "@herald/db"
import { Admin, AdminError } from "./Admin.ts"
import { Accounts, ApiKeys, Cipher, Notifier, People, PublicUrl, SecretKey, Sessions, SignedLinks, Team } from "@herald/core"
import * as NodeServices from "@effect/platform-node/NodeServices"

/** What the operator's commands need besides the database, as a server has them (invitation links, e-mail). */
const services = (settings: Settings.Settings) =>
  Layer.mergeAll(
    Accounts.Accounts.layer,
    Team.Team.layer.pipe(Layer.provideMerge(ApiKeys.ApiKeys.layer)),
    Sessions.Sessions.layer.pipe(Layer.provideMerge(People.People.layer))
  ).pipe(
    Layer.provide(Layer.mergeAll(
      Notifier.Notifier.layer({ smtpUrl: settings.smtpUrl }),
      Layer.succeed(PublicUrl.PublicUrl, Option.getOrElse(settings.baseUrl, () => `http://localhost:${settings.port}`))
    )),
    Layer.provide(Layer.mergeAll(SignedLinks.SignedLinks.layer, Cipher.Cipher.layer)),
    Layer.provide(SecretKey.SecretKey.fromSettings(settings)),
    Layer.provide(NodeServices.layer)
  )

// Where the `herald` command does its work. With PostgreSQL any number of processes share the database, so
// the command opens it directly. The embedded database admits one process: when a server holds the data
// folder the command goes through that server's admin socket; otherwise it opens the folder itself.

export const adminLayer = Layer.unwrap(Effect.gen(function*() {
  const settings = yield* Settings.load
  if (Option.isSome(settings.databaseUrl)) {
    return Admin.layerDirect.pipe(
      Layer.provide(services(settings)),
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
    Layer.provide(services(settings)),
    Layer.provideMerge(Database.layerEmbedded({ dataDir: settings.dataDir }))
  )
}))
