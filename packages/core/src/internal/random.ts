import { randomFillSync } from "node:crypto"

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

// Random bytes are drawn a page at a time: one call to the system's generator per 409 ids rather than one
// per id (with the BigInt division below, an id cost about 9% of a webhook delivery's CPU).
const pool = new Uint8Array(4096)
let drawn = pool.length

const random10 = (into: Uint8Array, at: number) => {
  if (drawn + 10 > pool.length) {
    randomFillSync(pool)
    drawn = 0
  }
  into.set(pool.subarray(drawn, drawn + 10), at)
  // Used bytes are cleared, so no id's randomness stays in memory after it is made.
  pool.fill(0, drawn, drawn + 10)
  drawn += 10
}

/**
 * Base62 of 16 bytes, 22 characters: the same digits as `base62(bytes, 22)`, by long division over four
 * 32-bit words (each step stays below 2^53) instead of BigInt.
 */
export const base62Of16 = (bytes: Uint8Array): string => {
  const words = [0, 0, 0, 0]
  for (let index = 0; index < 16; index++) {
    const word = index >> 2
    words[word] = words[word]! * 256 + bytes[index]!
  }
  const digits = new Array<string>(22)
  for (let place = 21; place >= 0; place--) {
    let rest = 0
    for (let word = 0; word < 4; word++) {
      const value = rest * 0x1_0000_0000 + words[word]!
      words[word] = Math.floor(value / 62)
      rest = value % 62
    }
    digits[place] = alphabet[rest]!
  }
  return digits.join("")
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
  random10(bytes, 6)
  return `${prefix}_${base62Of16(bytes)}`
}
