import { hash as digest, randomBytes, timingSafeEqual } from "node:crypto"
import { crc32 } from "node:zlib"
import { base62, base62Uint32 } from "./random.ts"

// A key is `hrld_` + 43 base62 characters (32 random bytes) + 6 base62 characters of CRC32 over the rest,
// so a typo or a random string is refused without a database lookup, and secret scanners can recognise it.
const prefix = "hrld_"
const bodyLength = 43
const checksumLength = 6
const pattern = /^hrld_[0-9A-Za-z]{49}$/

const checksum = (text: string) => base62Uint32(crc32(text))

export const generate = (): string => {
  const body = prefix + base62(randomBytes(32), bodyLength)
  return body + checksum(body)
}

export type Parsed =
  | { readonly _tag: "Missing" }
  | { readonly _tag: "Malformed" }
  | { readonly _tag: "BadChecksum" }
  | { readonly _tag: "WellFormed"; readonly hash: Buffer }

export const parse = (key: string): Parsed => {
  if (key.length === 0) return { _tag: "Missing" }
  if (!pattern.test(key)) return { _tag: "Malformed" }
  const body = key.slice(0, prefix.length + bodyLength)
  const given = Buffer.from(key.slice(prefix.length + bodyLength))
  const expected = Buffer.from(checksum(body))
  if (given.length !== checksumLength || !timingSafeEqual(given, expected)) return { _tag: "BadChecksum" }
  return { _tag: "WellFormed", hash: hash(key) }
}

/** Only this SHA-256 is stored; the key itself is shown once and forgotten. */
export const hash = (key: string): Buffer => digest("sha256", key, "buffer")

export const lastFour = (key: string): string => key.slice(-4)

export const displayPrefix = prefix
