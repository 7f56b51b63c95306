import { SimulatorRules } from "@herald/adapter-kit"

/**
 * What Threads refuses of the calls Herald makes, as the simulator holds it (issue 31): one rule per line,
 * each with the documentation page that states it, read 2026-12-03 (the posts page says "Updated: Apr 14,
 * 2026", text attachments "Jul 2, 2026", accessibility "Aug 21, 2024"). Meta publishes no machine-readable
 * specification of the Threads API: facebook/facebook-business-sdk-codegen's ThreadsUser.json lists no calls.
 * A broken rule is answered as Graph answers a bad parameter: HTTP 400, `type: "OAuthException"`, code 100,
 * with `error_user_msg` where Threads names the refusal (THREADS_API__LINK_LIMIT_EXCEEDED).
 *
 * What the simulator checks against its state (carousel items that are not finished items, a reply to a
 * post the account cannot answer, a container that is not ready) stays in the simulator.
 */

/** A form call as the simulator reads it: the query and the form fields together. */
export type Form = Readonly<Record<string, string>>

/** Graph's fields for a broken rule beyond its message. */
export interface GraphCode {
  readonly code: number
  readonly error_user_msg?: string
}

/** A rule with Graph's error for it, when that is not code 100 alone. */
export interface GraphRule<in Input> extends SimulatorRules.Rule<Input> {
  readonly error?: GraphCode
}

const graphCall = <Input>(name: string, rules: ReadonlyArray<GraphRule<Input>>) => SimulatorRules.call<Input, GraphRule<Input>>(name, rules)
export type GraphCall<Input> = ReturnType<typeof graphCall<Input>>

const postsPage = "https://developers.facebook.com/documentation/threads/posts"

/** Threads' length: characters, each emoji as its UTF-8 bytes. */
export const threadsLength = (text: string) =>
  Array.from(text.normalize("NFC")).reduce((length, character) =>
    length + (/\p{Extended_Pictographic}/u.test(character) ? Buffer.byteLength(character) : 1), 0)

/** The distinct URLs of a text, as Threads counts links. */
const links = (text: string) => new Set(text.match(/https?:\/\/\S+/g) ?? []).size

const isUrl = (value: string | undefined) => value !== undefined && /^https?:\/\/\S+$/.test(value)

export const maxTextLength = 500
export const maxLinks = 5
export const carouselItems = { min: 2, max: 20 } as const

const mediaTypes = ["TEXT", "IMAGE", "VIDEO", "CAROUSEL"] as const
export type MediaType = typeof mediaTypes[number]

/** A container's media type, undefined when it is missing or one Threads does not take. */
export const mediaTypeOf = (form: Form): MediaType | undefined =>
  mediaTypes.find((type) => type === form["media_type"])

/** A Graph list parameter sent as a comma-separated string. */
export const list = (value: string | undefined) => (value ?? "").split(",").map((item) => item.trim()).filter((item) => item !== "")

/** The media's address a media type needs: `image_url` for IMAGE, `video_url` for VIDEO. */
const mediaUrl = (mediaType: string, param: string): GraphRule<Form> => ({
  rule: `\`${param}\`, an http(s) URL, for \`media_type=${mediaType}\``,
  source: `${postsPage}#single-thread-posts`,
  check: (form) => form["media_type"] === mediaType && !isUrl(form[param]) ? `Param ${param} must be a URL.` : undefined
})

/** `POST /{threads-user-id}/threads`: a text, image, video, carousel item or carousel container. */
export const threads = graphCall<Form>("POST /{threads-user-id}/threads", [
  {
    rule: "`media_type`, required: TEXT, IMAGE, VIDEO or CAROUSEL",
    source: `${postsPage}#single-thread-posts`,
    check: (form) =>
      mediaTypeOf(form) !== undefined ? undefined : "Param media_type must be one of {TEXT, IMAGE, VIDEO, CAROUSEL}"
  },
  {
    rule: "`is_carousel_item` true or false",
    source: `${postsPage}#single-thread-posts`,
    check: (form) =>
      form["is_carousel_item"] === undefined || ["true", "false"].includes(form["is_carousel_item"])
        ? undefined
        : "Param is_carousel_item must be a boolean"
  },
  {
    rule: `\`text\` of at most ${maxTextLength} characters, an emoji counted as its UTF-8 bytes`,
    source: `${postsPage}#single-thread-posts`,
    check: (form) =>
      threadsLength(form["text"] ?? "") > maxTextLength ? `Param text must be at most ${maxTextLength} characters long.` : undefined
  },
  {
    rule: `at most ${maxLinks} distinct links in \`text\``,
    source: "https://developers.facebook.com/documentation/threads/create-posts/text-attachments",
    check: (form) => links(form["text"] ?? "") > maxLinks ? "The post has too many links." : undefined,
    error: { code: 100, error_user_msg: "THREADS_API__LINK_LIMIT_EXCEEDED" }
  },
  {
    rule: "`text`, required for `media_type=TEXT`",
    source: `${postsPage}#single-thread-posts`,
    check: (form) =>
      form["media_type"] === "TEXT" && (form["text"] ?? "").trim() === "" ? "Param text is required for TEXT posts." : undefined
  },
  mediaUrl("IMAGE", "image_url"),
  mediaUrl("VIDEO", "video_url"),
  {
    rule: "`alt_text` only on an image or a video (not on a text post or a carousel container)",
    source: "https://developers.facebook.com/documentation/threads/posts/accessibility",
    check: (form) =>
      form["alt_text"] !== undefined && form["media_type"] !== "IMAGE" && form["media_type"] !== "VIDEO"
        ? `Param alt_text is only supported for IMAGE and VIDEO containers, not ${form["media_type"]}.`
        : undefined
  },
  {
    rule: `a CAROUSEL's \`children\`: ${carouselItems.min} to ${carouselItems.max} container ids`,
    source: `${postsPage}#carousel-posts`,
    check: (form) => {
      const count = list(form["children"]).length
      return form["media_type"] === "CAROUSEL" && (count < carouselItems.min || count > carouselItems.max)
        ? `A carousel takes ${carouselItems.min} to ${carouselItems.max} items; it has ${count}.`
        : undefined
    }
  }
])

/** `POST /{threads-user-id}/threads_publish`: publishes a finished container. */
export const threadsPublish = graphCall<Form>("POST /{threads-user-id}/threads_publish", [
  {
    rule: "`creation_id`, required",
    source: `${postsPage}#single-thread-posts`,
    check: (form) => (form["creation_id"] ?? "") === "" ? "The parameter creation_id is required." : undefined
  }
])

export const rules: SimulatorRules.Table = [threads, threadsPublish]
