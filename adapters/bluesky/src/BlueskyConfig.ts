import { AdapterConfig } from "@herald/adapter-kit"
import type { Redacted } from "effect"

/**
 * Bluesky's real addresses: every XRPC call goes to the bsky.social entryway, which serves the accounts it
 * hosts and proxies app view calls (https://docs.bsky.app/docs/advanced-guides/entryway); links are on
 * bsky.app. An app password needs no client id or secret: both are unused.
 */
export const realConfig = (clientId: string, clientSecret: Redacted.Redacted<string>): AdapterConfig.AdapterConfig => ({
  apiBaseUrl: "https://bsky.social",
  authBaseUrl: "https://bsky.social",
  webBaseUrl: "https://bsky.app",
  clientId,
  clientSecret
})

/** Offered outside the sandbox without any setting: each account signs in with its own app password. */
export const offered: AdapterConfig.Offered = AdapterConfig.always
