import { Schema } from "effect"

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
  durationMs: Schema.NullOr(Schema.Number)
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
