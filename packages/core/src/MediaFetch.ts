import { Context, Duration, Effect, Layer, Schema, type Scope, Stream } from "effect"
import * as http from "node:http"
import * as https from "node:https"
import { AddressRefused, guardedLookup, hostOf, mediaPurpose, parseWebhookUrl } from "./internal/publicAddress.ts"
import { HostLookup } from "./WebhookHttp.ts"

/**
 * Fetches a media file from a URL for an upload (MCP's `upload_media_from_url`), under the webhooks' address
 * rule (architecture.md, "Security"): an https:// URL whose every address, judged at each connection, is
 * public, unless private targets are allowed (`HERALD_WEBHOOK_ALLOW_PRIVATE`, development only). The body is
 * handed over as a stream for `Media.upload`, which holds it to the media limits as it arrives.
 */

/** The file could not be fetched; `message` says why, for the person or assistant who gave the URL. */
export class MediaFetchFailed extends Schema.TaggedError<MediaFetchFailed>()("MediaFetchFailed", {
  message: Schema.String
}) {}

export interface Fetched {
  /** The URL the file came from, after redirects. */
  readonly url: string
  /** The type the server declared (`Media.upload` checks it and the bytes). */
  readonly contentType: string
  /** The declared length, when there is one: a file over the limit is refused before it is read. */
  readonly contentLength: number | undefined
  readonly body: Stream.Stream<Uint8Array, MediaFetchFailed>
}

export interface Options {
  /** `http://` and private addresses allowed (development only), as for webhooks. */
  readonly allowPrivate: boolean
  /** How long the server may take to answer, and to send each part of the file (default 30 s). */
  readonly timeoutMs?: number | undefined
}

/** Redirects followed, each to a URL judged by the same rule. */
export const maxRedirects = 5

const redirectStatuses = new Set([301, 302, 303, 307, 308])

const reasonOf = (error: Error & { readonly code?: unknown }) =>
  error instanceof AddressRefused ? error.message : typeof error.code === "string" ? `${error.message} (${error.code})` : error.message

export class MediaFetch extends Context.Service<MediaFetch, {
  /** The file at `url`: its type, length and bytes; the connection closes with the scope. */
  fetch(url: string): Effect.Effect<Fetched, MediaFetchFailed, Scope.Scope>
}>()("@herald/core/MediaFetch") {
  static readonly layer = (options: Options) => Layer.effect(MediaFetch, make(options))
}

const make = Effect.fnUntraced(function*(options: Options) {
  const lookup = yield* HostLookup
  const timeout = Duration.millis(options.timeoutMs ?? 30_000)
  // Kept apart by rule, as the webhook sender's: a connection to a private address must never carry a
  // request that has to go to a public one.
  const agents = yield* Effect.acquireRelease(
    Effect.sync(() => ({
      public: new https.Agent({ lookup: guardedLookup(lookup, mediaPurpose) }),
      privateHttps: new https.Agent(),
      privateHttp: new http.Agent()
    })),
    (agents) => Effect.sync(() => Object.values(agents).forEach((agent) => agent.destroy()))
  )
  const agentFor = (url: URL): http.Agent =>
    !options.allowPrivate ? agents.public : url.protocol === "https:" ? agents.privateHttps : agents.privateHttp

  const get = (url: URL) =>
    Effect.acquireRelease(
      Effect.callback<http.IncomingMessage, MediaFetchFailed>((resume) => {
        const request = (url.protocol === "https:" ? https : http).get({
          agent: agentFor(url),
          host: hostOf(url),
          port: url.port,
          path: `${url.pathname}${url.search}`,
          headers: { accept: "image/*, video/*", "user-agent": "Herald" }
        })
        request.on("response", (response) => resume(Effect.succeed(response)))
        request.on("error", (error) =>
          resume(Effect.fail(new MediaFetchFailed({ message: `${url.href} could not be fetched: ${reasonOf(error)}` }))))
        return Effect.sync(() => request.destroy())
      }).pipe(
        Effect.timeoutOrElse({
          duration: timeout,
          orElse: () => Effect.fail(new MediaFetchFailed({ message: `${url.href} did not answer within ${Duration.format(timeout)}` }))
        })
      ),
      (response) => Effect.sync(() => response.destroy())
    )

  const fetch = Effect.fn("MediaFetch.fetch")(function*(text: string) {
    let current = text
    for (let redirects = 0;; redirects++) {
      const url = yield* parseWebhookUrl(current, options.allowPrivate, mediaPurpose).pipe(
        Effect.mapError((refused) => new MediaFetchFailed({ message: refused.message }))
      )
      const response = yield* get(url)
      const status = response.statusCode ?? 0
      const location = response.headers.location
      if (redirectStatuses.has(status) && location !== undefined) {
        if (redirects === maxRedirects) {
          return yield* new MediaFetchFailed({ message: `${text} redirects more than ${maxRedirects} times` })
        }
        response.destroy()
        current = new URL(location, url).href
        continue
      }
      if (status !== 200) {
        return yield* new MediaFetchFailed({ message: `${url.href} answered ${status}, not the file (200)` })
      }
      const declared = response.headers["content-length"]
      const body = Stream.fromAsyncIterable(
        response as AsyncIterable<Buffer>,
        (error) => new MediaFetchFailed({ message: `${url.href} broke off: ${reasonOf(error as Error)}` })
      ).pipe(
        Stream.map((chunk) => new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)),
        Stream.timeoutOrElse({
          duration: timeout,
          orElse: () => Stream.fail(new MediaFetchFailed({ message: `${url.href} stopped sending for ${Duration.format(timeout)}` }))
        })
      )
      return {
        url: url.href,
        contentType: response.headers["content-type"] ?? "",
        contentLength: declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : undefined,
        body
      } satisfies Fetched
    }
  })

  return MediaFetch.of({ fetch })
})
