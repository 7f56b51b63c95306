import { SimulatorState } from "@herald/adapter-kit"
import * as Html from "./html.ts"
import { localId } from "./request.ts"

/**
 * What the Mastodon simulator keeps beyond the kit's state, and how it answers in Mastodon's JSON
 * (https://docs.joinmastodon.org/entities/): accounts, statuses (the state's posts, comments and messages
 * alike), media attachments.
 */

/**
 * The kit's state, with account ids made unique across instances as Herald keeps them (`<id>@<host>`): the
 * API answers the instance's own id (the part before `@`) and the account's page on this host, from which
 * the adapter makes the same `<id>@<host>` back. The kit's suite and control routes know accounts by the
 * state's ids, so the two must be one.
 */
export class InstanceState extends SimulatorState.SimulatorState {
  private minting = false
  private readonly host: string

  constructor(network: string, host: string) {
    super(network)
    this.host = host
  }

  override id(): string {
    const id = super.id()
    return this.minting ? `${id}@${this.host}` : id
  }

  override consent(username: string | undefined): SimulatorState.SimulatedAccount {
    const existing = username === undefined ? undefined : this.accountByUsername(username)
    if (existing !== undefined) return existing
    this.minting = true
    const account = super.consent(username ?? `sandbox_${super.id()}`)
    this.minting = false
    return account
  }

  /** The account with this instance id (the part of its state id before `@`). */
  accountByLocalId(id: string): SimulatorState.SimulatedAccount | undefined {
    for (const account of this.accounts.values()) if (localId(account.id) === id) return account
    return undefined
  }
}

/** An instance's settings, changed by `POST /_control/instance`. */
export interface InstanceSettings {
  readonly maxCharacters: number
  readonly maxMedia: number
  readonly imageBytes: number
  readonly videoBytes: number
  readonly altCharacters: number
}

/** An uploaded media attachment; a video or audio is processed after its first check. */
export interface StoredMedia {
  readonly id: string
  readonly accountId: string
  readonly kind: "image" | "video" | "audio"
  readonly description: string | null
  readonly url: string
  readonly ready: boolean
  /** The status it is attached to, after one took it: Mastodon attaches a media to one status only. */
  readonly statusId?: string | undefined
}

/** Length as Mastodon counts it: every URL 23 characters, a mention of another instance's account its `@user` part. */
export const length = (text: string): number =>
  Array.from(
    text
      .replace(/https?:\/\/[^\s]+/g, "x".repeat(23))
      .replace(/(@[a-z0-9_]+)@[a-z0-9.-]+\.[a-z]{2,}/gi, "$1")
      .normalize("NFC")
  ).length

const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" })

/** Grapheme clusters, as Mastodon counts a content warning. */
export const graphemes = (text: string): number => Array.from(segmenter.segment(text)).length

export const makeViews = (state: InstanceState, baseUrl: string) => {
  const accountJson = (person: { readonly id: string; readonly username: string; readonly name?: string | null }) => ({
    id: localId(person.id),
    username: person.username,
    acct: person.username,
    display_name: person.name ?? "",
    avatar: `${baseUrl}/avatars/${localId(person.id)}.png`,
    url: `${baseUrl}/@${person.username}`
  })

  const ofAccount = (accountId: string) => {
    const account = state.accounts.get(accountId)
    return accountJson({ id: accountId, username: account?.username ?? accountId, name: account?.displayName ?? null })
  }

  const statusUri = (username: string, id: string) => `${baseUrl}/users/${username}/statuses/${id}`

  const mediaJson = (media: StoredMedia) => ({
    id: media.id,
    type: media.kind,
    url: media.ready ? media.url : null,
    preview_url: media.ready ? media.url : null,
    description: media.description
  })

  const ofPost = (post: SimulatorState.SimulatedPost, media: (id: string) => StoredMedia | undefined) => {
    const account = ofAccount(post.accountId)
    const details = post.details as {
      readonly visibility?: string
      readonly spoilerText?: string
      readonly sensitive?: boolean
      readonly language?: string | null
      readonly mediaIds?: ReadonlyArray<string>
    }
    return {
      id: post.id,
      uri: statusUri(account.username, post.id),
      url: post.url,
      content: Html.toHtml(post.text),
      spoiler_text: details.spoilerText ?? "",
      sensitive: details.sensitive ?? false,
      visibility: details.visibility ?? "public",
      language: details.language ?? null,
      in_reply_to_id: post.replyTo ?? null,
      created_at: new Date(post.createdAt).toISOString(),
      account,
      media_attachments: (details.mediaIds ?? []).flatMap((id) => {
        const found = media(id)
        return found === undefined ? [] : [mediaJson(found)]
      })
    }
  }

  const ofComment = (comment: SimulatorState.SimulatedComment) => ({
    id: comment.id,
    uri: statusUri(comment.author.username, comment.id),
    url: comment.permalink,
    content: Html.toHtml(comment.text),
    spoiler_text: "",
    sensitive: false,
    visibility: "public",
    language: null,
    in_reply_to_id: comment.replyTo ?? comment.postId,
    created_at: comment.createdAt,
    account: accountJson(comment.author),
    media_attachments: []
  })

  /** A direct message as a status; in a conversation, each answers the one before it (`above`). */
  const ofMessage = (message: SimulatorState.SimulatedMessage, above: string | null = null) => ({
    id: message.id,
    uri: statusUri(message.from.username, message.id),
    url: `${baseUrl}/@${message.from.username}/${message.id}`,
    content: Html.toHtml(message.text),
    spoiler_text: "",
    sensitive: false,
    visibility: "direct",
    language: null,
    in_reply_to_id: above,
    created_at: message.createdAt,
    account: accountJson(message.from),
    media_attachments: Array.from({ length: message.attachments }, (_, index) => ({
      id: `${message.id}${index}`,
      type: "image",
      url: `${baseUrl}/system/media_attachments/${message.id}${index}.jpg`,
      description: null
    }))
  })

  return { accountJson, ofAccount, mediaJson, ofPost, ofComment, ofMessage }
}
