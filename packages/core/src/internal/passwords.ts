import { Effect, Semaphore } from "effect"
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

// scrypt runs on libuv's pool of 4 threads, which media reads, uploads and DNS share: 16 wrong passwords at
// once made a media download take 21 s (issue 28). At most `checking` passwords are checked at once, a few
// more wait, and one past them is refused at once (`busy`), so sign-in can never take the pool.
const checking = 2
const waitingAtMost = 8
const permits = Semaphore.makeUnsafe(checking)
let inside = 0

/** Whether the password matches the stored hash, compared in constant time; `busy` when too many are being checked. */
export const verify = (password: string, stored: string): Effect.Effect<boolean | "busy"> => {
  const [scheme, N, r, p, salt, expected] = stored.split("$")
  if (scheme !== "scrypt" || salt === undefined || expected === undefined) return Effect.succeed(false)
  const wanted = Buffer.from(expected, "base64")
  return Effect.suspend((): Effect.Effect<boolean | "busy"> => {
    if (inside >= checking + waitingAtMost) return Effect.succeed("busy")
    inside++
    return permits.withPermit(
      Effect.map(
        derive(password, Buffer.from(salt, "base64"), Number(N), Number(r), Number(p)),
        (key) => key.length === wanted.length && timingSafeEqual(key, wanted)
      )
    ).pipe(Effect.ensuring(Effect.sync(() => inside--)))
  })
}
