import { Schema } from "effect"
import type { Limits } from "./Limits.ts"

/** A smaller JPEG copy of a photo, made at upload for a network whose `maxPhotoBytes` the photo breaks. */
export const FittedCopy = Schema.Struct({
  /** The byte limit it was made for. */
  maxBytes: Schema.Number,
  url: Schema.String,
  bytes: Schema.Number,
  width: Schema.Number,
  height: Schema.Number
})
export type FittedCopy = typeof FittedCopy.Type

/** One attached photo or video as an adapter sees it. */
export class MediaItem extends Schema.Class<MediaItem>("MediaItem")({
  id: Schema.String,
  kind: Schema.Literals(["image", "video"]),
  mimeType: Schema.String,
  /** Public address the network can fetch it from (Instagram and Threads fetch by URL). */
  url: Schema.String,
  /** Size in bytes. */
  bytes: Schema.Number,
  width: Schema.NullOr(Schema.Number),
  height: Schema.NullOr(Schema.Number),
  durationMs: Schema.NullOr(Schema.Number),
  /** A description for people who cannot see it; sent to networks that take alt text (`MediaLimits.altText`). */
  alt: Schema.NullOr(Schema.String),
  /**
   * The photo's fitted copies, smallest limit first. An adapter never sees them: the kit hands it the post
   * with each photo over its network's `maxPhotoBytes` already swapped for the copy that fits (`fit`).
   */
  fitted: Schema.optionalKey(Schema.Array(FittedCopy))
}) {}

/**
 * A post as it goes to one network: the text that applies there (its `platformContent` override or the
 * default content), the media, and the network-specific parts. What the validator checks and what
 * `publish` sends.
 */
export class PostVersion extends Schema.Class<PostVersion>("PostVersion")({
  text: Schema.String,
  media: Schema.Array(MediaItem),
  /** Follow-up posts after the first (X threads). */
  thread: Schema.Array(Schema.String),
  /** The network's form of post when it has several (Instagram: `post` or `story`); `post` otherwise. */
  format: Schema.String,
  /** A title where the network has one (YouTube). */
  title: Schema.NullOr(Schema.String),
  /** A thumbnail image where the network takes one (YouTube). */
  thumbnail: Schema.NullOr(MediaItem),
  /** A first comment, posted right after the post where the network allows it. */
  firstComment: Schema.NullOr(Schema.String),
  /** Network-specific settings (TikTok's privacy and interaction switches), already validated by the core. */
  settings: Schema.Record(Schema.String, Schema.Unknown)
}) {}

/**
 * The post as a network with these limits takes it: each photo larger than the form's `maxPhotoBytes` is
 * swapped for its largest fitted copy within the limit (same id and alt text, the copy's address, size and
 * dimensions). A photo without such a copy stays as it is, and the validator reports it.
 */
export const fit = (limits: Limits, post: PostVersion): PostVersion => {
  const max = Object.hasOwn(limits.forms, post.format) ? limits.forms[post.format]!.media.maxPhotoBytes : undefined
  if (max === undefined || !post.media.some((item) => item.kind === "image" && item.bytes > max)) return post
  const media = post.media.map((item) => {
    if (item.kind !== "image" || item.bytes <= max) return item
    const copies = (item.fitted ?? []).filter((copy) => copy.bytes <= max)
    const copy = copies.reduce<FittedCopy | undefined>((best, next) => best === undefined || next.bytes > best.bytes ? next : best, undefined)
    if (copy === undefined) return item
    return new MediaItem({
      id: item.id,
      kind: item.kind,
      mimeType: "image/jpeg",
      url: copy.url,
      bytes: copy.bytes,
      width: copy.width,
      height: copy.height,
      durationMs: null,
      alt: item.alt
    })
  })
  return new PostVersion({ ...post, media })
}
