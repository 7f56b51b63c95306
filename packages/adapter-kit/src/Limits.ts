import { Schema } from "effect"

/**
 * A network's content limits as data. The generic validator (`Validator.ts`) checks a `PostVersion`
 * against them, and `GET /api/v1/networks` publishes them as they are (these schemas describe them in the
 * OpenAPI document), so clients and assistants can check a post before they send it.
 */

/**
 * How a network counts the length of text: `characters` are Unicode code points after NFC normalisation;
 * `x-weighted` is X's count (twitter-text v3: URLs weigh 23, CJK and emoji 2); `utf8-bytes` is UTF-8 bytes
 * (YouTube descriptions); `graphemes` are user-perceived characters (Unicode extended grapheme clusters, as
 * `Intl.Segmenter` finds them: a flag or a family emoji is one; Bluesky); `mastodon` is Mastodon's count
 * (graphemes, every link 23, a remote mention `@user@domain` as `@user`); `utf16-units` are UTF-16 code
 * units, as JavaScript's `length` counts them (an emoji is two; TikTok); `emoji-bytes` are characters as
 * `characters` counts them except that each emoji counts as its UTF-8 bytes (a face is four; Threads).
 */
export const TextCounter = Schema.Literals([
  "characters",
  "x-weighted",
  "utf8-bytes",
  "graphemes",
  "mastodon",
  "utf16-units",
  "emoji-bytes"
])
export type TextCounter = typeof TextCounter.Type

const Range = Schema.Struct({ min: Schema.Finite, max: Schema.Finite })

export const TextLimits = Schema.Struct({
  max: Schema.Finite,
  counter: TextCounter,
  /**
   * At most this many UTF-8 bytes as well, checked beside `max` (Bluesky: 300 graphemes and 3,000 bytes).
   * Follow-up posts of a thread are held to it too.
   */
  maxBytes: Schema.optionalKey(Schema.Finite),
  /** Characters the network refuses anywhere in the text (YouTube: `<` and `>`). */
  forbidden: Schema.optionalKey(Schema.Array(Schema.String)),
  /** At most this many distinct links (Threads: 5). */
  maxLinks: Schema.optionalKey(Schema.Finite),
  /** Text is accepted but never shown (Instagram stories): not checked, not sent. */
  ignored: Schema.optionalKey(Schema.Boolean),
  /**
   * A post option the network counts within the same limit as the text, by its own counter: its length is
   * added to the text's, a thread post's and the first comment's, each of which carries it. Mastodon counts
   * the content warning (`spoilerText`) with the text. `setting` names the entry of the post's settings,
   * `name` what a message calls it.
   */
  countsWith: Schema.optionalKey(Schema.Struct({ setting: Schema.String, name: Schema.String, counter: TextCounter }))
})
export type TextLimits = typeof TextLimits.Type

/** Present when the network takes a description of each photo for people who cannot see it. */
export const AltTextLimits = Schema.Struct({
  /** Its longest length, in characters (Unicode code points). */
  max: Schema.Finite
})
export type AltTextLimits = typeof AltTextLimits.Type

export const MediaLimits = Schema.Struct({
  /** The post needs at least this many media (TikTok, YouTube, Instagram). */
  minItems: Schema.Finite,
  maxItems: Schema.Finite,
  maxPhotos: Schema.Finite,
  maxVideos: Schema.Finite,
  /** Photos and videos may be combined in one post. */
  mixing: Schema.Boolean,
  /** Photo width divided by height must lie within (Instagram: 4:5 = 0.8 to 1.91). */
  photoAspectRatio: Schema.optionalKey(Range),
  /** Video duration in milliseconds must lie within (a `min` of 0: no shortest length). */
  videoDurationMs: Schema.optionalKey(Range),
  /**
   * The video containers the network takes, as MIME types (Bluesky and LinkedIn: `video/mp4` only). Absent,
   * it takes every kind Herald stores (MP4 and MOV).
   */
  videoTypes: Schema.optionalKey(Schema.Array(Schema.String)),
  /**
   * The largest photo file the network takes, in bytes (Bluesky: 2,000,000). Herald fits each photo over it
   * when it is uploaded (a smaller JPEG copy), and sends the network that copy.
   */
  maxPhotoBytes: Schema.optionalKey(Schema.Finite),
  /** The largest video file the network takes, in bytes. */
  maxVideoBytes: Schema.optionalKey(Schema.Finite),
  /** Present when the network takes alt text on media (sent with each item that has one); absent, it is not sent. */
  altText: Schema.optionalKey(AltTextLimits)
})
export type MediaLimits = typeof MediaLimits.Type

export const ThreadLimits = Schema.Struct({
  /** The whole thread, first post included. Follow-ups carry text only. */
  maxPosts: Schema.Finite,
  /** Each follow-up, counted with the text counter. */
  maxLength: Schema.Finite
})
export type ThreadLimits = typeof ThreadLimits.Type

export const TitleLimits = Schema.Struct({
  required: Schema.Boolean,
  max: Schema.Finite,
  forbidden: Schema.optionalKey(Schema.Array(Schema.String))
})
export type TitleLimits = typeof TitleLimits.Type

/** The limits of one form of post (most networks have one form, `post`). */
export const FormLimits = Schema.Struct({
  text: TextLimits,
  media: MediaLimits,
  /** Present when the network takes follow-up posts (X). */
  thread: Schema.optionalKey(ThreadLimits),
  /** Present when the network takes a title (YouTube). */
  title: Schema.optionalKey(TitleLimits),
  /** A post must have text or media (X). */
  textOrMedia: Schema.optionalKey(Schema.Boolean),
  /** A thumbnail image may be given (YouTube). */
  thumbnail: Schema.optionalKey(Schema.Boolean),
  /** A first comment may be given. */
  firstComment: Schema.optionalKey(Schema.Boolean)
})
export type FormLimits = typeof FormLimits.Type

/** A network's limits: one entry per form, keyed as `PostVersion.format` names it; `post` always exists. */
export interface Limits {
  readonly forms: { readonly post: FormLimits } & { readonly [format: string]: FormLimits }
}
export const Limits = Schema.Struct({
  forms: Schema.Record(Schema.String, FormLimits)
})

export const ViolationField = Schema.Literals(["format", "text", "title", "media", "thread", "thumbnail", "firstComment"])
export type ViolationField = typeof ViolationField.Type

/** One broken rule, with the numbers a person needs to fix the post. */
export const Violation = Schema.Struct({
  network: Schema.String,
  field: ViolationField,
  /** The rule, as a short phrase: `at most 280 characters`. */
  limit: Schema.String,
  /** What the post has. */
  actual: Schema.String,
  /** The whole sentence: `x: text is 312 characters; the limit is 280`. */
  message: Schema.String,
  /** When the rule is about one attachment or one follow-up post: its place in `media` or `thread`, from 0. */
  item: Schema.optionalKey(Schema.Finite)
})
export type Violation = typeof Violation.Type
