import { randomBytes } from "node:crypto"

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/** Base62 of a byte string, left-padded to `width` so every value of one kind has one length. */
export const base62 = (bytes: Uint8Array, width: number): string => {
  let value = 0n
  for (const byte of bytes) value = (value << 8n) | BigInt(byte)
  let out = ""
  while (value > 0n) {
    out = alphabet[Number(value % 62n)] + out
    value /= 62n
  }
  return out.padStart(width, "0")
}

/** Base62 of an unsigned 32-bit number, six characters wide (62^6 > 2^32). Runs on every request. */
export const base62Uint32 = (value: number): string => {
  let rest = value >>> 0
  let out = ""
  for (let index = 0; index < 6; index++) {
    out = alphabet[rest % 62] + out
    rest = Math.floor(rest / 62)
  }
  return out
}

/**
 * A new id: the prefix, then 6 bytes of time (ms) and 10 random bytes in base62, so ids sort roughly by
 * creation and never collide in practice.
 */
export const makeId = (prefix: string, nowMillis: number): string => {
  const bytes = new Uint8Array(16)
  let time = nowMillis
  for (let index = 5; index >= 0; index--) {
    bytes[index] = time % 256
    time = Math.floor(time / 256)
  }
  bytes.set(randomBytes(10), 6)
  return `${prefix}_${base62(bytes, 22)}`
}
