import { Config, Effect, Layer, Option, Redacted } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import type { HttpClient } from "effect/http"
import type { SqlClient } from "effect/sql"
import { type Adapter, AdapterConfig, type ApiVersion, type Limits, Simulator, type SimulatorRules, SimulatorStore } from "@herald/adapter-kit"
import { type ApiKeys, type Inbox, Networks, type RateLimiter, type Sessions } from "@herald/core"
import type { PublicUrl } from "./PublicUrl.ts"
import * as SandboxAccess from "./SandboxAccess.ts"
import * as SandboxBodies from "./SandboxBodies.ts"
import * as SandboxStore from "./SandboxStore.ts"

/** What an adapter package gives the server: its adapter, its simulator, and its real addresses. */
export interface NetworkPackage {
  readonly network: string
  readonly make: (config: AdapterConfig.AdapterConfig) => Effect.Effect<Adapter.Adapter, never, HttpClient.HttpClient>
  readonly simulator: Simulator.Make
  readonly realConfig: (clientId: string, clientSecret: Redacted.Redacted<string>) => AdapterConfig.AdapterConfig
  /**
   * Whether the network is offered outside the sandbox, from its settings; `AdapterConfig.whenClientSet`
   * (a client id and secret set) when absent. The package exports it beside `realConfig`.
   */
  readonly offered?: AdapterConfig.Offered
  /**
   * Where the package's README is (from the repository's root) and the data its limits section is generated
   * from (`source`, inside the folder: the limits and the API version), for `pnpm docs:limits` and its test;
   * absent for a package kept elsewhere.
   */
  readonly readme?: {
    readonly folder: string
    readonly source: string
    readonly limits: Limits.Limits
    readonly api: ApiVersion.ApiVersion
    /** The simulator's table of the network's rules (`SimulatorRules`), and the file it is in. */
    readonly rules?: { readonly source: string; readonly table: SimulatorRules.Table }
  }
}

const envName = (network: string) => network.toUpperCase().replace(/[^A-Z0-9]/g, "_")

/** `HERALD_<NETWORK>_CLIENT_ID` and `_CLIENT_SECRET`, as far as they are set. */
export const settings = (network: string) =>
  Effect.map(
    Effect.all([
      Config.option(Config.String(`HERALD_${envName(network)}_CLIENT_ID`)),
      Config.option(Config.Redacted(`HERALD_${envName(network)}_CLIENT_SECRET`))
    ]),
    ([clientId, clientSecret]): AdapterConfig.Settings => ({
      clientId: Option.getOrUndefined(clientId),
      clientSecret: Option.getOrUndefined(clientSecret)
    })
  ).pipe(Effect.orDie)

/**
 * The client id and secret a package is made with outside the sandbox, when its `offered` says it is
 * offered (empty ones for a network that needs none).
 */
export const credentials = (entry: Pick<NetworkPackage, "network" | "offered">) =>
  Effect.map(settings(entry.network), (found) =>
    (entry.offered ?? AdapterConfig.whenClientSet)(found)
      ? Option.some({ clientId: found.clientId ?? "", clientSecret: found.clientSecret ?? Redacted.make("") })
      : Option.none())

/**
 * `GET /sandbox/<network>/_posts`: everything the sandbox network accepted for the caller's accounts
 * (`Simulator.Reachable`), oldest first, so a person trying Herald (or a test driving several processes) can
 * see what went out and that nothing went twice; `?username=` keeps one sandbox account's. `comments` are
 * the accounts' own comments (first comments, and answers sent from the inbox) on networks that keep them
 * apart from posts.
 */
const postsRoute = (simulator: Simulator.Simulator) =>
  HttpRouter.route("GET", "/_posts", Effect.map(Effect.all([Simulator.query, Simulator.Reachable]), ([query, reachable]) => {
    const username = query["username"]
    const named = username === undefined ? undefined : simulator.state.accountByUsername(username)?.id ?? ""
    const shown = (accountId: string) => {
      const account = simulator.state.accounts.get(accountId)
      return account !== undefined && reachable(account) && (named === undefined || accountId === named)
    }
    const posts = [...simulator.state.posts.values()].filter((post) => shown(post.accountId))
    return HttpServerResponse.jsonUnsafe({
      data: posts.map((post) => ({
        id: post.id,
        username: simulator.state.accounts.get(post.accountId)?.username ?? null,
        text: post.text,
        replyTo: post.replyTo ?? null,
        url: post.url,
        createdAt: new Date(post.createdAt).toISOString()
      })),
      comments: [...simulator.state.comments.values()]
        .filter((comment) => comment.author.id === comment.accountId && shown(comment.accountId))
        .map((comment) => ({
          id: comment.id,
          username: simulator.state.accounts.get(comment.accountId)?.username ?? null,
          text: comment.text,
          postId: comment.postId,
          replyTo: comment.replyTo,
          createdAt: comment.createdAt
        }))
    })
  }))

/** The simulator's root as the server serves it. */
export const sandboxRoot = (baseUrl: string, network: string) => `${baseUrl}/sandbox/${network}`

export interface Installation {
  readonly adapters: Effect.Effect<ReadonlyArray<Adapter.Adapter>, never, HttpClient.HttpClient>
  /**
   * The simulators' routes, mounted under `/sandbox/<network>` (none outside the sandbox), their state kept
   * in the database, the sandbox's own routes answering a workspace's callers only (`SandboxAccess`).
   */
  readonly sandboxRoutes: Layer.Layer<
    never,
    never,
    | HttpRouter.HttpRouter
    | SqlClient.SqlClient
    | ApiKeys.ApiKeys
    | RateLimiter.RateLimiter
    | Sessions.Sessions
    | Inbox.Inbox
    | Networks.Networks
    | PublicUrl
  >
  readonly simulators: ReadonlyArray<Simulator.Simulator>
}

/**
 * In the sandbox every package is offered, talking to its own simulator served by this server. Outside it,
 * a package is offered when its `offered` says so from its settings: by default when its network's client
 * id and secret are configured.
 */
export const install = (packages: ReadonlyArray<NetworkPackage>, options: {
  readonly sandbox: boolean
  readonly baseUrl: string
  /** Other processes may use the database too (`DATABASE_URL`): the sandbox state is reloaded on each call. */
  readonly sharedDatabase: boolean
}) =>
  Effect.gen(function*() {
    if (options.sandbox) {
      const simulators = packages.map((entry) =>
        entry.simulator({ baseUrl: sandboxRoot(options.baseUrl, entry.network) })
      )
      const adapters = Effect.forEach(packages, (entry) => {
        const root = sandboxRoot(options.baseUrl, entry.network)
        return entry.make({
          apiBaseUrl: root,
          authBaseUrl: root,
          webBaseUrl: root,
          clientId: `sandbox-${entry.network}`,
          clientSecret: Redacted.make("sandbox-secret")
        })
      })
      const sandboxRoutes = Layer.unwrap(Effect.map(
        Effect.all([SandboxStore.make, SandboxAccess.make, Networks.Networks]),
        ([store, guarded, networks]) =>
          Layer.mergeAll(
            Layer.empty,
            ...simulators.map((simulator) => {
              const limits = networks.all.find((adapter) => adapter.network === simulator.network)?.limits
              const bounded = SandboxBodies.bounded(simulator.network, SandboxBodies.limitOf(limits))
              return HttpRouter.addAll(
                // Guarded outside the bound and the store, so a caller refused costs no read of its body and
                // no load of the sandbox's state.
                guarded(
                  simulator.network,
                  SimulatorStore.serve({ ...simulator, routes: [...simulator.routes, postsRoute(simulator)] }, store, {
                    shared: options.sharedDatabase
                  }).map(bounded)
                ),
                { prefix: `/sandbox/${simulator.network}` }
              )
            })
          )
      ))
      return { adapters, sandboxRoutes, simulators } satisfies Installation
    }
    const configured = yield* Effect.forEach(packages, (entry) =>
      Effect.map(credentials(entry), Option.map((found) => ({ entry, found }))))
    const adapters = Effect.forEach(
      configured.flatMap((item) => Option.isSome(item) ? [item.value] : []),
      ({ entry, found }) =>
        Effect.flatMap(
          Effect.orDie(Config.option(Config.Redacted(`HERALD_${envName(entry.network)}_WEBHOOK_SECRET`))),
          (webhookSecret) =>
            entry.make({ ...entry.realConfig(found.clientId, found.clientSecret), webhookSecret: Option.getOrUndefined(webhookSecret) })
        )
    )
    return { adapters, sandboxRoutes: Layer.empty, simulators: [] } satisfies Installation
  })
