import type { Redacted } from "effect"
import type { AdapterConfig } from "@herald/adapter-kit"

/**
 * TikTok's real addresses. The consent screen lives on www.tiktok.com while the token endpoint and every
 * API call live on open.tiktokapis.com, so the token call is built from `apiBaseUrl`.
 * https://developers.tiktok.com/doc/oauth-user-access-token-management
 */
export const realConfig = (clientId: string, clientSecret: Redacted.Redacted<string>): AdapterConfig.AdapterConfig => ({
  apiBaseUrl: "https://open.tiktokapis.com",
  authBaseUrl: "https://www.tiktok.com",
  webBaseUrl: "https://www.tiktok.com",
  clientId,
  clientSecret
})
