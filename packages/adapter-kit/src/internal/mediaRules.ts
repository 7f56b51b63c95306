import type { MediaLimits, Violation } from "../Limits.ts"
import type { MediaItem } from "../PostVersion.ts"
import { count } from "../TextCounter.ts"
import {
  decimalsApart,
  formatBytes,
  formatDuration,
  formatRatio,
  greatestCommonDivisor,
  listOf,
  quantity,
  type Report
} from "./wording.ts"

/**
 * The media rules of the validator: count, kinds, mixing, then each item's aspect ratio, video type,
 * duration, file size and alt text. Positions count every attachment, so "photo 2" is the second item the person attached.
 */
export const checkMedia = (report: Report, limits: MediaLimits, media: ReadonlyArray<MediaItem>): Array<Violation> => {
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
  for (const rule of [checkAspectRatio, checkVideoType, checkDuration, checkBytes, checkAltText]) {
    media.forEach((item, index) => {
      const violation = rule(report, limits, item, index + 1)
      if (violation !== undefined) violations.push(violation)
    })
  }
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

type ItemRule = (report: Report, limits: MediaLimits, item: MediaItem, position: number) => Violation | undefined

const checkAspectRatio: ItemRule = (report, limits, item, position) => {
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

/** A video container the network does not take: a MOV file where only MP4 goes. */
const checkVideoType: ItemRule = (report, limits, item, position) => {
  const types = limits.videoTypes
  if (types === undefined || item.kind !== "video" || types.includes(item.mimeType)) return undefined
  const allowed = listOf(types, "or")
  return report("media", allowed, item.mimeType, `video ${position} is ${item.mimeType}; allowed ${allowed}`, position - 1)
}

const checkDuration: ItemRule = (report, limits, item, position) => {
  const bounds = limits.videoDurationMs
  const duration = item.durationMs
  if (bounds === undefined || item.kind !== "video" || duration === null) return undefined
  if (duration >= bounds.min && duration <= bounds.max) return undefined
  // Rounded away from the bound, so 2.99 s never reads as an allowed "3.0 s".
  const tenths = duration < bounds.min ? Math.floor(duration / 100) : Math.ceil(duration / 100)
  const actual = `${(tenths / 10).toFixed(1)} s`
  const allowed = bounds.min === 0
    ? `up to ${formatDuration(bounds.max)}`
    : `${formatDuration(bounds.min)} to ${formatDuration(bounds.max)}`
  return report("media", allowed, actual, `video ${position} is ${actual} long; allowed ${allowed}`, position - 1)
}

/**
 * A file over the network's size for its kind. A photo reaches this only when no fitted copy was made for
 * the limit (uploaded before the network was installed): the kit swaps in the copy before validating.
 */
const checkBytes: ItemRule = (report, limits, item, position) => {
  const kind = item.kind === "image" ? "photo" : "video"
  const max = item.kind === "image" ? limits.maxPhotoBytes : limits.maxVideoBytes
  if (max === undefined || item.bytes <= max) return undefined
  const actual = formatBytes(item.bytes, "up")
  const sentence = `${kind} ${position} is ${actual}; the limit is ${formatBytes(max)}`
  return report("media", `at most ${formatBytes(max)}`, actual, sentence, position - 1)
}

/** Alt text longer than the network takes; alt text on a network without any is simply not sent. */
const checkAltText: ItemRule = (report, limits, item, position) => {
  const max = limits.altText?.max
  if (max === undefined || item.alt === null) return undefined
  const length = count(item.alt, "characters")
  if (length <= max) return undefined
  const kind = item.kind === "image" ? "photo" : "video"
  const actual = quantity(length, "character")
  const sentence = `the alt text of ${kind} ${position} is ${actual}; the limit is ${max}`
  return report("media", `alt text of at most ${quantity(max, "character")}`, actual, sentence, position - 1)
}
