import { Duration, Effect, Option } from "effect"
import type { Adapter, Limits } from "@herald/adapter-kit"

/**
 * Networks of many servers whose limits differ per server (`limitsFor`: each server says its own): a
 * post to an account there is checked against its server's limits, at creation and again when it goes out.
 * A server that does not answer in time, or at all, gets the network's published limits.
 */

/** How long a server may take to say its limits before the network's are used (adapters cache the answer). */
const patience = Duration.seconds(5)

/** The limits posts for accounts on `server` are held to: its own, or the network's published ones. */
export const limitsOf = (adapter: Adapter.Adapter, server: string | null | undefined): Effect.Effect<Limits.Limits> =>
  adapter.limitsFor === undefined || server === null || server === undefined
    ? Effect.succeed(adapter.limits)
    : Effect.map(
      Effect.option(Effect.timeoutOption(adapter.limitsFor(server), patience)),
      (read) => Option.getOrElse(Option.flatten(read), () => adapter.limits)
    )

/** The adapter as it checks posts for accounts on `server`. */
export const forServer = (adapter: Adapter.Adapter, server: string | null | undefined): Effect.Effect<Adapter.Adapter> =>
  adapter.limitsFor === undefined || server === null || server === undefined
    ? Effect.succeed(adapter)
    : Effect.map(limitsOf(adapter, server), (limits): Adapter.Adapter => ({ ...adapter, validate: (post) => adapter.validate(post, limits) }))

/** One adapter per network and server among the post's accounts. */
export const forAccounts = (
  adapters: ReadonlyArray<Adapter.Adapter>,
  accounts: ReadonlyArray<{ readonly platform: string; readonly server: string | null }>
): Effect.Effect<ReadonlyArray<Adapter.Adapter>> =>
  Effect.map(
    Effect.forEach(adapters, (adapter) => {
      const servers = [...new Set(accounts.filter((account) => account.platform === adapter.network).map((account) => account.server))]
      return Effect.forEach(servers.length === 0 ? [null] : servers, (server) => forServer(adapter, server))
    }),
    (each) => each.flat()
  )
