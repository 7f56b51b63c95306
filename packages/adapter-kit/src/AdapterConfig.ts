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
