import { AdapterConfig } from "@herald/adapter-kit"
import type { Redacted } from "effect"

/**
 * Mastodon has no one address: each account lives on its own instance, named when it connects (the
 * `server` field) and stored as `Account.server`, and Herald registers itself on each instance on first use
 * (`POST /api/v1/apps`). These addresses are only the fallback for an account stored without one; the client
 * id and secret are unused (each instance's app is registered and kept by the core).
 */
export const realConfig = (clientId: string, clientSecret: Redacted.Redacted<string>): AdapterConfig.AdapterConfig => ({
  apiBaseUrl: "https://mastodon.social",
  authBaseUrl: "https://mastodon.social",
  webBaseUrl: "https://mastodon.social",
  clientId,
  clientSecret
})

/** Offered outside the sandbox without any setting: Herald registers its app on each instance itself. */
export const offered: AdapterConfig.Offered = AdapterConfig.always
