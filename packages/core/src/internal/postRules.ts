import { PostVersion } from "@herald/adapter-kit"
import type { Adapter, Limits } from "@herald/adapter-kit"
import type { Post } from "@herald/domain"

/** One problem with a post request, for the `invalid` answer's message and `details`. */
export interface Problem {
  readonly field: string
  readonly message: string
  readonly network?: string
}

export interface Draft {
  readonly content: string
  readonly platformContent: Record<string, string>
  readonly xThread: ReadonlyArray<string>
  readonly instagramFormat: "post" | "story"
  readonly tiktok: Post.TikTokSettings
  readonly firstComment: string | null
  readonly youtubeTitle: string | null
  readonly youtubeThumbnail: PostVersion.MediaItem | null
  readonly media: ReadonlyArray<PostVersion.MediaItem>
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

/** The post as it goes to one network: its override text or the default, and that network's parts. */
export const versionFor = (network: string, draft: Draft) =>
  new PostVersion.PostVersion({
    text: draft.platformContent[network] ?? draft.content,
    media: draft.media,
    thread: network === "x" ? draft.xThread : [],
    format: network === "instagram" ? draft.instagramFormat : "post",
    title: network === "youtube" ? draft.youtubeTitle : null,
    thumbnail: network === "youtube" ? draft.youtubeThumbnail : null,
    firstComment: draft.firstComment,
    settings: network === "tiktok" ? { ...draft.tiktok } : {}
  })

/**
 * Where a network's violation points in the request, as the client spelled it: the post's own text is
 * `content`, or `platformContent.<network>` when that network has its own; an attachment or follow-up is
 * `mediaIds.<n>` or `xThread.<n>` (from 0) when the rule is about one of them.
 */
export const requestField = (violation: Limits.Violation, network: string, draft: Draft): string => {
  switch (violation.field) {
    case "text":
      return textField(network, draft)
    case "media":
      return violation.item === undefined ? "mediaIds" : `mediaIds.${violation.item}`
    case "thread":
      return violation.item === undefined ? "xThread" : `xThread.${violation.item}`
    case "title":
      return "youtubeTitle"
    case "thumbnail":
      return "youtubeThumbnail"
    case "format":
      return "instagramFormat"
    case "firstComment":
      return "firstComment"
  }
}

const textField = (network: string, draft: Draft) =>
  Object.hasOwn(draft.platformContent, network) ? `platformContent.${network}` : "content"

/** Every limit the post breaks on each network it goes to, plus the rules no single network owns. */
export const networkProblems = (adapters: ReadonlyArray<Adapter.Adapter>, draft: Draft): Array<Problem> => {
  const problems: Array<Problem> = []
  if (draft.tiktok.brandedContent === true && draft.tiktok.privacy === "SELF_ONLY") {
    problems.push({ field: "tiktok.privacy", network: "tiktok", message: "tiktok: branded content cannot be private (SELF_ONLY)" })
  }
  for (const adapter of adapters) {
    const version = versionFor(adapter.network, draft)
    const violations = adapter.validate(version)
    for (const violation of violations) {
      problems.push({ field: requestField(violation, adapter.network, draft), network: adapter.network, message: violation.message })
    }
    const empty = version.text.trim() === "" && version.media.length === 0
    if (empty && !violations.some((violation) => violation.field === "text" || violation.field === "media")) {
      problems.push({ field: textField(adapter.network, draft), network: adapter.network, message: `${adapter.network}: a post needs text or media` })
    }
  }
  return problems
}
