import { PostVersion } from "@herald/adapter-kit"
import type { Adapter } from "@herald/adapter-kit"
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

/** Every limit the post breaks on each network it goes to, plus the rules no single network owns. */
export const networkProblems = (adapters: ReadonlyArray<Adapter.Adapter>, draft: Draft): Array<Problem> => {
  const problems: Array<Problem> = []
  if (draft.tiktok.brandedContent === true && draft.tiktok.privacy === "SELF_ONLY") {
    problems.push({ field: "tiktok", network: "tiktok", message: "tiktok: branded content cannot be private (SELF_ONLY)" })
  }
  for (const adapter of adapters) {
    const version = versionFor(adapter.network, draft)
    const violations = adapter.validate(version)
    for (const violation of violations) {
      problems.push({ field: violation.field, network: adapter.network, message: violation.message })
    }
    const empty = version.text.trim() === "" && version.media.length === 0
    if (empty && !violations.some((violation) => violation.field === "text" || violation.field === "media")) {
      problems.push({ field: "content", network: adapter.network, message: `${adapter.network}: a post needs text or media` })
    }
  }
  return problems
}
