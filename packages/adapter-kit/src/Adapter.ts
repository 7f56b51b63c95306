import { Effect, Option, Schema } from "effect"
import type { Redacted } from "effect"
import type { ApiVersion } from "./ApiVersion.ts"
import * as Connect from "./Connect.ts"
import type { Limits, Violation } from "./Limits.ts"
import type { PostOptions } from "./PostOptions.ts"
import { fit, type PostVersion } from "./PostVersion.ts"
import { PublishError, Rejected } from "./PublishError.ts"
import * as Validator from "./Validator.ts"

/**
 * The contract between Herald's core and one network. An adapter package builds its `Adapter` with
 * `make(hooks)`: limits and capabilities as data, OAuth, publishing, and the optional hooks its network
 * allows. The core never imports a concrete adapter; apps hand it a list of adapters.
 */

/** What a network's grant gives Herald. Kept encrypted at rest by the core. */
export interface Tokens {
  readonly accessToken: Redacted.Redacted<string>
  readonly refreshToken: Option.Option<Redacted.Redacted<string>>
  /** When the access token stops working (epoch milliseconds); none when it does not expire. */
  readonly expiresAt: Option.Option<number>
  readonly scopes: ReadonlyArray<string>
}

/** The connected account as the network describes it. */
export interface Profile {
  /** The network's own id of the account (user id, page id, channel id). */
  readonly networkAccountId: string
  readonly username: string
  readonly displayName: string | null
  readonly avatarUrl: string | null
}

/** A connected account, as `publish` and `refresh` need it. */
export interface Account {
  readonly networkAccountId: string
  readonly username: string
  readonly accessToken: Redacted.Redacted<string>
  /**
   * The account's own server, as stored at sign-in: a Mastodon instance (`https://mastodon.social`), a
   * Bluesky PDS. Null (or absent, for older callers) on networks with one host. The core always sets it.
   */
  readonly server?: string | null | undefined
}

/** Herald's app on one server of a network of many (Mastodon): what `OAuth.registerApp` answers. */
export interface AppClient {
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
}

/**
 * Where an account lives and the app Herald holds there, passed to the OAuth steps of networks of many
 * servers; both absent on single-host networks.
 */
export interface ServerContext {
  readonly server?: string | null | undefined
  readonly client?: AppClient | undefined
}

/** What the network made of a post: its id and the link a person opens. */
export interface Published {
  readonly id: string
  readonly url: string
}

/**
 * One step of publishing. Most networks answer at once; Instagram and Threads containers, TikTok publish
 * ids and YouTube processing answer `Processing` with a handle to `poll` after `checkAfterMs`, so the
 * engine can wait durably between polls.
 */
export type PublishStep =
  | { readonly _tag: "Published"; readonly published: Published }
  | { readonly _tag: "Processing"; readonly handle: string; readonly checkAfterMs: number }

/**
 * The next step, at once. What a step answers as soon as a call that made something on the network has
 * answered (the post, a reply), so that nothing after that call in the same step can fail it and have the
 * engine send the step, and so the call, again: the link read and the first comment are the next steps'.
 */
export const nextStep = (handle: string): PublishStep => ({ _tag: "Processing", handle, checkAfterMs: 0 })

export interface PublishInput {
  readonly account: Account
  readonly post: PostVersion
  /**
   * Set on a `poll` whose previous try at the same step was cut off (Herald stopped) before its answer
   * was recorded: a step that makes something (the next reply of a thread) may already have made it, so
   * look before making it again.
   */
  readonly resumed?: boolean | undefined
  /**
   * Herald's name for this post going to this account: the same on every try (a retry, a resume after a
   * crash), different for every other post, even one with the same text. A network that takes an
   * idempotency key (Mastodon's `Idempotency-Key`) derives it from this, so a resend is never a second post
   * and a second post is never mistaken for a resend. Absent when a caller has none (the suite's own calls).
   */
  readonly publication?: string | undefined
}

/**
 * What `reconcile` is asked with. `handle` is set when the answer lost was that of a later step, one that
 * `makesPost` names (a container published in `poll`): the step's handle, so the adapter can ask the network
 * about what that step was given (the container) and not only look for the post by its text. Absent after a
 * lost `publish`.
 */
export interface ReconcileInput extends PublishInput {
  readonly handle?: string | undefined
}

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

export interface OAuth {
  readonly scopes: ReadonlyArray<string>
  /** The network wants PKCE (`code_challenge` with S256). */
  readonly pkce: boolean
  /** Where to send the person to grant access. */
  readonly authorizeUrl: (params: ServerContext & {
    readonly state: string
    readonly redirectUri: string
    readonly codeChallenge: string | undefined
  }) => string
  readonly exchange: (params: ServerContext & {
    readonly code: string
    readonly redirectUri: string
    readonly codeVerifier: string | undefined
  }) => Effect.Effect<Tokens, PublishError>
  readonly refresh?: (refreshToken: Redacted.Redacted<string>, context?: ServerContext) => Effect.Effect<Tokens, PublishError>
  readonly profile: (accessToken: Redacted.Redacted<string>, context?: ServerContext) => Effect.Effect<Profile, PublishError>
  /**
   * Networks of many servers (connect `Connect.instance`): registers Herald as an app on `server` (Mastodon's
   * `POST /api/v1/apps`). The core calls it once per server and network, stores the answer (secret
   * encrypted) and passes it back as `client` to every later step on that server, for every account there.
   */
  readonly registerApp?: (input: {
    readonly server: string
    readonly redirectUri: string
  }) => Effect.Effect<AppClient, PublishError>
}

/** What a sign-in gives Herald: the grant, who it is, and where the account lives. */
export interface SignedIn {
  readonly tokens: Tokens
  readonly profile: Profile
  /** The account's server (a Bluesky PDS), stored and passed back as `Account.server`; null on one host. */
  readonly server: string | null
}

/**
 * The network refused the sign-in for something the person can fix (a wrong app password, an unknown
 * handle): `message` is shown to them as it is (`400 invalid`), so say it in their words and never echo a
 * secret.
 */
export class SignInRefused extends Schema.TaggedError<SignInRefused>()("SignInRefused", {
  message: Schema.String
}) {}

/**
 * A sign-in with what the person types (connect `Connect.credentials(fields)`): Bluesky's handle and app
 * password. The core sends the fields the network's `connect.fields` name, checked for presence, and
 * stores the tokens encrypted like OAuth's.
 */
export interface Credentials {
  /** Keys are the `connect.fields` names. Fails with `SignInRefused` for what the person got wrong. */
  readonly signIn: (fields: Readonly<Record<string, string>>) => Effect.Effect<SignedIn, SignInRefused | PublishError>
  /** Renews tokens of an account signed in this way (`capabilities.refresh`); `server` is the account's. */
  readonly refresh?: (refreshToken: Redacted.Redacted<string>, context: ServerContext) => Effect.Effect<Tokens, PublishError>
  /**
   * Fields the adapter's simulator accepts for a sandbox account called `username`: used by the sandbox
   * connect (`herald account connect --sandbox`, the Demo workspace) and the conformance suite.
   */
  readonly sandboxFields: (username: string) => Readonly<Record<string, string>>
}

/** Someone on the network: who wrote a comment or a message. */
export interface Person {
  /** The network's id of the person. */
  readonly id: string
  readonly username: string
  readonly name: string | null
}

/** A comment on one of the account's posts. */
export interface InboxComment {
  /** The network's id of the comment. */
  readonly id: string
  /** The network's id of the post it is on (Herald links it to its own post when it made that one). */
  readonly postId: string
  /** The network's id of the comment it answers; null for a comment on the post itself. */
  readonly replyTo: string | null
  readonly author: Person
  readonly text: string
  /** Where a person opens the comment; null where the network has no link to one comment. */
  readonly permalink: string | null
  /** ISO 8601. */
  readonly createdAt: string
}

/** A direct message to or from the account. */
export interface InboxMessage {
  /** The network's id of the message. */
  readonly id: string
  /** The network's id of the conversation (thread) it belongs to. */
  readonly conversationId: string
  readonly from: Person
  readonly text: string
  /** How many files came with it. */
  readonly attachments: number
  /** Sent by the account itself (a person answering in the network's own app). */
  readonly outgoing: boolean
  /** ISO 8601. */
  readonly createdAt: string
}

/** What arrived since a cursor, and the cursor to ask from next time. */
export interface InboxPage {
  readonly comments: ReadonlyArray<InboxComment>
  readonly messages: ReadonlyArray<InboxMessage>
  readonly cursor: string
}

/**
 * The inbox of a network that lets Herald read comments and direct messages and answer them. `fetch` is
 * polled per account; `cursor` is null the first time (then only what arrives from now on is news, so an
 * account connected with years of comments does not flood the inbox).
 */
/**
 * A network's own webhook for inbox news: Herald serves it at `/networks/<network>/webhook` and, for each
 * account the network says has news, reads that account's inbox at once instead of at its next turn. The
 * adapter checks the network's signature over the raw body; a request that fails it is refused.
 */
export interface NetworkWebhook {
  /** The network's subscription check (a `GET` with a challenge to echo); none when it has none. */
  readonly handshake?: (query: Readonly<Record<string, string>>) => Option.Option<{ readonly status: number; readonly body: string }>
  /** The network account ids with news, from a signed notification; fails when the signature is wrong. */
  readonly receive: (input: {
    readonly headers: Readonly<Record<string, string | undefined>>
    readonly body: Uint8Array
  }) => Effect.Effect<ReadonlyArray<string>, { readonly _tag: "WebhookRejected"; readonly message: string }>
}

export interface InboxHooks {
  /**
   * The least time between two reads of one account, where the network's quota cannot afford Herald's
   * default (a minute): YouTube's daily units, LinkedIn's daily calls.
   */
  readonly pollEveryMs?: number
  /** Where the network announces news itself; polling alone otherwise. */
  readonly webhook?: NetworkWebhook
  readonly fetch: (input: { readonly account: Account; readonly cursor: string | null }) => Effect.Effect<InboxPage, PublishError>
  readonly replyToComment: (input: {
    readonly account: Account
    readonly comment: InboxComment
    readonly text: string
  }) => Effect.Effect<{ readonly id: string; readonly permalink: string | null }, PublishError>
  readonly sendMessage: (input: {
    readonly account: Account
    readonly conversationId: string
    readonly text: string
  }) => Effect.Effect<{ readonly id: string }, PublishError>
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
