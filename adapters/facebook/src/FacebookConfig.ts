import type { AdapterConfig } from "@herald/adapter-kit"
import type { Redacted } from "effect"
import { api } from "./FacebookLimits.ts"

/**
 * Facebook's own addresses: the consent dialog on www.facebook.com, every call (token exchange included)
 * on graph.facebook.com. https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow
 */
export const realConfig = (clientId: string, clientSecret: Redacted.Redacted<string>): AdapterConfig.AdapterConfig => ({
  apiBaseUrl: "https://graph.facebook.com",
  authBaseUrl: "https://www.facebook.com",
  webBaseUrl: "https://www.facebook.com",
  clientId,
  clientSecret
})

/** The Graph API version every call names; the simulator serves the same one (FacebookLimits.ts `api`). */
export const apiVersion = api.version
