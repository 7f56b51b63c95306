import { createHash, randomBytes } from "node:crypto"

/** A secret for a cookie or a one-time link: 32 random bytes, base64url. */
export const make = (): string => randomBytes(32).toString("base64url")

/** What is stored of a secret: its SHA-256, hex. */
export const digest = (token: string): string => createHash("sha256").update(token).digest("hex")
