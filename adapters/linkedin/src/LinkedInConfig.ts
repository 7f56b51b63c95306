import type { Redacted } from "effect"
import type { AdapterConfig } from "@herald/adapter-kit"

/**
 * LinkedIn's own addresses, for real mode. The API and OAuth live on different hosts, and permalinks
 * are on the website: https://learn.microsoft.com/en-us/linkedin/shared/authentication/authorization-code-flow
 */
export const realConfig = (
  clientId: string,
  clientSecret: Redacted.Redacted<string>
): AdapterConfig.AdapterConfig => ({
  apiBaseUrl: "https://api.linkedin.com",
  authBaseUrl: "https://www.linkedin.com",
  webBaseUrl: "https://www.linkedin.com",
  clientId,
  clientSecret
})
