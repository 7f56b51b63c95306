import { Effect } from "effect"
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"

// scrypt with N=2^15, r=8, p=1 and a 16-byte salt (decision 0021), stored as `scrypt$N$r$p$salt$hash` in
// base64. 128·N·r bytes is exactly Node's default memory cap, so the cap is raised.
const parameters = { N: 2 ** 15, r: 8, p: 1 } as const
const keyLength = 32
const maxmem = 64 * 1024 * 1024

const derive = (password: string, salt: Buffer, N: number, r: number, p: number) =>
  Effect.callback<Buffer>((resume) => {
    scrypt(password.normalize("NFC"), salt, keyLength, { N, r, p, maxmem }, (error, key) => {
      resume(error === null ? Effect.succeed(key) : Effect.die(error))
    })
  })

/** A new stored hash of a password. */
export const hash = (password: string): Effect.Effect<string> => {
  const salt = randomBytes(16)
  return Effect.map(derive(password, salt, parameters.N, parameters.r, parameters.p), (key) =>
    `scrypt$${parameters.N}$${parameters.r}$${parameters.p}$${salt.toString("base64")}$${key.toString("base64")}`)
}

/** A hash of nothing anyone knows: checked when the e-mail is unknown, so both answers take as long. */
export const dummy = `scrypt$${parameters.N}$${parameters.r}$${parameters.p}$${randomBytes(16).toString("base64")}$${
  randomBytes(keyLength).toString("base64")
}`

/** Whether the password matches the stored hash, compared in constant time. */
export const verify = (password: string, stored: string): Effect.Effect<boolean> => {
  const [scheme, N, r, p, salt, expected] = stored.split("$")
  if (scheme !== "scrypt" || salt === undefined || expected === undefined) return Effect.succeed(false)
  const wanted = Buffer.from(expected, "base64")
  return Effect.map(
    derive(password, Buffer.from(salt, "base64"), Number(N), Number(r), Number(p)),
    (key) => key.length === wanted.length && timingSafeEqual(key, wanted)
  )
}
