import type { Effect } from "effect"
import type * as net from "node:net"
import { type AddressRefused, guardedLookup, parseWebhookUrl, type Purpose, systemLookupAll } from "./internal/publicAddress.ts"

/**
 * Hosts a person chose rather than Herald's configuration: the server of an account on a network of many
 * servers. Herald reaches them only as it reaches webhook receivers (issue 28: a connection's `server` made
 * Herald POST to any host and port, a loopback port or the local Redis): over HTTPS, never with credentials in
 * the address, and only at public addresses, judged for an address in the URL before the request and for a
 * name at every connection (`lookup`, so a name that resolves to a private address later is refused too).
 * `HERALD_WEBHOOK_ALLOW_PRIVATE=true` lifts it for development.
 */

export const purpose: Purpose = {
  example: "a server's address looks like https://social.example.org",
  noCredentials: "Herald signs in with OAuth instead",
  overHttps: "a network's server is reached only over HTTPS",
  rule: "a network's server must be at a public address (HERALD_WEBHOOK_ALLOW_PRIVATE=true allows others, for development)"
}

/** The rules a URL must pass before a request to it: scheme, no credentials, a public address when it is one. */
export const check = (url: string, allowPrivate: boolean): Effect.Effect<URL, AddressRefused> =>
  parseWebhookUrl(url, allowPrivate, purpose)

/** The lookup of every connection to such a host: a name resolving to an address that is not public is refused. */
export const lookup: net.LookupFunction = guardedLookup(systemLookupAll, purpose)
