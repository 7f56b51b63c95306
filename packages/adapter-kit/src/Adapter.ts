import { Effect } from "effect"
import type { Option, Redacted } from "effect"
import type { ApiVersion } from "./ApiVersion.ts"
import * as Connect from "./Connect.ts"
import type { Credentials, OAuth, ServerContext, Tokens } from "./internal/connectHooks.ts"
import type { InboxHooks } from "./internal/inboxHooks.ts"
import type { PublishInput, PublishStep, Published, ReconcileInput } from "./internal/publishHooks.ts"
import type { Limits, Violation } from "./Limits.ts"
import type { PostOptions } from "./PostOptions.ts"
import { fit, type PostVersion } from "./PostVersion.ts"
import { PublishError, Rejected } from "./PublishError.ts"
import * as Validator from "./Validator.ts"

/**
 * The contract between Herald's core and one network. An adapter package builds its `Adapter` with
 * `make(hooks)`: limits and capabilities as data, OAuth, publishing, and the optional hooks its network
 * allows. The core never imports a concrete adapter; apps hand it a list of adapters.
 *
 * The contract's parts each have their file, re-exported here so `Adapter.Tokens`, `Adapter.PublishStep`
 * and `Adapter.InboxHooks` read as one namespace: connecting (`internal/connectHooks.ts`), publishing
 * (`internal/publishHooks.ts`) and the inbox (`internal/inboxHooks.ts`). This file holds the whole: the
 * hooks, the adapter `make` builds from them, and its capabilities.
 */

export * from "./internal/connectHooks.ts"
export * from "./internal/inboxHooks.ts"
export * from "./internal/publishHooks.ts"

/** What an adapter can do, so clients, the engine and the conformance suite know what to expect. */
export interface Capabilities {
  readonly text: boolean
  readonly photos: boolean
  readonly videos: boolean
  readonly thread: boolean
  readonly firstComment: boolean
  /** `refresh` exists: access tokens expire and can be renewed. */
  readonly refresh: boolean
  /** `reconcile` exists: a submission whose answer was lost can be looked up. */
  readonly reconcile: boolean
  /** Publishing may answer `Processing`. */
  readonly asyncProcessing: boolean
}

export interface Hooks {
  /** The key Herald uses for the network: `x`, `instagram`, ... */
  readonly network: string
  /** Its name for people: `X`, `Facebook Pages`. */
  readonly name: string
  readonly limits: Limits
  /**
   * The version of the network's API the adapter calls, with the day the network stops serving it and the
   * page that says so (`ApiVersion`): published by `GET /api/v1/networks`, warned of at start-up.
   */
  readonly api: ApiVersion
  readonly capabilities: Capabilities
  /** OAuth; absent for networks signed in to with `credentials` only (then a stand-in that refuses). */
  readonly oauth?: OAuth
  /** A sign-in with what the person types; `connect` then says `Connect.credentials(fields)`. */
  readonly credentials?: Credentials
  /** How a person connects an account, as clients ask for it; OAuth's consent page when absent. */
  readonly connect?: Connect.Connect
  readonly publish: (input: PublishInput) => Effect.Effect<PublishStep, PublishError>
  readonly poll?: (input: PublishInput, handle: string) => Effect.Effect<PublishStep, PublishError>
  /**
   * Looks for a post Herald may have made but never heard back about (matched by account and text, or by
   * what `handle` names), so a retry after a crash or a lost answer does not post twice. `None` means the
   * network has no such post and the step may be sent again; a network that cannot tell fails with
   * `OutcomeUnknown`.
   */
  readonly reconcile?: (input: ReconcileInput) => Effect.Effect<Option.Option<Published>, PublishError>
  /**
   * Whether the `poll` step at `handle` may itself make the post (a container published once it is ready,
   * a post made once its video is processed). The engine settles such a step as it settles `publish`: when
   * its answer is lost or fails in passing, or Herald stopped during it, it asks `reconcile` with the handle
   * before sending the step again. Any other step is asked again with `resumed: true`. Needs `reconcile`;
   * without this hook no `poll` step is taken to make the post.
   */
  readonly makesPost?: (handle: string) => boolean
  /** Comments and direct messages, where the network lets Herald read and answer them. */
  readonly inbox?: InboxHooks
  /**
   * The network's own post fields (`PostOptions.make`, which checks them against their types); a network
   * without any leaves it out.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each adapter's options are of its own fields, which `derived.show` reads (so the type is contravariant in them); the kit and core hold them all alike
  readonly options?: PostOptions<any>
  /** The network's mark (`Icon.badge`), shown by clients beside its name; a generic one when absent. */
  readonly icon?: string
  /**
   * Networks of many servers whose limits differ per server (Mastodon's `/api/v2/instance`): the limits of
   * accounts on `server`, which the adapter caches. The core validates those accounts' posts with them and
   * falls back to `limits` when the call fails; `limits` stays what `GET /api/v1/networks` publishes.
   */
  readonly limitsFor?: (server: string) => Effect.Effect<Limits, PublishError>
}

export interface Adapter extends Hooks {
  readonly oauth: OAuth
  readonly connect: Connect.Connect
  /**
   * Every limit the post breaks on this network; empty when it can go out. `limits` replaces the
   * network's own for an account on a server with its own (`limitsFor`).
   */
  readonly validate: (post: PostVersion, limits?: Limits) => ReadonlyArray<Violation>
}

/** The OAuth of a network that has none: never called by the core, which connects it by `connect.method`. */
const noOAuth = (network: string): OAuth => {
  const refused = Effect.fail(
    new PublishError({ network, reason: new Rejected({ message: `${network} connects with credentials, not OAuth` }) })
  )
  return {
    scopes: [],
    pkce: false,
    authorizeUrl: () => {
      // eslint-disable-next-line no-restricted-syntax -- a synchronous hook no caller reaches: the core connects a credentials network by `connect.method`, never through an authorize page
      throw new Error(`${network} connects with credentials, not OAuth`)
    },
    exchange: () => refused,
    profile: () => refused
  }
}

/**
 * Renews an account's tokens by the path it signed in with (credentials or OAuth); none when it cannot.
 * An account on one host is renewed by OAuth as before, with the refresh token alone.
 */
export const refresher = (
  adapter: Adapter,
  signIn: "oauth" | "credentials"
): ((refreshToken: Redacted.Redacted<string>, context: ServerContext) => Effect.Effect<Tokens, PublishError>) | undefined => {
  if (signIn === "credentials") return adapter.credentials?.refresh
  const refresh = adapter.oauth.refresh
  return refresh === undefined
    ? undefined
    : (refreshToken, context) => context.server == null ? refresh(refreshToken) : refresh(refreshToken, context)
}

/**
 * The adapter of `hooks`. Its post hooks and its validation see each photo over the network's
 * `maxPhotoBytes` as the fitted copy made for it at upload (`PostVersion.fit`), so no adapter repeats that.
 */
export const make = (hooks: Hooks): Adapter => {
  const fitted = <Input extends PublishInput>(input: Input): Input => ({ ...input, post: fit(hooks.limits, input.post) })
  const { poll, reconcile } = hooks
  return {
    ...hooks,
    oauth: hooks.oauth ?? noOAuth(hooks.network),
    connect: hooks.connect ?? (hooks.credentials === undefined ? Connect.oauth : Connect.credentials([])),
    publish: (input) => hooks.publish(fitted(input)),
    ...(poll === undefined ? {} : { poll: (input: PublishInput, handle: string) => poll(fitted(input), handle) }),
    ...(reconcile === undefined ? {} : { reconcile: (input: ReconcileInput) => reconcile(fitted(input)) }),
    validate: (post, limits) => {
      const applied = limits ?? hooks.limits
      return Validator.validate(hooks.network, applied, fit(applied, post))
    }
  }
}
