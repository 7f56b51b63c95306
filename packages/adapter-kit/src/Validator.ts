/**
 * Checks a `PostVersion` against a network's `Limits` and reports every broken rule at once, so a person
 * can fix a post in one go instead of meeting the violations one by one. Pure: the core calls it when a
 * post is created or changed, adapters never need to repeat it.
 */
import { checkMedia } from "./internal/mediaRules.ts"
import { listOf, overLimit, quantity, type Report, unitOf } from "./internal/wording.ts"
import type { FormLimits, Limits, TextLimits, Violation, ViolationField } from "./Limits.ts"
import type { PostVersion } from "./PostVersion.ts"
import { bytes, count, countedWith, links, measure } from "./TextCounter.ts"

/**
 * Every rule `post` breaks on `network`, in a stable order: format, text (length, bytes, links, forbidden
 * characters, text or media), title, media (count, kinds, mixing, aspect ratios, durations, file sizes,
 * alt text), thread, thumbnail, first comment. Empty when the post is fine.
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
    ...checkThread(report, form, post),
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
    const length = measure(post.text, limits, post.settings)
    if (length > limits.max) {
      violations.push(overLimit(report, "text", `${withSetting("text", limits, post)} is`, length, limits.max, unitOf(limits.counter)))
    }
    const size = limits.maxBytes === undefined ? 0 : bytes(post.text)
    if (limits.maxBytes !== undefined && size > limits.maxBytes) {
      violations.push(overLimit(report, "text", "text is", size, limits.maxBytes, "byte"))
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

/** What a message calls a text: `text`, or `text with its content warning` when a setting counts with it. */
const withSetting = (subject: string, limits: TextLimits, post: PostVersion): string =>
  countedWith(limits, post.settings) > 0 ? `${subject} with its ${limits.countsWith!.name}` : subject

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

const checkThread = (report: Report, form: FormLimits, post: PostVersion): Array<Violation> => {
  const thread = post.thread
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
    const length = measure(text, form.text, post.settings)
    if (length > limits.maxLength) {
      const subject = `${withSetting(`thread post ${position}`, form.text, post)} is`
      violations.push(overLimit(report, "thread", subject, length, limits.maxLength, unit, index))
    }
    const maxBytes = form.text.maxBytes
    if (maxBytes !== undefined && bytes(text) > maxBytes) {
      violations.push(overLimit(report, "thread", `thread post ${position} is`, bytes(text), maxBytes, "byte", index))
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
  if (post.firstComment !== null && post.firstComment.trim() !== "") {
    if (form.firstComment !== true) {
      violations.push(report("firstComment", "no first comment", "a first comment", "a first comment is not supported"))
    } else {
      // A first comment is a reply or a comment: never longer than the network lets a post be (a reply on X,
      // Bluesky or Mastodon is held to exactly that), so it fails here rather than after the post went out.
      const length = measure(post.firstComment, form.text, post.settings)
      if (length > form.text.max) {
        const subject = `${withSetting("first comment", form.text, post)} is`
        violations.push(overLimit(report, "firstComment", subject, length, form.text.max, unitOf(form.text.counter)))
      }
      const maxBytes = form.text.maxBytes
      if (maxBytes !== undefined && bytes(post.firstComment) > maxBytes) {
        violations.push(overLimit(report, "firstComment", "first comment is", bytes(post.firstComment), maxBytes, "byte"))
      }
    }
  }
  return violations
}
