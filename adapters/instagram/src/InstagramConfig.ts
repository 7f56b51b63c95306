import type { AdapterConfig } from "@herald/adapter-kit"
import type { Redacted } from "effect"
import { api } from "./InstagramLimits.ts"

/**
 * Instagram's own addresses ("Instagram API with Instagram Login"): the consent screen and the
 * short-lived token live on api.instagram.com, every other call (long-lived token, refresh, media) on
 * graph.instagram.com. https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/business-login
 */
export const realConfig = (clientId: string, clientSecret: Redacted.Redacted<string>): AdapterConfig.AdapterConfig => ({
  apiBaseUrl: "https://graph.instagram.com",
  authBaseUrl: "https://api.instagram.com",
  webBaseUrl: "https://www.instagram.com",
  clientId,
  clientSecret
})

/** The Graph API version every call names; the simulator serves the same one (InstagramLimits.ts `api`). */
export const apiVersion = api.version
