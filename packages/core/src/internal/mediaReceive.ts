import { Effect, type FileSystem, Stream } from "effect"
import { createHash } from "node:crypto"
import { MediaInvalid, MediaTooLarge } from "./mediaErrors.ts"
import { detect, type DetectedType, signatureBytes } from "./mediaProbe.ts"

const typeNames: Record<DetectedType, string> = {
  "image/jpeg": "a JPEG image",
  "image/png": "a PNG image",
  "image/webp": "a WebP image",
  "video/mp4": "an MP4 video",
  "video/quicktime": "a QuickTime (MOV) video"
}

const fail = (message: string) => Effect.fail(new MediaInvalid({ message }))

const checkSignature = (declared: DetectedType, head: Uint8Array) => {
  if (head.length === 0) return fail("The body is empty; send the file's bytes")
  const found = detect(head)
  if (found === declared) return Effect.void
  return fail(
    found === undefined
      ? `The body is not ${typeNames[declared]} (nor any accepted type: JPEG, PNG, WebP, MP4, MOV)`
      : `The body is ${typeNames[found]}, but Content-Type says ${declared}`
  )
}

/**
 * Writes an upload's body to `target` as it arrives, so memory stays flat whatever the size, counting bytes
 * against the limit, hashing them, and checking the leading bytes against the declared type as soon as
 * enough have come. Succeeds with the SHA-256 of the body.
 */
export const makeReceive = (fs: FileSystem.FileSystem) =>
<E>(body: Stream.Stream<Uint8Array, E>, declared: DetectedType, limit: number, target: string) =>
  Effect.suspend(() => {
    const kind = declared.startsWith("image/") ? "image" : "video"
    const hash = createHash("sha256")
    let received = 0
    let head = new Uint8Array(0)
    type Checked = Effect.Effect<Uint8Array, MediaTooLarge | MediaInvalid>
    const counted = Stream.mapEffect(body, (chunk): Checked => {
      received += chunk.length
      if (received > limit) return Effect.fail(new MediaTooLarge({ kind, limit }))
      hash.update(chunk)
      if (head.length >= signatureBytes) return Effect.succeed(chunk)
      const joined = new Uint8Array(Math.min(head.length + chunk.length, signatureBytes))
      joined.set(head.subarray(0, joined.length))
      joined.set(chunk.subarray(0, joined.length - head.length), head.length)
      head = joined
      return head.length < signatureBytes ? Effect.succeed(chunk) : Effect.as(checkSignature(declared, head), chunk)
    })
    return Stream.run(counted, fs.sink(target)).pipe(
      // A body shorter than a signature is checked once it has ended.
      Effect.andThen(() => head.length < signatureBytes ? checkSignature(declared, head) : Effect.void),
      Effect.map(() => hash.digest("hex"))
    )
  })
