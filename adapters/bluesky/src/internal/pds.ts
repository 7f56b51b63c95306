import { type Adapter, SimulatorState } from "@herald/adapter-kit"
import { Effect, Stream } from "effect"
import type { HttpServerRequest } from "effect/http"
import { createHash } from "node:crypto"

/**
 * What the Bluesky simulator makes as a PDS makes it: DIDs for accounts, CIDs for records and blobs.
 *
 * The kit's state, with account and people ids minted as DIDs (`did:plc:<digits>`; real ones look like
 * `did:plc:ewvi7nxzyoun6zhxrhs64oiz`): Herald knows an account by its network id, the DID, and the kit's suite
 * and control routes by the state's id, so they must be one; and the lexicons refuse a mention or an
 * `at://` URI whose DID is not shaped as one. Records keep the kit's numeric ids as their rkeys.
 */
export class PdsState extends SimulatorState.SimulatorState {
  private minting = false

  override id(): string {
    const id = super.id()
    return this.minting ? `did:plc:${id}` : id
  }

  /** What `make` makes, with the ids it takes minted as DIDs. */
  private minted<A>(make: () => A): A {
    this.minting = true
    const made = make()
    this.minting = false
    return made
  }

  override consent(username: string | undefined): SimulatorState.SimulatedAccount {
    return this.minted(() => super.consent(username ?? `sandbox_${super.id()}`))
  }

  override person(input: SimulatorState.PersonInput): Adapter.Person {
    return this.minted(() => super.person(input))
  }
}

const base32 = "abcdefghijklmnopqrstuvwxyz234567"

/**
 * A CID as the lexicons' `cid` format takes it (https://github.com/multiformats/cid): version 1, a sha2-256
 * of the content, in base32 (`b…`); codec dag-cbor for records (`bafyrei…`), raw for blobs (`bafkrei…`).
 */
const cidOfDigest = (codec: "dag-cbor" | "raw", sha256: Uint8Array) => {
  const bytes = [0x01, codec === "raw" ? 0x55 : 0x71, 0x12, 0x20, ...sha256]
  let text = "b"
  let bits = 0
  let value = 0
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xfff
    bits += 8
    for (; bits >= 5; bits -= 5) text += base32[(value >> (bits - 5)) & 31]
  }
  return bits > 0 ? text + base32[(value << (5 - bits)) & 31] : text
}

export const cidOf = (codec: "dag-cbor" | "raw", content: string | Uint8Array) =>
  cidOfDigest(codec, createHash("sha256").update(content).digest())

/**
 * An upload's CID and size, its bytes hashed as they stream and kept nowhere; `undefined` past `most` bytes,
 * read no further. A body that cannot be read counts as empty.
 */
export const received = (request: HttpServerRequest.HttpServerRequest, most: number) =>
  Effect.suspend(() => {
    const hash = createHash("sha256")
    let size = 0
    return Stream.runForEach(request.stream, (chunk) => {
      size += chunk.byteLength
      if (size > most) return Effect.fail("too large" as const)
      hash.update(chunk)
      return Effect.void
    }).pipe(
      Effect.map(() => ({ cid: cidOfDigest("raw", hash.digest()), size })),
      Effect.catch((error) => Effect.succeed(error === "too large" ? undefined : { cid: cidOf("raw", ""), size: 0 }))
    )
  })
