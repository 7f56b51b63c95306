/**
 * Checks a `PostVersion` against a network's `Limits` and reports every broken rule at once, so a person
 * can fix a post in one go instead of meeting the violations one by one. Pure: the core calls it when a
 * post is created or changed, adapters never need to repeat it.
 */
import type { FormLimits, Limits, MediaLimits, TextCounter, TextLimits, Violation, ViolationField } from "./Limits.ts"
import type { MediaItem, PostVersion } from "./PostVersion.ts"
import { count, links } from "./TextCounter.ts"

/**
 * Builds one violation; `sentence` is the message without the network's name, which every message starts with;
 * `item`, the attachment's or follow-up's place (from 0) when the rule is about one of them.
 */
type Report = (field: ViolationField, limit: string, actual: string, sentence: string, item?: number) => Violation

/**
 * Every rule `post` breaks on `network`, in a stable order: format, text (length, links, forbidden
 * characters, text or media), title, media (count, kinds, mixing, aspect ratios, durations), thread,
 * thumbnail, first comment. Empty when the post is fine.
 */
export const validate = (network: string, limits: Limits, post: PostVersion): ReadonlyArray<Violation> => {
  const report: Report = (field, limit, actual, sentence, item) => ({
    network,
    field,
    limit,
    actual,
    message: `${network}: ${sentence}`,
    ...(item === undefined ? {} : { item })
  })
  // `hasOwn`, not indexing: a format such as "constructor" must not find something on Object's prototype.
  if (!Object.hasOwn(limits.forms, post.format)) {
    const formats = Object.keys(limits.forms)
    const sentence = `format "${post.format}" is not supported; use ${listOf(formats, "or")}`
    return [report("format", `one of ${formats.join(", ")}`, post.format, sentence)]
  }
  const form: FormLimits = limits.forms[post.format]!
  return [
    ...checkText(report, form, post),
    ...checkTitle(report, form, post),
    ...checkMedia(report, form.media, post.media),
    ...checkThread(report, form, post.thread),
    ...checkExtras(report, form, post)
  ]
}

/** The messages joined into one line, for an error's `message`. */
export const summarize = (violations: ReadonlyArray<Violation>): string =>
  violations.map((violation) => violation.message).join("; ")

const checkText = (report: Report, form: FormLimits, post: PostVersion): Array<Violation> => {
  const limits: TextLimits = form.text
  const violations: Array<Violation> = []
  // Ignored text is never sent, so it can break no rule, and it cannot stand in for media either.
  const hasText = limits.ignored !== true && post.text.trim() !== ""
  if (limits.ignored !== true) {
    const length = count(post.text, limits.counter)
    if (length > limits.max) {
      violations.push(overLimit(report, "text", "text is", length, limits.max, unitOf(limits.counter)))
    }
    const linkCount = limits.maxLinks === undefined ? 0 : links(post.text).length
    if (limits.maxLinks !== undefined && linkCount > limits.maxLinks) {
      violations.push(overLimit(report, "text", "text has", linkCount, limits.maxLinks, "link"))
    }
    violations.push(...checkForbidden(report, "text", limits.forbidden, post.text))
  }
  if (form.textOrMedia === true && !hasText && post.media.length === 0) {
    violations.push(report("text", "text or media", "neither", "a post needs text or media"))
  }
  return violations
}

const checkTitle = (report: Report, form: FormLimits, post: PostVersion): Array<Violation> => {
  // A title given to a network without titles is simply not sent.
  const limits = form.title
  if (limits === undefined) return []
  const title = post.title ?? ""
  if (title.trim() === "") {
    return limits.required ? [report("title", "required", "none", "a title is required")] : []
  }
  const violations: Array<Violation> = []
  const length = count(title, "characters")
  if (length > limits.max) violations.push(overLimit(report, "title", "title is", length, limits.max, "character"))
  violations.push(...checkForbidden(report, "title", limits.forbidden, title))
  return violations
}

/** One violation naming every forbidden character the text contains. */
const checkForbidden = (
  report: Report,
  field: ViolationField,
  forbidden: ReadonlyArray<string> | undefined,
  text: string
): Array<Violation> => {
  if (forbidden === undefined) return []
  const found = forbidden.filter((character) => text.includes(character))
  if (found.length === 0) return []
  const contains = `contains ${listOf(found.map((character) => `"${character}"`), "and")}`
  const allowed = `no ${listOf(forbidden, "or")}`
  return [report(field, allowed, contains, `${field} ${contains}; it may not contain ${listOf(forbidden, "or")}`)]
}

const checkMedia = (report: Report, limits: MediaLimits, media: ReadonlyArray<MediaItem>): Array<Violation> => {
  const photos = media.filter((item) => item.kind === "image").length
  const videos = media.length - photos
  const kinds: Array<Violation> = [
    ...checkKind(report, photos, limits.maxPhotos, "photo", limits.maxVideos, "video"),
    ...checkKind(report, videos, limits.maxVideos, "video", limits.maxPhotos, "photo")
  ]
  const violations: Array<Violation> = []
  if (media.length < limits.minItems) {
    violations.push(report(
      "media",
      limits.minItems === 1 ? `at least 1 ${acceptedKinds(limits)}` : `at least ${limits.minItems} media`,
      `${media.length} media`,
      limits.minItems === 1
        ? `${media.length} media attached; a post needs a ${acceptedKinds(limits)}`
        : `${media.length} media attached; at least ${limits.minItems} required`
    ))
  }
  // "5 photos attached" already says everything "5 media attached" would when all the media are photos.
  const kindCoversAll = (photos > limits.maxPhotos && videos === 0) || (videos > limits.maxVideos && photos === 0)
  if (media.length > limits.maxItems && !kindCoversAll) {
    violations.push(report(
      "media",
      `at most ${limits.maxItems} media`,
      `${media.length} media`,
      `${media.length} media attached; the limit is ${limits.maxItems}`
    ))
  }
  violations.push(...kinds)
  if (!limits.mixing && photos > 0 && videos > 0) {
    violations.push(report(
      "media",
      "photos or videos, not both",
      `${quantity(photos, "photo")} and ${quantity(videos, "video")}`,
      "photos and videos cannot be mixed in one post"
    ))
  }
  // Positions count every attachment, so "photo 2" is the second item the person attached.
  media.forEach((item, index) => {
    const ratio = checkAspectRatio(report, limits, item, index + 1)
    if (ratio !== undefined) violations.push(ratio)
  })
  media.forEach((item, index) => {
    const duration = checkDuration(report, limits, item, index + 1)
    if (duration !== undefined) violations.push(duration)
  })
  return violations
}

const acceptedKinds = (limits: MediaLimits): string =>
  limits.maxPhotos === 0 ? "video" : limits.maxVideos === 0 ? "photo" : "photo or video"

/** Too many of one kind; a kind the network refuses outright says what to attach instead. */
const checkKind = (
  report: Report,
  actual: number,
  max: number,
  kind: "photo" | "video",
  otherMax: number,
  other: "photo" | "video"
): Array<Violation> => {
  if (actual <= max) return []
  if (max === 0) {
    const instead = otherMax === 0 ? "" : `; attach ${otherMax === 1 ? `one ${other}` : `up to ${otherMax} ${other}s`}`
    return [report("media", `no ${kind}s`, quantity(actual, kind), `${kind}s are not accepted${instead}`)]
  }
  return [report(
    "media",
    `at most ${quantity(max, kind)}`,
    quantity(actual, kind),
    `${quantity(actual, kind)} attached; the limit is ${max}`
  )]
}

const checkAspectRatio = (
  report: Report,
  limits: MediaLimits,
  item: MediaItem,
  position: number
): Violation | undefined => {
  const bounds = limits.photoAspectRatio
  const { height, width } = item
  // Sizes are unknown until the media is probed; the network will judge those itself.
  if (bounds === undefined || item.kind !== "image" || width === null || height === null) return undefined
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) return undefined
  const ratio = width / height
  if (ratio >= bounds.min && ratio <= bounds.max) return undefined
  const divisor = greatestCommonDivisor(width, height)
  const broken = ratio < bounds.min ? bounds.min : bounds.max
  const actual = `${width / divisor}:${height / divisor} (${decimalsApart(ratio, broken)})`
  const allowed = `between ${formatRatio(bounds.min)} and ${formatRatio(bounds.max)}`
  return report("media", allowed, actual, `photo ${position} is ${actual}; allowed ${allowed}`, position - 1)
}

const checkDuration = (
  report: Report,
  limits: MediaLimits,
  item: MediaItem,
  position: number
): Violation | undefined => {
  const bounds = limits.videoDurationMs
  const duration = item.durationMs
  if (bounds === undefined || item.kind !== "video" || duration === null) return undefined
  if (duration >= bounds.min && duration <= bounds.max) return undefined
  // Rounded away from the bound, so 2.99 s never reads as an allowed "3.0 s".
  const tenths = duration < bounds.min ? Math.floor(duration / 100) : Math.ceil(duration / 100)
  const actual = `${(tenths / 10).toFixed(1)} s`
  const allowed = `${formatDuration(bounds.min)} to ${formatDuration(bounds.max)}`
  return report("media", allowed, actual, `video ${position} is ${actual} long; allowed ${allowed}`, position - 1)
}

const checkThread = (report: Report, form: FormLimits, thread: ReadonlyArray<string>): Array<Violation> => {
  if (thread.length === 0) return []
  const limits = form.thread
  if (limits === undefined) {
    const followUps = quantity(thread.length, "follow-up post")
    return [report("thread", "no follow-up posts", followUps, "threads are not supported")]
  }
  const violations: Array<Violation> = []
  const posts = thread.length + 1
  if (posts > limits.maxPosts) {
    violations.push(overLimit(report, "thread", "thread has", posts, limits.maxPosts, "post"))
  }
  const unit = unitOf(form.text.counter)
  thread.forEach((text, index) => {
    // Post 1 is the post's own text, so follow-ups are numbered from 2.
    const position = index + 2
    // A follow-up carries text only, so an empty one would be an empty post, which networks refuse.
    if (text.trim() === "") {
      violations.push(report("thread", "text in every post", "empty", `thread post ${position} is empty`, index))
      return
    }
    const length = count(text, form.text.counter)
    if (length > limits.maxLength) {
      violations.push(overLimit(report, "thread", `thread post ${position} is`, length, limits.maxLength, unit, index))
    }
  })
  return violations
}

const checkExtras = (report: Report, form: FormLimits, post: PostVersion): Array<Violation> => {
  const violations: Array<Violation> = []
  if (post.thumbnail !== null) {
    if (form.thumbnail !== true) {
      violations.push(report("thumbnail", "no thumbnail", "a thumbnail", "a thumbnail is not supported"))
    } else if (post.thumbnail.kind !== "image") {
      violations.push(report("thumbnail", "a photo", "a video", "the thumbnail must be a photo"))
    }
  }
  // An empty first comment would not be posted, so it is treated as none.
  if (post.firstComment !== null && post.firstComment.trim() !== "" && form.firstComment !== true) {
    violations.push(report("firstComment", "no first comment", "a first comment", "a first comment is not supported"))
  }
  return violations
}

/** The shape of every "too long" or "too many" message: `text is 312 characters; the limit is 280`. */
const overLimit = (
  report: Report,
  field: ViolationField,
  subject: string,
  actual: number,
  max: number,
  unit: string,
  item?: number
) => {
  const amount = quantity(actual, unit)
  return report(field, `at most ${quantity(max, unit)}`, amount, `${subject} ${amount}; the limit is ${max}`, item)
}

const unitOf = (counter: TextCounter): string => counter === "utf8-bytes" ? "byte" : "character"

/** `1 photo`, `5 photos`. */
const quantity = (amount: number, unit: string): string => `${amount} ${unit}${amount === 1 ? "" : "s"}`

/** `a`, `a or b`, `a, b or c`. */
const listOf = (items: ReadonlyArray<string>, conjunction: "and" | "or"): string =>
  items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} ${conjunction} ${items.at(-1)}`

/**
 * A ratio bound as people know it: `4:5 (0.8)` when it is a small fraction, otherwise `1.91:1`.
 */
const formatRatio = (value: number): string => {
  for (let denominator = 1; denominator <= 20; denominator++) {
    const numerator = Math.round(value * denominator)
    if (numerator > 0 && Math.abs(numerator / denominator - value) < 1e-9) {
      return denominator === 1 ? `${numerator}:1` : `${numerator}:${denominator} (${Number(value.toFixed(2))})`
    }
  }
  return `${Number(value.toFixed(2))}:1`
}

/** Two decimals, or up to four when two would make the value look equal to the bound it breaks. */
const decimalsApart = (value: number, bound: number): string => {
  for (let decimals = 2; decimals < 4; decimals++) {
    if (value.toFixed(decimals) !== bound.toFixed(decimals)) return value.toFixed(decimals)
  }
  return value.toFixed(4)
}

/** `3 s`, `60 s`, `15 min`: whole minutes read better past one minute. */
const formatDuration = (milliseconds: number): string =>
  milliseconds > 60_000 && milliseconds % 60_000 === 0 ? `${milliseconds / 60_000} min` : `${milliseconds / 1000} s`

const greatestCommonDivisor = (first: number, second: number): number =>
  second === 0 ? first : greatestCommonDivisor(second, first % second)
