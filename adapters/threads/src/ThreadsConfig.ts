import type { AdapterConfig } from "@herald/adapter-kit"
import type { Redacted } from "effect"

/**
 * Threads' real addresses: consent on threads.net, every token and API call on graph.threads.net
 * (https://developers.facebook.com/docs/threads/get-started/long-lived-tokens/). Use the Threads app id and
 * secret, not the main Meta app's.
 */
export const realConfig = (clientId: string, clientSecret: Redacted.Redacted<string>): AdapterConfig.AdapterConfig => ({
  apiBaseUrl: "https://graph.threads.net",
  authBaseUrl: "https://threads.net",
  webBaseUrl: "https://www.threads.net",
  clientId,
  clientSecret
})
