import { SimulatorRules } from "@herald/adapter-kit"

/**
 * What TikTok refuses of the two init calls Herald makes, as the simulator holds it: one table, each rule
 * with the page that states it and TikTok's answer (`{ data: {}, error: { code, message, log_id } }` with
 * the HTTP status of the page's error table: 400 `invalid_param`, 403 `privacy_level_option_mismatch`).
 * Transcribed from the Content Posting API reference pages, read 2026-12-03 in stored copies of
 * developers.tiktok.com (the pages carry no date). TikTok's `invalid_param` message is "check error message
 * for details": the simulator's words name the field.
 */

export interface Answer {
  readonly status: number
  readonly code: string
}

/** A rule with TikTok's answer to a request that breaks it. */
export type Rule<Input> = SimulatorRules.Rule<Input> & { readonly answer: Answer }

export type Call<Input> = SimulatorRules.Call<Input, Rule<Input>>

const call = <Input>(name: string, rules: ReadonlyArray<Rule<Input>>): Call<Input> => SimulatorRules.call(name, rules)

/** An init request as sent, and the privacy levels `creator_info/query` offered the creator. */
export interface Init {
  readonly body: unknown
  readonly privacyLevelOptions: ReadonlyArray<string>
}

const docs = "https://developers.tiktok.com/doc"
const directPost = `${docs}/content-posting-api-reference-direct-post`
const photoPost = `${docs}/content-posting-api-reference-photo-post`
const guidelines = `${docs}/content-sharing-guidelines`

const invalidParam: Answer = { status: 400, code: "invalid_param" }

const isObject = (value: unknown) => typeof value === "object" && value !== null && !Array.isArray(value)
/** Whether the object holding the field at `path` is there: when it is not, its own rule speaks. */
const inObject = (body: unknown, path: string) =>
  isObject(path.includes(".") ? SimulatorRules.at(body, path.slice(0, path.lastIndexOf("."))) : body)
const isBoolean = (value: unknown) => typeof value === "boolean"
const isHttpUrl = (value: unknown) => typeof value === "string" && /^https?:\/\/\S+$/.test(value)

/** A rule on the field at `path`, which may be absent unless `required` says when it must be there. */
const field = (
  path: string,
  rule: string,
  source: string,
  accepts: (value: unknown) => boolean,
  required: (body: unknown) => boolean = () => false
): Rule<Init> => ({
  rule: `\`${path}\` ${rule}`,
  source,
  answer: invalidParam,
  check: ({ body }) => {
    if (!inObject(body, path)) return undefined
    const value = SimulatorRules.at(body, path)
    if (value === undefined) return required(body) ? `${path} is required.` : undefined
    return accepts(value) ? undefined : `Invalid ${path}: ${SimulatorRules.show(value)}; the field ${rule}.`
  }
})

const always = () => true
const boolean = (path: string, source: string, required: (body: unknown) => boolean = () => false) =>
  field(path, "is a boolean", source, isBoolean, required)
/** A string of at most `max` UTF-16 code units, TikTok's "UTF-16 runes" (JavaScript's own length). */
const text = (path: string, max: number, source: string) =>
  field(path, `is a string of at most ${max} UTF-16 runes`, source, (value) => typeof value === "string" && value.length <= max)

/** Whether a photo post goes straight to the profile: only then do the post settings apply. */
const direct = (body: unknown) => SimulatorRules.at(body, "post_mode") === "DIRECT_POST"

const privacy = (source: string, required: (body: unknown) => boolean): Rule<Init> => ({
  rule: "`post_info.privacy_level` is given, and is one of the `privacy_level_options` creator_info/query offered",
  source,
  answer: { status: 403, code: "privacy_level_option_mismatch" },
  check: ({ body, privacyLevelOptions }) => {
    if (!inObject(body, "post_info.privacy_level")) return undefined
    const level = SimulatorRules.at(body, "post_info.privacy_level")
    if (level === undefined && !required(body)) return undefined
    return typeof level === "string" && privacyLevelOptions.includes(level)
      ? undefined
      : `privacy_level ${SimulatorRules.show(level)} is not among the privacy_level_options: ${privacyLevelOptions.join(", ")}.`
  }
})

const branded = (source: string): Rule<Init> => ({
  rule: "branded content (`brand_content_toggle`) is not posted SELF_ONLY",
  source,
  answer: invalidParam,
  check: ({ body }) =>
    SimulatorRules.at(body, "post_info.brand_content_toggle") === true && SimulatorRules.at(body, "post_info.privacy_level") === "SELF_ONLY"
      ? "Branded content visibility cannot be set to private."
      : undefined
})

const postInfo = (source: string) => field("post_info", "is an object", source, isObject, always)
const sourceInfo = (source: string) => field("source_info", "is an object", source, isObject, always)

export const videoInit = call<Init>("POST /v2/post/publish/video/init/", [
  postInfo(directPost),
  privacy(directPost, always),
  text("post_info.title", 2_200, directPost),
  boolean("post_info.disable_duet", directPost),
  boolean("post_info.disable_stitch", directPost),
  boolean("post_info.disable_comment", directPost),
  boolean("post_info.brand_content_toggle", directPost, always),
  boolean("post_info.brand_organic_toggle", directPost),
  boolean("post_info.is_aigc", directPost),
  branded(guidelines),
  sourceInfo(directPost),
  field("source_info.source", "is PULL_FROM_URL or FILE_UPLOAD", directPost, (value) => value === "PULL_FROM_URL" || value === "FILE_UPLOAD", always),
  field(
    "source_info.video_url",
    "is a public http(s) URL",
    directPost,
    isHttpUrl,
    (body) => SimulatorRules.at(body, "source_info.source") === "PULL_FROM_URL"
  ),
  field(
    "source_info.video_size",
    "is the file's size, a whole number of bytes above zero",
    directPost,
    (value) => typeof value === "number" && Number.isSafeInteger(value) && value > 0,
    (body) => SimulatorRules.at(body, "source_info.source") === "FILE_UPLOAD"
  )
])

export const photoInit = call<Init>("POST /v2/post/publish/content/init/", [
  field("media_type", "is PHOTO", photoPost, (value) => value === "PHOTO", always),
  field("post_mode", "is DIRECT_POST or MEDIA_UPLOAD", photoPost, (value) => value === "DIRECT_POST" || value === "MEDIA_UPLOAD", always),
  postInfo(photoPost),
  privacy(photoPost, direct),
  text("post_info.title", 90, photoPost),
  text("post_info.description", 4_000, photoPost),
  boolean("post_info.disable_comment", photoPost),
  boolean("post_info.auto_add_music", photoPost),
  boolean("post_info.brand_content_toggle", photoPost, direct),
  boolean("post_info.brand_organic_toggle", photoPost, direct),
  branded(guidelines),
  sourceInfo(photoPost),
  field("source_info.source", "is PULL_FROM_URL (the only source for photos)", photoPost, (value) => value === "PULL_FROM_URL", always),
  field(
    "source_info.photo_images",
    "lists 1 to 35 photos",
    photoPost,
    (value) => Array.isArray(value) && value.length >= 1 && value.length <= 35,
    always
  ),
  field("source_info.photo_images", "lists public http(s) URLs", photoPost, (value) => !Array.isArray(value) || value.every(isHttpUrl)),
  {
    rule: "`source_info.photo_cover_index` is the index (from 0) of one of the photos",
    source: photoPost,
    answer: invalidParam,
    check: ({ body }) => {
      if (!inObject(body, "source_info.photo_cover_index")) return undefined
      const index = SimulatorRules.at(body, "source_info.photo_cover_index")
      const photos = SimulatorRules.at(body, "source_info.photo_images")
      const count = Array.isArray(photos) ? photos.length : 0
      return typeof index === "number" && Number.isInteger(index) && index >= 0 && (index < count || count === 0)
        ? undefined
        : `source_info.photo_cover_index must be the index of one of the ${count} photo_images; it was ${SimulatorRules.show(index)}.`
    }
  }
])

/** Every call the simulator checks, in the order the README shows them. */
export const rules: SimulatorRules.Table = [videoInit, photoInit]
