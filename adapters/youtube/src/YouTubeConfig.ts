import type { Redacted } from "effect"
import type { AdapterConfig } from "@herald/adapter-kit"

/** Google's consent screen. */
const realAuthBaseUrl = "https://accounts.google.com"

/**
 * YouTube's real addresses. The Data API and its upload endpoints share www.googleapis.com (uploads under
 * `/upload/youtube/v3/...`).
 * https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol
 */
export const realConfig = (clientId: string, clientSecret: Redacted.Redacted<string>): AdapterConfig.AdapterConfig => ({
  apiBaseUrl: "https://www.googleapis.com",
  authBaseUrl: realAuthBaseUrl,
  webBaseUrl: "https://www.youtube.com",
  clientId,
  clientSecret
})

/**
 * Google's token endpoint is on a third host, oauth2.googleapis.com, which `AdapterConfig` has no field
 * for; in the sandbox it is `/token` under the simulator's root like everything else.
 * https://developers.google.com/identity/protocols/oauth2/web-server#exchange-authorization-code
 */
export const tokenUrl = (config: AdapterConfig.AdapterConfig): string =>
  config.authBaseUrl === realAuthBaseUrl ? "https://oauth2.googleapis.com/token" : `${config.authBaseUrl}/token`
