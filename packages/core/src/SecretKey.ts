import { Context, Effect, FileSystem, Layer, Option, Path, Redacted, Schema } from "effect"
import { randomBytes } from "node:crypto"
import * as Settings from "./Settings.ts"

export class SecretKeyUnavailable extends Schema.TaggedError<SecretKeyUnavailable>()("SecretKeyUnavailable", {
  message: Schema.String
}) {}

/**
 * A new key in the form `HERALD_SECRET_KEY` takes: 32 random bytes as 64 hex characters. What an embedded
 * first start writes into `secret.key`, and what `herald secret generate` prints.
 */
export const generate = Effect.sync(() => randomBytes(32).toString("hex"))

/**
 * The 32-byte key that encrypts secrets at rest (network tokens, webhook signing secrets). From
 * `HERALD_SECRET_KEY`; in embedded mode, when unset, generated once into `<data folder>/secret.key`, readable
 * by its owner only. A PostgreSQL deployment must set it, so that every process shares one key.
 */
export class SecretKey extends Context.Service<SecretKey, Redacted.Redacted<Uint8Array>>()("@herald/core/SecretKey") {
  static readonly fromSettings = (settings: Settings.Settings) =>
    Layer.effect(
      SecretKey,
      Effect.gen(function*() {
        if (Option.isSome(settings.secretKey)) return settings.secretKey.value
        if (Option.isSome(settings.databaseUrl)) {
          return yield* new SecretKeyUnavailable({
            message: "HERALD_SECRET_KEY must be set when DATABASE_URL is: every process needs the same key"
          })
        }
        const fs = yield* FileSystem.FileSystem
        const path = yield* Path.Path
        const file = path.join(settings.dataDir, "secret.key")
        const unavailable = (cause: unknown) =>
          new SecretKeyUnavailable({ message: `Could not read or create ${file}: ${String(cause)}` })
        yield* fs.makeDirectory(settings.dataDir, { recursive: true, mode: 0o700 }).pipe(Effect.mapError(unavailable))
        // `wx` creates the file only if it is missing, so two first starts cannot write different keys.
        yield* fs.writeFileString(file, (yield* generate) + "\n", { flag: "wx", mode: 0o600 }).pipe(
          Effect.catchReason("PlatformError", "AlreadyExists", () => Effect.void),
          Effect.mapError(unavailable)
        )
        const text = yield* fs.readFileString(file).pipe(Effect.mapError(unavailable))
        const bytes = Settings.decodeSecretKey(text.trim())
        if (bytes === undefined) return yield* unavailable("it does not hold 32 bytes in hex")
        return Redacted.make(bytes)
      })
    )
}
