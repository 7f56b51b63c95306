import { hash as digest, randomBytes } from "node:crypto"
import { crc32 } from "node:zlib"
import { base62, base62Uint32 } from "./random.ts"

// A key is `hrld_` + 43 base62 characters (32 random bytes) + 6 base62 characters of CRC32 over the rest,
// so a typo or a random string is refused without a database lookup, and secret scanners can recognise it.
const prefix = "hrld_"
const bodyLength = 43
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
  | { readonly _tag: "WellFormed"; readonly hashHex: string }

// Runs on every request, so it allocates no Buffer. The checksum is a public function of the rest of the
// key, so comparing it in plain (not constant) time reveals nothing; the secret part is only ever hashed.
export const parse = (key: string): Parsed => {
  if (key.length === 0) return { _tag: "Missing" }
  if (!pattern.test(key)) return { _tag: "Malformed" }
  const split = prefix.length + bodyLength
  if (key.slice(split) !== checksum(key.slice(0, split))) return { _tag: "BadChecksum" }
  return { _tag: "WellFormed", hashHex: hashHex(key) }
}

/** Only this SHA-256 is stored; the key itself is shown once and forgotten. */
export const hash = (key: string): Buffer => digest("sha256", key, "buffer")

/** The same SHA-256 as hex: how keys are looked up and announced between processes. */
const hashHex = (key: string): string => digest("sha256", key, "hex")

export const lastFour = (key: string): string => key.slice(-4)

export const displayPrefix = prefix
