import { createHash, randomBytes } from "node:crypto"

// OAuth 2.0 PKCE (RFC 7636) with the S256 method, and the `state` value that ties a callback to the
// request that started it.

/** A fresh code verifier: 32 random bytes, base64url (43 characters, within RFC 7636's 43 to 128). */
export const verifier = (): string => randomBytes(32).toString("base64url")

/** The S256 challenge of a verifier. */
export const challenge = (codeVerifier: string): string =>
  createHash("sha256").update(codeVerifier).digest("base64url")

/** A fresh, unguessable `state`. */
export const state = (): string => randomBytes(24).toString("base64url")
