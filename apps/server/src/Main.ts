import { Context, type Duration, Effect, Layer, Option } from "effect"
import { HttpServer } from "effect/http"
import type { SqlClient } from "effect/sql"
import type { PgClient } from "@effect/sql-pg"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeServices from "@effect/platform-node/NodeServices"
import {
  Cipher,
  Connections,
  Inbox,
  MediaFetch,
  Networks,
  Notifier,
  OAuth,
  People,
  Posts,
  Publisher,
  PublishingEngine,
  Reviews,
  SecretKey,
  Settings,
  Sessions,
  SignedLinks,
  Queue,
  QueueSchedules,
  Scheduler,
  Team,
  TokenRefresh,
  WebhookDelivery,
  WebhookHttp,
  Webhooks
} from "@herald/core"
import { AdapterConfig } from "@herald/adapter-kit"
import { Database, type DatabaseInfo, DataDirLock } from "@herald/db"
import type { Account, ApiKey, Workspace } from "@herald/domain"
import { createServer as createNetServer } from "node:net"
import * as AdminSocket from "./AdminSocket.ts"
import * as ApiSunsets from "./ApiSunsets.ts"
import * as Cluster from "./Cluster.ts"
import * as FirstRun from "./FirstRun.ts"
import * as Http from "./Http.ts"
import * as NetworkHttp from "./NetworkHttp.ts"
import { NetworkWatch } from "./NetworkWatch.ts"
import * as Operational from "./http/Operational.ts"
import { TrustedProxies } from "./http/ClientAddress.ts"
import { MetricsToken } from "./http/Metrics.ts"
import * as IdleMemory from "./IdleMemory.ts"
import { Installed } from "./Installed.ts"
import * as NodeServer from "./internal/nodeServer.ts"
import * as NetworkPackages from "./NetworkPackages.ts"
import * as Observability from "./Observability.ts"
import { PublicUrl } from "./PublicUrl.ts"
import { Readiness } from "./Readiness.ts"
import * as Services from "./Services.ts"

/** What a started server tells its operator. */
export interface Started {
  readonly api: string
  readonly docs: string
  readonly openapi: string
  readonly mcp: string
  readonly health: string
  readonly listening: string
  readonly role: Settings.Role
  /** Where this process's cluster runner listens, when it has one of its own. */
  readonly runner: Option.Option<string>
  readonly database: "embedded" | "postgres"
  readonly sandbox: boolean
  readonly networks: ReadonlyArray<string>
  readonly firstRun: Option.Option<{
    readonly workspace: Workspace.Workspace
    readonly key: ApiKey.CreatedApiKey
    /** The Demo owner's one-time console link (`{BASE_URL}/app/link#…`, 7 days). */
    readonly consoleLink: string
    readonly accounts: ReadonlyArray<Account.Account>
  }>
  /** On a later start of a process that serves the API: the Demo workspace, if it is still there. */
  readonly laterStart: Option.Option<{ readonly demo: Option.Option<Workspace.Workspace> }>
}

const database = (settings: Settings.Settings) =>
  Option.match(settings.databaseUrl, {
    onNone: () => Database.layerEmbedded({ dataDir: settings.dataDir }),
    onSome: (url) => Database.layerUrl(url)
  })

// The public address must be known before the routes are built (OAuth redirect URIs, the sandbox's
// links), so with `PORT=0` a free port is chosen first.
const freePort = Effect.callback<number>((resume) => {
  const server = createNetServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

/**
 * The whole service over the configured database: public HTTP, and the admin socket in embedded mode; and,
 * as a process of its own, giving memory back when it goes quiet (IdleMemory).
 */
export const layer = (settings: Settings.Settings, packages: ReadonlyArray<NetworkPackages.NetworkPackage>) =>
  Layer.merge(layerWith(settings, database(settings), Option.isNone(settings.databaseUrl), packages), IdleMemory.layer())

/** What a process runs besides its database: `HERALD_ROLE` and its runner's address. */
export class RunnerInfo extends Context.Service<RunnerInfo, {
  readonly role: Settings.Role
  readonly runner: Option.Option<string>
}>()("@herald/server/Main/RunnerInfo") {}

/**
 * The service over a given database layer (tests give theirs); `adminSocket` serves the operator's socket.
 * `tuning` shortens waits in tests: publishing retries and polls, and the cluster's stop timeout; or
 * lengthens the webhook rounds' fallback poll, to show the fan-out is woken without it.
 */
export const layerWith = <E, R>(
  settings: Settings.Settings,
  databaseLayer: Layer.Layer<SqlClient.SqlClient | PgClient.PgClient | DatabaseInfo.DatabaseInfo, E, R>,
  adminSocket: boolean,
  packages: ReadonlyArray<NetworkPackages.NetworkPackage>,
  tuning: {
    readonly publishing?: Partial<Publisher.Options> | undefined
    readonly cluster?: Cluster.Tuning | undefined
    readonly webhookPollEveryMs?: number | undefined
    /** How often one account's inbox is read (1 min by default). */
    readonly inboxPollEvery?: Duration.Duration | undefined
    /** When posts are handed to the cluster (decision 0051): 2 min ahead, looked for every 30 s, by default. */
    readonly handover?: Partial<Scheduler.HandoverOptions> | undefined
  } = {}
) =>
  Layer.unwrap(Effect.gen(function*() {
    const port = settings.port === 0 ? yield* freePort : settings.port
    const clusterMode = Option.isSome(settings.databaseUrl) ? "socket" as const : "single" as const
    const ownRunner = clusterMode === "socket" && settings.role !== "api"
    const runnerPort = ownRunner && settings.runnerPort === 0 ? yield* freePort : settings.runnerPort
    const runner = ownRunner ? Option.some(`${settings.runnerHost}:${runnerPort}`) : Option.none<string>()
    const cluster = Cluster.layer({ mode: clusterMode, role: settings.role, runnerHost: settings.runnerHost, runnerPort, tuning: tuning.cluster })
    const works = settings.role !== "api"
    const baseUrl = Option.getOrElse(settings.baseUrl, () => `http://localhost:${port}`)
    const anyCredentials = yield* Effect.map(
      Effect.forEach(packages, (entry) => NetworkPackages.settings(entry.network)),
      (found) => found.some(AdapterConfig.whenClientSet)
    )
    const sandbox = Option.getOrElse(settings.sandbox, () => !anyCredentials)
    const installation = yield* NetworkPackages.install(packages, { sandbox, baseUrl, sharedDatabase: Option.isSome(settings.databaseUrl) })
    const networks = Networks.Networks.layer(installation.adapters).pipe(
      Layer.provide(NetworkHttp.layer({
        own: baseUrl,
        allowPrivate: settings.webhookAllowPrivate,
        simulated: new Set(installation.simulators.map((simulator) => simulator.network))
      })),
      // The same watch the adapters' client counts in is read by /ready (decision 0066).
      Layer.provideMerge(NetworkWatch.layer({ timeoutMs: settings.networkTimeoutMs }))
    )
    // A worker serves only what an operator probes and scrapes: /health, /ready and /metrics.
    const publicHttp = Http.serve(settings.role === "worker" ? Operational.layer : Http.routes(installation.sandboxRoutes)).pipe(
      Layer.provideMerge(NodeHttpServer.layer(NodeServer.make, {
        port,
        ...(settings.host === undefined ? {} : { host: settings.host })
      }))
    )
    const socketPath = AdminSocket.socketPathFor(settings.dataDir)
    const admin = adminSocket
      ? AdminSocket.layer(socketPath).pipe(Layer.tap(() => DataDirLock.setAdminSocket(settings.dataDir, socketPath)))
      : Layer.empty
    // Workers run the post entities, the sweep and the token renewal round.
    const deliveryOptions: WebhookDelivery.Options = {
      retrySchedule: settings.webhookRetrySchedule,
      timeoutMs: settings.webhookTimeoutMs,
      disableAfter: settings.webhookDisableAfter,
      allowPrivate: settings.webhookAllowPrivate
    }
    const publishingWork = works
      ? Layer.mergeAll(PublishingEngine.workers, PublishingEngine.sweep(), Scheduler.handover(tuning.handover), WebhookDelivery.WebhookDelivery.rounds({ pollEveryMs: tuning.webhookPollEveryMs }),
        Inbox.Inbox.rounds()).pipe(
        Layer.provide(Publisher.Publisher.layer(tuning.publishing))
      )
      : Layer.empty
    return Layer.mergeAll(publicHttp, admin, publishingWork, ApiSunsets.layer).pipe(
      Layer.provideMerge(Layer.mergeAll(
        Connections.Connections.layer,
        works ? TokenRefresh.TokenRefresh.layer : TokenRefresh.TokenRefresh.layerNoDeps,
        // Reviews act on posts through the same Posts.
        Reviews.Reviews.layer.pipe(Layer.provideMerge(Posts.Posts.layer)),
        Webhooks.Webhooks.layer({ allowPrivate: settings.webhookAllowPrivate, disableAfter: settings.webhookDisableAfter }),
        // MCP's upload_media_from_url fetches under the webhooks' address rule, and its setting.
        MediaFetch.MediaFetch.layer({ allowPrivate: settings.webhookAllowPrivate }),
        Team.Team.layer,
        QueueSchedules.QueueSchedules.layer,
        Queue.Queue.layer,
        // The OAuth server for /api/mcp asks People which workspaces a consenting person is a member of.
        Layer.mergeAll(Sessions.Sessions.layer, OAuth.OAuth.layer).pipe(Layer.provideMerge(People.People.layer)),
        Inbox.Inbox.layer({ pollEvery: tuning.inboxPollEvery }),
        WebhookDelivery.WebhookDelivery.layerNoDeps(deliveryOptions),
        Readiness.layer({ runsWorkers: works })
      )),
      Layer.provideMerge(Layer.mergeAll(WebhookHttp.WebhookHttp.layer, Notifier.Notifier.layer({ smtpUrl: settings.smtpUrl }))),
      // Posts reach the cluster only once nearly due (decision 0051).
      Layer.provideMerge(Scheduler.nearlyDue(tuning.handover).pipe(Layer.provide(PublishingEngine.scheduler))),
      Layer.provideMerge(cluster),
      Layer.provideMerge(Layer.succeed(RunnerInfo, { role: settings.role, runner })),
      Layer.provideMerge(Layer.succeed(MetricsToken, settings.metricsToken)),
      Layer.provideMerge(Layer.succeed(TrustedProxies, settings.trustedProxies)),
      Layer.provideMerge(Layer.mergeAll(
        Services.layer(settings),
        networks,
        Layer.succeed(PublicUrl, baseUrl),
        NodeHttpClient.layerUndici,
        Layer.succeed(Installed, { sandbox, simulators: installation.simulators })
      )),
      Layer.provideMerge(Layer.mergeAll(Cipher.Cipher.layer, SignedLinks.SignedLinks.layer)),
      Layer.provideMerge(SecretKey.SecretKey.fromSettings(settings)),
      Layer.provideMerge(databaseLayer),
      // Under everything, so that every fiber the layers above start traces through it (when it is on).
      Layer.provideMerge(Observability.layer(settings)),
      Layer.provide(NodeServices.layer)
    )
  }))

/** Starts Herald, reports the addresses once it listens, and runs until interrupted. */
export const run = (
  packages: ReadonlyArray<NetworkPackages.NetworkPackage>,
  onReady: (started: Started) => Effect.Effect<void>
) =>
  Effect.scoped(Effect.gen(function*() {
    const settings = yield* Settings.load
    const context = yield* Layer.build(layer(settings, packages))
    const info = Context.get(context, RunnerInfo)
    // A worker serves no API, so it leaves first-run set-up to the processes that do.
    const demo = info.role === "worker" ? Option.none() : yield* FirstRun.ensureDemo.pipe(Effect.provideContext(context))
    const firstRun = Option.isNone(demo) ? Option.none() : Option.some({
      ...demo.value,
      accounts: yield* FirstRun.connectSandboxAccounts(demo.value.workspace.id).pipe(Effect.provideContext(context))
    })
    const laterStart = info.role === "worker" || Option.isSome(demo)
      ? Option.none()
      : Option.some({ demo: yield* FirstRun.findDemo.pipe(Effect.provideContext(context)) })
    const server = Context.getOption(context, HttpServer.HttpServer)
    const base = yield* PublicUrl.pipe(Effect.provideContext(context))
    const installed = yield* Installed.pipe(Effect.provideContext(context))
    const networks = yield* Networks.Networks.pipe(Effect.provideContext(context))
    const listening = Option.match(server, {
      onNone: () => Option.getOrElse(info.runner, () => ""),
      onSome: (found) => HttpServer.formatAddress(found.address)
    })
    yield* onReady({
      api: `${base}/api/v1`,
      docs: `${base}/docs`,
      openapi: `${base}${Http.openapiPath}`,
      mcp: `${base}/api/mcp`,
      // A worker's BASE_URL is an API process's address; its own probes are where it listens.
      health: info.role === "worker" ? `${listening}/health` : `${base}/health`,
      listening,
      role: info.role,
      runner: info.runner,
      database: Option.isSome(settings.databaseUrl) ? "postgres" : "embedded",
      sandbox: installed.sandbox,
      networks: networks.all.map((adapter) => adapter.network),
      firstRun,
      laterStart
    })
    return yield* Effect.never
  }))
