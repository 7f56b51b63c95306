import type { Redacted } from "effect"

/**
 * Where an adapter finds its network and who it is there. In real mode the addresses are the network's
 * own (each adapter knows its defaults) and the client id and secret come from the environment; in the
 * sandbox every address is the simulator's root, e.g. `http://localhost:3000/sandbox/x`.
 */
export interface AdapterConfig {
  /** Base of the network's API calls. */
  readonly apiBaseUrl: string
  /** Base of its OAuth consent screen and token endpoint. */
  readonly authBaseUrl: string
  /** Base of its public web pages, for permalinks the adapter builds itself. */
  readonly webBaseUrl: string
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
  /**
   * The key the network signs its webhooks with, where it is not `clientSecret` (X signs with the app's
   * consumer secret): `HERALD_<NETWORK>_WEBHOOK_SECRET`.
   */
  readonly webhookSecret?: Redacted.Redacted<string> | undefined
}

/** What the environment gives a network outside the sandbox: `HERALD_<NETWORK>_CLIENT_ID` and `_SECRET`. */
export interface Settings {
  readonly clientId: string | undefined
  readonly clientSecret: Redacted.Redacted<string> | undefined
}

/**
 * Whether a network is offered outside the sandbox, decided by its package (`offered` beside `realConfig`):
 * the default is `whenClientSet`, for networks where Herald is one registered app. A network that needs
 * none (an app-password sign-in, apps registered per server on the fly) says `always`; then `realConfig`
 * gets an empty client id and secret when none is set.
 */
export type Offered = (settings: Settings) => boolean

export const whenClientSet: Offered = (settings) =>
  settings.clientId !== undefined && settings.clientId !== "" && settings.clientSecret !== undefined

export const always: Offered = () => true
