import { createHash, randomBytes } from "node:crypto"

// The protocol's small rules as plain functions: which redirect URIs a client may register (OAuth 2.1,
// section 2.3.1 and RFC 8252), how a PKCE verifier is checked (RFC 7636, S256 only), and what a token looks
// like. Opaque tokens carry a readable prefix so a leaked one is recognised (and told apart from a `hrld_` key).

export const accessPrefix = "hrat_"
export const refreshPrefix = "hrrt_"

/** A fresh secret with a prefix: 32 random bytes, base64url. */
export const secret = (prefix: string): string => `${prefix}${randomBytes(32).toString("base64url")}`

/** What is stored of a code or token: its SHA-256, hex. */
export const digest = (value: string): string => createHash("sha256").update(value).digest("hex")

/** Whether a PKCE verifier matches its S256 challenge: BASE64URL(SHA256(verifier)) (RFC 7636, section 4.6). */
export const verifierMatches = (verifier: string, challenge: string): boolean =>
  /^[A-Za-z0-9._~-]{43,128}$/.test(verifier) && createHash("sha256").update(verifier).digest("base64url") === challenge

/** A challenge as S256 makes it: 43 base64url characters. */
export const isChallenge = (challenge: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(challenge)

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"])

/**
 * Why a redirect URI cannot be registered, or undefined when it can: https anywhere, http only on the
 * loopback (RFC 8252, section 7.3, for desktop clients), no fragment (OAuth 2.1, section 2.3.1). Custom
 * schemes are refused: the assistants that connect to a remote MCP server use https or the loopback.
 */
export const redirectUriProblem = (uri: string): string | undefined => {
  if (uri.length > 2000) return "a redirect URI is longer than 2000 characters"
  const parsed = URL.canParse(uri) ? new URL(uri) : undefined
  if (parsed === undefined) return `${uri} is not an absolute URL`
  if (parsed.hash !== "" || uri.includes("#")) return `${uri} has a fragment, which a redirect URI may not have`
  if (parsed.protocol === "https:") return undefined
  if (parsed.protocol === "http:" && loopbackHosts.has(parsed.hostname)) return undefined
  return `${uri} must use https, or http on localhost or 127.0.0.1`
}

/** `uri` with the given query parameters added (those already there are kept, RFC 6749 section 3.1.2). */
export const withQuery = (uri: string, parameters: Record<string, string | null | undefined>): string => {
  const url = new URL(uri)
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== null && value !== undefined) url.searchParams.set(name, value)
  }
  return url.toString()
}
