import { Context, Effect, Layer, Redacted, Schema } from "effect"
import { createCipheriv, createDecipheriv, createSecretKey, randomBytes } from "node:crypto"
import { SecretKey } from "./SecretKey.ts"

export class DecryptionFailed extends Schema.TaggedError<DecryptionFailed>()("DecryptionFailed", {
  message: Schema.String
}) {}

// Secrets at rest (network tokens, webhook signing secrets) are sealed with AES-256-GCM under
// HERALD_SECRET_KEY. Layout: one version byte (1), a 12-byte random nonce, the 16-byte tag, the ciphertext.
// Without the key the stored bytes reveal nothing; with a wrong key, opening fails rather than returning
// garbage.
const version = 1

export class Cipher extends Context.Service<Cipher, {
  seal(plaintext: Redacted.Redacted<string>): Uint8Array
  open(sealed: Uint8Array): Effect.Effect<Redacted.Redacted<string>, DecryptionFailed>
}>()("@herald/core/Cipher") {
  static readonly layer = Layer.effect(
    Cipher,
    Effect.map(Effect.service(SecretKey), (secretKey) => {
      // One key object for every call: building it from bytes each time costs more than the cipher.
      const key = createSecretKey(Buffer.from(Redacted.value(secretKey)))
      return Cipher.of({
        seal: (plaintext) => {
          const nonce = randomBytes(12)
          const cipher = createCipheriv("aes-256-gcm", key, nonce)
          const body = Buffer.concat([cipher.update(Redacted.value(plaintext), "utf8"), cipher.final()])
          return Buffer.concat([Buffer.of(version), nonce, cipher.getAuthTag(), body])
        },
        open: (sealed) =>
          Effect.try({
            try: () => {
              const bytes = Buffer.from(sealed)
              const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(1, 13))
              decipher.setAuthTag(bytes.subarray(13, 29))
              return Redacted.make(Buffer.concat([decipher.update(bytes.subarray(29)), decipher.final()]).toString("utf8"))
            },
            catch: () =>
              new DecryptionFailed({ message: "A stored secret could not be opened: is HERALD_SECRET_KEY the one it was sealed with?" })
          })
      })
    })
  )
}
