import { Effect, Stream } from "effect"
import type { HttpClientError } from "effect/http"

// A body read as it arrives and stopped at a bound, for what a network or Herald's media server sends:
// failing the fold stops the stream, which closes the body there, so nothing past the bound is buffered.

/** Why a body was not read whole. */
export type Short =
  /** The body went past the bound while it was read. */
  | { readonly _tag: "Overran"; readonly most: number }
  /** The body ended early: the connection dropped while it was read. */
  | { readonly _tag: "CutOff"; readonly detail: string }

/** A client error's words, for messages: the transport's own description when it gave one. */
export const detailOf = (error: HttpClientError.HttpClientError): string =>
  error.reason._tag === "TransportError" && error.reason.description !== undefined ? error.reason.description : error.reason._tag

interface Read {
  readonly chunks: Array<Uint8Array>
  readonly bytes: number
}

const joined = (read: Read) => {
  const bytes = new Uint8Array(read.bytes)
  let offset = 0
  for (const chunk of read.chunks) {
    bytes.set(chunk, offset)
    offset += chunk.length
  }
  return bytes
}

/** The bytes of `stream`, at most `most` of them. */
export const readAtMost = (
  stream: Stream.Stream<Uint8Array, HttpClientError.HttpClientError>,
  most: number
): Effect.Effect<Uint8Array, Short> =>
  Stream.runFoldEffect(
    Stream.mapError(stream, (error): Short => ({ _tag: "CutOff", detail: detailOf(error) })),
    (): Read => ({ chunks: [], bytes: 0 }),
    (read, chunk): Effect.Effect<Read, Short> => {
      const bytes = read.bytes + chunk.length
      if (bytes > most) return Effect.fail({ _tag: "Overran", most })
      read.chunks.push(chunk)
      return Effect.succeed({ chunks: read.chunks, bytes })
    }
  ).pipe(Effect.map(joined))
