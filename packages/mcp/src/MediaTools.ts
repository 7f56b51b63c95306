import { Effect, Schema } from "effect"
import { Envelope, MediaApi } from "@herald/api"
import { Media, MediaFetch } from "@herald/core"
import { Bounded } from "@herald/domain"
import { define, domainFailures, fail } from "./Tool.ts"

/**
 * `upload_media_from_url`: a photo or video fetched from a public https URL (under the webhooks' address rule,
 * MediaFetch) and streamed into the media store as `POST /api/v1/media` streams its body, held to the same
 * limits; answered with the same media object.
 */

const megabytes = (bytes: number) => bytes / (1024 * 1024)

export const make = Effect.gen(function*() {
  const media = yield* Media.Media
  const fetcher = yield* MediaFetch.MediaFetch
  return define({
    name: "upload_media_from_url",
    title: "Upload media from a URL",
    description: "Fetches a photo or video from a public https:// URL and stores it for use in posts; answers the " +
      "media object, whose id goes in create_post's mediaIds. Herald fetches only from public addresses (never " +
      `loopback, private, link-local or cloud metadata ones, checked at every connection) and follows at most ` +
      `${MediaFetch.maxRedirects} redirects, each checked alike. The server's Content-Type must be one of ` +
      `${Media.acceptedTypes.join(", ")}, and the bytes must match it; photos may be at most ` +
      `${megabytes(Media.defaultLimits.image)} MB, videos ${megabytes(Media.defaultLimits.video)} MB. A URL refused, ` +
      "unreachable or not answering 200 is invalid, with the reason. Give alt text (alt) for people who cannot see it.",
    input: Schema.Struct({
      url: Bounded.Url.annotate({ description: "The file's public https:// URL" }),
      alt: Schema.optionalKey(Bounded.Note.annotate({
        description: `Alt text: what the photo or video shows, for people who cannot see it (at most ${MediaApi.maxAltLength} characters)`
      }))
    }),
    output: Envelope.Data(MediaApi.MediaObject),
    openWorld: true,
    run: (input, caller) =>
      Effect.scoped(Effect.gen(function*() {
        const fetched = yield* fetcher.fetch(input.url)
        const stored = yield* media.upload({
          workspaceId: caller.workspaceId,
          contentType: fetched.contentType,
          contentLength: fetched.contentLength,
          body: fetched.body,
          alt: input.alt
        })
        return { data: MediaApi.toMediaObject(caller.publicUrl, stored) }
      })).pipe(
        Effect.catchTags({
          MediaFetchFailed: (error) => fail("invalid", error, [{ field: "url", message: error.message }]),
          PlatformError: Effect.die
        }),
        domainFailures
      )
  })
})
