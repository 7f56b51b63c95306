import type { PostVersion } from "@herald/adapter-kit"
import { createHash } from "node:crypto"

/**
 * Pure translation of a Herald post into `POST /api/v1/statuses` bodies
 * (https://docs.joinmastodon.org/methods/statuses/#create), the `Idempotency-Key` of each, and the handle
 * that carries a post with media or replies from one step to the next.
 */

/** The options `MastodonOptions.version` puts in `settings`, read leniently (a post made before they existed has none). */
export interface Settings {
  readonly visibility: string
  readonly spoilerText: string | null
  readonly sensitive: boolean
  readonly language: string | null
}

export const settingsOf = (post: PostVersion.PostVersion): Settings => {
  const settings = post.settings
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null)
  return {
    visibility: text(settings["visibility"]) ?? "public",
    spoilerText: text(settings["spoilerText"]),
    sensitive: settings["sensitive"] === true,
    language: text(settings["language"])
  }
}

/**
 * One status's body. The thread's follow-ups and the first comment carry the post's visibility, content
 * warning and language (as Mastodon's own apps do for a reply); `sensitive` matters only with media.
 */
export const statusBody = (input: {
  readonly text: string
  readonly settings: Settings
  readonly mediaIds?: ReadonlyArray<string> | undefined
  readonly inReplyTo?: string | undefined
}): Readonly<Record<string, unknown>> => ({
  status: input.text,
  visibility: input.settings.visibility,
  ...(input.settings.spoilerText === null ? {} : { spoiler_text: input.settings.spoilerText }),
  ...(input.settings.language === null ? {} : { language: input.settings.language }),
  ...(input.mediaIds === undefined || input.mediaIds.length === 0
    ? {}
    : { media_ids: [...input.mediaIds], sensitive: input.settings.sensitive || input.settings.spoilerText !== null }),
  ...(input.inReplyTo === undefined ? {} : { in_reply_to_id: input.inReplyTo })
})

/**
 * The `Idempotency-Key` of one status of a post: the same for every try of the same step of the same post on
 * the same account, so a resend after a lost answer gets the status the first try made instead of a second
 * one (Mastodon keeps a key an hour, https://docs.joinmastodon.org/methods/statuses/#headers). `publication`
 * is Herald's name for the post going to this account (`PublishInput.publication`), so two posts with the
 * same text are two statuses; what the post is made of is keyed too, so a post changed between tries is not
 * answered with the old status. `step` is `root`, or the reply's place and the status it answers.
 */
export const idempotencyKey = (
  accountId: string,
  post: PostVersion.PostVersion,
  step: string,
  publication?: string | undefined
): string =>
  keyOf([
    publication ?? null,
    accountId,
    post.text,
    post.media.map((item) => item.id),
    post.thread,
    post.firstComment,
    post.settings,
    step
  ])

/** An `Idempotency-Key` made of parts that together name one status to make. */
export const keyOf = (parts: ReadonlyArray<unknown>): string =>
  `herald-${createHash("sha256").update(JSON.stringify(parts)).digest("base64url")}`

/** Alt text, where the media carries it. */
export const altOf = (item: PostVersion.MediaItem): string | null => {
  const alt = (item as { readonly alt?: unknown }).alt
  return typeof alt === "string" && alt.trim() !== "" ? alt : null
}

/** The parts after the first status, in order: the thread's follow-ups, then the first comment (a reply to the status). */
export interface Part {
  readonly text: string
  readonly kind: "thread" | "comment"
}

export const partsAfter = (post: PostVersion.PostVersion): ReadonlyArray<Part> => [
  ...post.thread.filter((text) => text.trim() !== "").map((text): Part => ({ text, kind: "thread" })),
  ...(post.firstComment === null || post.firstComment.trim() === "" ? [] : [{ text: post.firstComment, kind: "comment" as const }])
]

/** A status Herald made: its id and the link a person opens. */
export interface Made {
  readonly id: string
  readonly url: string
}

/**
 * Where a post stands between two steps: its media still being processed by the instance, or its status
 * made with the replies (thread, first comment) going on, the status above the next and which part is next.
 */
export type Progress =
  | { readonly _tag: "Media"; readonly mediaIds: ReadonlyArray<string> }
  | { readonly _tag: "Replies"; readonly root: Made; readonly parent: string; readonly next: number }

// Mastodon's ids are digits and URLs hold no spaces, so a space-separated handle reads back unambiguously.
export const encodeProgress = (progress: Progress): string =>
  progress._tag === "Media"
    ? ["media", ...progress.mediaIds].join(" ")
    : ["replies", progress.root.id, progress.root.url, progress.parent, String(progress.next)].join(" ")

/** Undefined for a handle this adapter did not write. */
export const decodeProgress = (handle: string): Progress | undefined => {
  const [tag, ...rest] = handle.split(" ")
  if (tag === "media" && rest.length > 0 && rest.every((id) => id !== "")) return { _tag: "Media", mediaIds: rest }
  if (tag !== "replies" || rest.length !== 4) return undefined
  const [id, url, parent, next] = rest as [string, string, string, string]
  if (id === "" || url === "" || parent === "" || !/^\d+$/.test(next)) return undefined
  return { _tag: "Replies", root: { id, url }, parent, next: Number(next) }
}

/** Mastodon's ids are numbers as strings, longer ones later (snowflakes); compared without losing digits. */
export const compareIds = (a: string, b: string): number =>
  a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0

/**
 * An instance's address as Herald stores it (`https://mastodon.social`), and the host that makes an account
 * id unique across instances (`109…@mastodon.social`): ids are only unique on their own instance.
 */
export const hostOf = (address: string): string => new URL(address).host

/** The instance's own id of an account from Herald's `<id>@<host>`. */
export const localId = (networkAccountId: string): string => networkAccountId.split("@")[0] ?? networkAccountId
