import { PostVersion } from "@herald/adapter-kit"
import type { Adapter, Limits } from "@herald/adapter-kit"
import type * as PostShape from "../PostShape.ts"

/** One problem with a post request, for the `invalid` answer's message and `details`. */
export interface Problem {
  readonly field: string
  readonly message: string
  readonly network?: string
}

export interface Draft {
  readonly content: string
  readonly platformContent: Record<string, string>
  /** Each network's options as set (`PostShape.Document`). */
  readonly options: PostShape.Document
  readonly firstComment: string | null
  readonly media: ReadonlyArray<PostVersion.MediaItem>
  /** Media named by option fields (a thumbnail), by id. */
  readonly optionMedia: ReadonlyMap<string, PostVersion.MediaItem>
}

const zoned = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/

/** `scheduledAt` as a time: with a zone, a real date, not more than a minute in the past. */
export const scheduledTime = (value: string, now: number): { readonly at: Date } | Problem => {
  if (!zoned.test(value)) {
    return { field: "scheduledAt", message: `scheduledAt "${value}" needs a time zone, e.g. 2026-11-22T09:00:00.000Z` }
  }
  const at = new Date(value)
  if (Number.isNaN(at.getTime())) return { field: "scheduledAt", message: `scheduledAt "${value}" is not a valid time` }
  if (at.getTime() < now - 60_000) {
    return { field: "scheduledAt", message: `scheduledAt ${at.toISOString()} is in the past; use publishNow: true` }
  }
  return { at }
}

/** The post as it goes to one network: its override text or the default, and the parts its options decide. */
export const versionFor = (adapter: Pick<Adapter.Adapter, "network" | "options">, draft: Draft) => {
  const options = adapter.options
  const parts = options === undefined
    ? {}
    : options.version({ ...options.defaults, ...draft.options[adapter.network] }, (id) => draft.optionMedia.get(id))
  return new PostVersion.PostVersion({
    text: draft.platformContent[adapter.network] ?? draft.content,
    media: draft.media,
    thread: parts.thread ?? [],
    format: parts.format ?? "post",
    title: parts.title ?? null,
    thumbnail: parts.thumbnail ?? null,
    firstComment: draft.firstComment,
    settings: parts.settings ?? {}
  })
}

/**
 * Where a network's violation points in the request, as the client spelled it: the post's own text is
 * `content`, or `platformContent.<network>` when that network has its own; an attachment is `mediaIds.<n>`;
 * a thread, title, thumbnail or format is the option field the network's adapter names for it
 * (`<field>.2` for a top-level field, `platformOptions.<network>.<field>.2`).
 */
const requestField = (
  violation: Limits.Violation,
  adapter: Pick<Adapter.Adapter, "network" | "options">,
  draft: Draft,
  shape: PostShape.PostShape
): string => {
  const item = violation.item === undefined ? "" : `.${violation.item}`
  switch (violation.field) {
    case "text":
      return textField(adapter.network, draft)
    case "media":
      return `mediaIds${item}`
    case "firstComment":
      return "firstComment"
    default: {
      const field = adapter.options?.violationFields?.[violation.field]
      return field === undefined ? `${violation.field}${item}` : shape.requestField(adapter.network, `${field}${item}`)
    }
  }
}

const textField = (network: string, draft: Draft) =>
  Object.hasOwn(draft.platformContent, network) ? `platformContent.${network}` : "content"

/** Every limit the post breaks on each network it goes to, plus the rules no single network owns. */
export const networkProblems = (
  adapters: ReadonlyArray<Adapter.Adapter>,
  draft: Draft,
  shape: PostShape.PostShape
): Array<Problem> => {
  const problems: Array<Problem> = []
  // Each network's own rules on its options (that branded content cannot be private, say), for every network
  // the post sets options for, as the request's fields.
  for (const { network, options } of shape.declared) {
    if (draft.options[network] === undefined || options.check === undefined) continue
    for (const problem of options.check(shape.values(network, draft.options)!)) {
      problems.push({ field: shape.requestField(network, problem.field), network, message: problem.message })
    }
  }
  for (const adapter of adapters) {
    const version = versionFor(adapter, draft)
    const violations = adapter.validate(version)
    for (const violation of violations) {
      problems.push({ field: requestField(violation, adapter, draft, shape), network: adapter.network, message: violation.message })
    }
    const empty = version.text.trim() === "" && version.media.length === 0
    if (empty && !violations.some((violation) => violation.field === "text" || violation.field === "media")) {
      problems.push({ field: textField(adapter.network, draft), network: adapter.network, message: `${adapter.network}: a post needs text or media` })
    }
  }
  return problems
}
