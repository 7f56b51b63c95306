import type { AdapterConfig } from "@herald/adapter-kit"
import type { Redacted } from "effect"

/**
 * X's real addresses. The consent screen lives on the web host (`https://x.com/i/oauth2/authorize`) while
 * the token endpoint is on the API host (`https://api.x.com/2/oauth2/token`), so the adapter builds the
 * token URL from `apiBaseUrl` (https://docs.x.com/fundamentals/authentication/oauth-2-0/authorization-code).
 */
export const realConfig = (clientId: string, clientSecret: Redacted.Redacted<string>): AdapterConfig.AdapterConfig => ({
  apiBaseUrl: "https://api.x.com",
  authBaseUrl: "https://x.com",
  webBaseUrl: "https://x.com",
  clientId,
  clientSecret
})
