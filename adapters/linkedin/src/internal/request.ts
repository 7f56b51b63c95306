import type { PostVersion } from "@herald/adapter-kit"
import * as LittleText from "./littleText.ts"

// Pure translation of a Herald post into the Posts API's request bodies.
// https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api

/** The URN LinkedIn knows a member by; `sub` of OpenID userinfo is the person id. */
export const personUrn = (personId: string): string => `urn:li:person:${personId}`

/** The person id in a person URN; undefined for another kind (an organization's). */
export const personIdOf = (urn: string): string | undefined => {
  const prefix = personUrn("")
  return urn.startsWith(prefix) ? urn.slice(prefix.length) : undefined
}

/** An uploaded image or video as a post names it, with its alt text when it has one. */
interface Attached {
  readonly id: string
  readonly altText?: string
}

/** What a post shows: one image or video (`media`), or several images (`multiImage`). */
export type Content =
  | { readonly media: Attached }
  | { readonly multiImage: { readonly images: ReadonlyArray<Attached> } }

export interface PostBody {
  readonly author: string
  readonly commentary: string
  readonly visibility: "PUBLIC"
  readonly distribution: {
    readonly feedDistribution: "MAIN_FEED"
    readonly targetEntities: ReadonlyArray<never>
    readonly thirdPartyDistributionChannels: ReadonlyArray<never>
  }
  readonly content?: Content
  readonly lifecycleState: "PUBLISHED"
  readonly isReshareDisabledByAuthor: false
}

/**
 * The `content` for uploaded media URNs (`urn:li:image:…` or `urn:li:video:…`): none for a text post,
 * `media` for one item, `multiImage` for two or more images (the API refuses a one-image multiImage).
 * `alts` are the items' alt texts in the same order, sent as `altText` where there is one.
 */
export const content = (mediaUrns: ReadonlyArray<string>, alts: ReadonlyArray<string | null> = []): Content | undefined => {
  const attached = mediaUrns.map((id, index): Attached => {
    const alt = alts[index]
    return alt === undefined || alt === null || alt.trim() === "" ? { id } : { id, altText: alt }
  })
  if (attached.length === 0) return undefined
  if (attached.length === 1) return { media: attached[0]! }
  return { multiImage: { images: attached } }
}

/** The `POST /rest/posts` body of a member's public post, its text escaped as little text. */
export const post = (input: {
  readonly personId: string
  readonly post: PostVersion.PostVersion
  readonly mediaUrns: ReadonlyArray<string>
}): PostBody => {
  const media = content(input.mediaUrns, input.post.media.map((item) => item.alt))
  return {
    author: personUrn(input.personId),
    commentary: LittleText.escape(input.post.text),
    visibility: "PUBLIC",
    distribution: { feedDistribution: "MAIN_FEED", targetEntities: [], thirdPartyDistributionChannels: [] },
    ...(media === undefined ? {} : { content: media }),
    lifecycleState: "PUBLISHED",
    isReshareDisabledByAuthor: false
  }
}

/**
 * The `POST /rest/socialActions/{post}/comments` body of a first comment. `message.text` is little text
 * too. https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/comments-api
 */
export const comment = (input: { readonly personId: string; readonly postUrn: string; readonly text: string }) => ({
  actor: personUrn(input.personId),
  object: input.postUrn,
  message: { text: LittleText.escape(input.text) }
})

/** The `initializeUpload` body for an image owned by the member. */
export const initializeImageUpload = (personId: string) => ({
  initializeUploadRequest: { owner: personUrn(personId) }
})

/** The `initializeUpload` body for a video: LinkedIn answers with the byte ranges to upload. */
export const initializeVideoUpload = (personId: string, fileSizeBytes: number) => ({
  initializeUploadRequest: {
    owner: personUrn(personId),
    fileSizeBytes,
    uploadCaptions: false,
    uploadThumbnail: false
  }
})

/** The `finalizeUpload` body: the ETags of the uploaded parts, in the order of the upload instructions. */
export const finalizeVideoUpload = (input: {
  readonly videoUrn: string
  readonly uploadToken: string
  readonly partEtags: ReadonlyArray<string>
}) => ({
  finalizeUploadRequest: { video: input.videoUrn, uploadToken: input.uploadToken, uploadedPartIds: input.partEtags }
})

/**
 * The body of a reply: `POST /rest/socialActions/{parent comment URN}/comments`, on the post (`object`) with
 * `parentComment`. https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/comments-api
 */
export const reply = (input: {
  readonly personId: string
  readonly postUrn: string
  readonly parentComment: string
  readonly text: string
}) => ({
  ...comment({ personId: input.personId, postUrn: input.postUrn, text: input.text }),
  parentComment: input.parentComment
})

/** The post's page on the website. The URN goes in unencoded, as LinkedIn's own share links have it. */
export const permalink = (webBaseUrl: string, postUrn: string): string => `${webBaseUrl}/feed/update/${postUrn}/`

/**
 * A comment's URN: the post (or its activity) and the comment's id, as in
 * `urn:li:comment:(urn:li:activity:123,456)`.
 */
export const commentUrn = (postUrn: string, commentId: string): string => `urn:li:comment:(${postUrn},${commentId})`

/** The post and the comment id of a comment URN; undefined for anything else. */
export const parseCommentUrn = (urn: string): { readonly postUrn: string; readonly commentId: string } | undefined => {
  const match = /^urn:li:comment:\((.+),([^,()]+)\)$/.exec(urn)
  return match === null ? undefined : { postUrn: match[1]!, commentId: match[2]! }
}

/** The post's page opened at one comment, as LinkedIn's own "copy link to comment" has it. */
export const commentPermalink = (webBaseUrl: string, postUrn: string, commentUrn: string): string =>
  `${permalink(webBaseUrl, postUrn)}?commentUrn=${encodeURIComponent(commentUrn)}`
