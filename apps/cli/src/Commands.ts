import { Config, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { Main, Packages } from "@herald/server"
import { Database, DatabaseInfo } from "@herald/db"
import { SecretKey, Settings } from "@herald/core"
import * as Output from "./Output.ts"
import * as Start from "./Start.ts"
import { DataDirLock } from "@herald/db"
import { accountConnect, accountList, mediaUpload } from "./internal/accountCommands.ts"
import { guarded, json } from "./internal/commandRun.ts"
import {
  keyCreate,
  keyList,
  keyRevoke,
  memberInvite,
  memberList,
  memberLoginLink,
  memberRemove,
  memberRole,
  workspaceCreate,
  workspaceList
} from "./internal/workspaceCommands.ts"

const start = Command.make("start", { json }, ({ json }) =>
  guarded(
    json,
    Main.run(Packages.all, (started) =>
      Output.result(json, {
        api: started.api,
        docs: started.docs,
        openapi: started.openapi,
        mcp: started.mcp,
        health: started.health,
        listening: started.listening,
        database: started.database,
        sandbox: started.sandbox,
        networks: started.networks,
        role: started.role,
        runner: Option.getOrNull(started.runner),
        firstRun: Option.getOrNull(Option.map(started.firstRun, ({ accounts, key, workspace }) => ({ workspace, key, accounts }))),
        consoleLink: Option.getOrNull(Option.map(started.firstRun, ({ consoleLink }) => consoleLink))
      }, () => Start.banner(started))
    ).pipe(Effect.onInterrupt(() => Start.stopped(json)))
  )).pipe(Command.withDescription("Start the service: REST API, docs, MCP and background work"))

const migrate = Command.make("migrate", { json }, ({ json }) =>
  guarded(
    json,
    Effect.gen(function*() {
      const settings = yield* Settings.load
      if (Option.isNone(settings.databaseUrl)) {
        const holder = yield* DataDirLock.readLock(settings.dataDir)
        if (Option.isSome(holder)) {
          // A running server applied every migration it knows when it started.
          return yield* Output.result(json, { migrated: true, by: "server", pid: holder.value.pid }, () => [
            `The server (pid ${holder.value.pid}) holds ${settings.dataDir} and migrated it when it started.`
          ])
        }
      }
      // Opening the database applies what is pending; the layer reports what that was.
      const applied = yield* DatabaseInfo.DatabaseInfo.pipe(
        Effect.map((info) => info.appliedMigrations.map(([id, name]) => `${String(id).padStart(4, "0")}_${name}`)),
        Effect.provide(
          Option.match(settings.databaseUrl, {
            onNone: () => Database.layerEmbedded({ dataDir: settings.dataDir }),
            onSome: Database.layerUrl
          })
        ),
        Effect.scoped
      )
      yield* Output.result(json, { migrated: true, by: "cli", applied }, () => [
        applied.length === 0 ? "The database is up to date." : `Applied: ${applied.join(", ")}`
      ])
    })
  )).pipe(Command.withDescription("Bring the database schema up to date"))

// Only the value on stdout, so that `HERALD_SECRET_KEY=$(./herald secret generate)` takes it as it is.
const secretGenerate = Command.make("generate", { json }, ({ json }) =>
  Effect.flatMap(SecretKey.generate, (secret) => Output.result(json, { secret }, () => [secret]))).pipe(
    Command.withDescription("Print a new HERALD_SECRET_KEY value: 32 random bytes as 64 hex characters")
  )

const mcp = Command.make("mcp", {
  url: Flag.String("url").pipe(
    Flag.withDescription("The Herald to reach, as its base URL (https://herald.example.com); HERALD_URL when not given"),
    Flag.withFallbackConfig(Config.String("HERALD_URL"))
  ),
  key: Flag.Redacted("key").pipe(
    Flag.withDescription("An API key of the workspace (hrld_...); HERALD_API_KEY when not given"),
    Flag.withFallbackConfig(Config.Redacted("HERALD_API_KEY"))
  )
}, ({ key, url }) =>
  Effect.gen(function*() {
    const base = yield* Effect.try({ try: () => new URL(url), catch: () => `--url ${url} is not a URL` })
    if (base.protocol !== "https:" && base.protocol !== "http:") return yield* Effect.fail(`--url ${url} is not an http(s) URL`)
    // Imported here, so that the MCP SDK's client is loaded by `herald mcp` alone, not by `herald start`.
    const { run } = yield* Effect.promise(() => import("./McpBridge.ts"))
    yield* run({ url: base, key })
  }).pipe(
    Effect.catch((message: string) =>
      Effect.sync(() => {
        process.stderr.write(`herald mcp: ${message}\n`)
        process.exitCode = 2
      })
    )
  )).pipe(Command.withDescription(
    "An MCP server on stdio that forwards to a Herald's /api/mcp with the key: for assistants that cannot set headers"
  ))

export const herald = Command.make("herald").pipe(
  Command.withDescription("Herald: schedule and publish social posts"),
  Command.withSubcommands([
    start,
    migrate,
    mcp,
    Command.make("workspace").pipe(
      Command.withDescription("Workspaces"),
      Command.withSubcommands([workspaceCreate, workspaceList])
    ),
    Command.make("key").pipe(
      Command.withDescription("API keys"),
      Command.withSubcommands([keyCreate, keyList, keyRevoke])
    ),
    Command.make("account").pipe(
      Command.withDescription("Connected accounts"),
      Command.withSubcommands([accountConnect, accountList])
    ),
    Command.make("media").pipe(
      Command.withDescription("Photos and videos for posts"),
      Command.withSubcommands([mediaUpload])
    ),
    Command.make("member").pipe(
      Command.withDescription("Workspace members and invitations"),
      Command.withSubcommands([memberList, memberInvite, memberLoginLink, memberRole, memberRemove])
    ),
    Command.make("secret").pipe(
      Command.withDescription("Secrets for the settings"),
      Command.withSubcommands([secretGenerate])
    )
  ])
)
