import type { Effect, Option, Redacted } from "effect"
import { Schema } from "effect"
import type { PublishError } from "../PublishError.ts"

/**
 * The connect part of the adapter contract (re-exported by `Adapter`): what a grant gives Herald, the
 * connected account, OAuth's steps, and a sign-in with what the person types.
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
