import { SimulatorRules } from "@herald/adapter-kit"
import { Option, Schema } from "effect"
import { isPublicUrl } from "./internal/graphAnswers.ts"

/**
 * What Instagram refuses of the calls Herald makes (Instagram API with Instagram Login, graph.instagram.com),
 * as the simulator holds it (issue 31): one rule per line, each with where Meta states it, read 2026-12-03.
 * Parameter names, types, enums and `required` come from Meta's machine-readable Graph API specification,
 * `api_specs/specs/*.json` of facebook/facebook-business-sdk-codegen (its last commit, ad2b0b6f of
 * 2026-04-15, the one read: IGUserForIGOnlyAPI.json, IGMediaForIGOnlyAPI.json, IGComment.json, and
 * enum_types.json for the enums); what the specification cannot say (caption length, carousel size, which
 * media type takes which parameter) comes from the documentation pages named. A broken rule is answered as
 * Graph answers a bad parameter: HTTP 400, `type: "OAuthException"`, code 100, with the publishing subcode
 * (2207xxx, https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/error-codes)
 * where Instagram gives one.
 *
 * What the simulator checks against its state (carousel children that are not finished items of the
 * account, an expired or unfinished container, a comment on a story, a message outside the 24-hour window)
 * stays in the simulator.
 */

/** A form call as the simulator reads it: the query and the form fields together. */
export type Form = Readonly<Record<string, string>>

/** Graph's fields for a broken rule beyond its message. */
export interface GraphCode {
  readonly code: number
  readonly error_subcode?: number
  readonly error_user_title?: string
  readonly error_user_msg?: string
}

/** A rule with Graph's error for it, when that is not code 100 alone. */
export interface GraphRule<in Input> extends SimulatorRules.Rule<Input> {
  readonly error?: GraphCode
}

const graphCall = <Input>(name: string, rules: ReadonlyArray<GraphRule<Input>>) => SimulatorRules.call<Input, GraphRule<Input>>(name, rules)
export type GraphCall<Input> = ReturnType<typeof graphCall<Input>>

const spec = (file: string, call: string, param: string) =>
  `facebook/facebook-business-sdk-codegen api_specs/specs/${file}.json #/apis[${call}]/params[${param}]`

const mediaPage = "https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media"
const publishingPage = "https://developers.facebook.com/docs/instagram-platform/content-publishing/"

/** Graph's booleans on the wire. */
const boolean = (file: string, call: string, param: string): GraphRule<Form> => ({
  rule: `\`${param}\` a boolean`,
  source: spec(file, call, param),
  check: (form) =>
    form[param] === undefined || ["true", "false", "1", "0"].includes(form[param]) ? undefined : `(#100) Param ${param} must be a boolean`
})

/** A Graph list parameter sent as a comma-separated string. */
export const list = (value: string | undefined) => (value ?? "").split(",").map((item) => item.trim()).filter((item) => item !== "")

const mediaTypes = ["IMAGE", "CAROUSEL", "REELS", "STORIES", "VIDEO"] as const
export type MediaType = typeof mediaTypes[number]
const isMediaType = (value: string): value is MediaType => (mediaTypes as ReadonlyArray<string>).includes(value)

/** A container's media type: IMAGE when none is given, undefined for one Instagram does not take. */
export const mediaTypeOf = (form: Form): MediaType | undefined => {
  const type = form["media_type"] ?? "IMAGE"
  return isMediaType(type) ? type : undefined
}

/** The address a container's media is fetched from, by media type. */
const mediaUrlOf = (form: Form): { readonly param: string; readonly url: string | undefined } | undefined => {
  switch (mediaTypeOf(form)) {
    case undefined:
    case "CAROUSEL":
      return undefined
    case "IMAGE":
      return { param: "image_url", url: form["image_url"] }
    case "REELS":
    case "VIDEO":
      return { param: "video_url", url: form["video_url"] }
    case "STORIES":
      return { param: "image_url or video_url", url: form["video_url"] ?? form["image_url"] }
  }
}

export const maxCaptionLength = 2_200
export const carouselItems = { min: 2, max: 10 } as const

/** `POST /{ig-user-id}/media`: a photo, reel, story, carousel item or carousel container. */
export const media = graphCall<Form>("POST /{ig-user-id}/media", [
  {
    rule: "`media_type` one of IMAGE (the default), CAROUSEL, REELS, STORIES, VIDEO",
    source: mediaPage,
    check: (form) => mediaTypeOf(form) === undefined ? `The media_type ${form["media_type"]} is not supported.` : undefined,
    error: { code: 100, error_subcode: 2207023 }
  },
  boolean("IGUserForIGOnlyAPI", "POST media", "is_carousel_item"),
  boolean("IGUserForIGOnlyAPI", "POST media", "share_to_feed"),
  {
    rule: "`media_type=VIDEO` only for a carousel item (`is_carousel_item=true`); a single video is a REELS",
    source: publishingPage,
    check: (form) =>
      mediaTypeOf(form) === "VIDEO" && form["is_carousel_item"] !== "true"
        ? "The VIDEO media type is only for carousel items; publish single videos as REELS."
        : undefined
  },
  {
    rule: "the media's address: `image_url` for IMAGE, `video_url` for REELS and VIDEO, either for STORIES",
    source: mediaPage,
    check: (form) => {
      const media = mediaUrlOf(form)
      return media === undefined || media.url !== undefined ? undefined : `The parameter ${media.param} is required.`
    }
  },
  {
    rule: "the media's address an http(s) URL Instagram can fetch",
    source: publishingPage,
    check: (form) => {
      const media = mediaUrlOf(form)
      return media === undefined || media.url === undefined || isPublicUrl(media.url)
        ? undefined
        : "Media download has failed. The media URI doesn't meet our requirements."
    },
    error: {
      code: 9004,
      error_subcode: 2207052,
      error_user_title: "Media download failed",
      error_user_msg: "The media could not be fetched from the URI. Make sure it is public."
    }
  },
  {
    rule: `\`caption\` of at most ${maxCaptionLength.toLocaleString("en")} characters`,
    source: mediaPage,
    check: (form) =>
      [...(form["caption"] ?? "")].length > maxCaptionLength
        ? `The caption is too long. Captions are limited to ${maxCaptionLength.toLocaleString("en")} characters.`
        : undefined,
    error: { code: 100, error_subcode: 2207010 }
  },
  {
    rule: "`alt_text` only on an image (not on reels, stories or a carousel container)",
    source: mediaPage,
    check: (form) =>
      form["alt_text"] !== undefined && mediaTypeOf(form) !== "IMAGE"
        ? `The parameter alt_text is only supported for images, not ${form["media_type"]}.`
        : undefined
  },
  {
    rule: `a CAROUSEL's \`children\`: ${carouselItems.min} to ${carouselItems.max} container ids`,
    source: mediaPage,
    check: (form) => {
      const count = list(form["children"]).length
      return mediaTypeOf(form) === "CAROUSEL" && (count < carouselItems.min || count > carouselItems.max)
        ? `The carousel needs ${carouselItems.min} to ${carouselItems.max} items; it has ${count}.`
        : undefined
    },
    error: { code: 100, error_subcode: 2207028 }
  }
])

/** `POST /{ig-user-id}/media_publish`: publishes a finished container. */
export const mediaPublish = graphCall<Form>("POST /{ig-user-id}/media_publish", [
  {
    rule: "`creation_id`, required",
    source: spec("IGUserForIGOnlyAPI", "POST mediapublish", "creation_id"),
    check: (form) => (form["creation_id"] ?? "") === "" ? "(#100) The parameter creation_id is required." : undefined
  },
  {
    rule: "`creation_id` an unsigned integer (a container id)",
    source: spec("IGUserForIGOnlyAPI", "POST mediapublish", "creation_id"),
    check: (form) =>
      (form["creation_id"] ?? "") === "" || /^\d+$/.test(form["creation_id"]!)
        ? undefined
        : "(#100) Param creation_id must be a valid unsigned integer"
  }
])

const message = (source: string): GraphRule<Form> => ({
  rule: "a non-empty `message`",
  source,
  check: (form) => (form["message"] ?? "").trim() === "" ? "The parameter message is required." : undefined
})

/** `POST /{ig-media-id}/comments`: the first comment on a media. */
export const comments = graphCall<Form>("POST /{ig-media-id}/comments", [
  message("https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-media/comments")
])

/** `POST /{ig-comment-id}/replies`: a reply to a comment. */
export const replies = graphCall<Form>("POST /{ig-comment-id}/replies", [
  message("https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-comment/replies")
])

/** The values of `subscribed_fields` (enum_types.json, `iggraphusersubscribed_apps_subscribed_fields_enum_param`). */
export const webhookFields: ReadonlySet<string> = new Set(
  `comment_poll_response comments creator_marketplace_invited_creator_onboarding creator_marketplace_projects
delta follow live_comments mentions message_edit message_reactions messages messaging_handover messaging_optins
messaging_postbacks messaging_referral messaging_seen onboarding_welcome_message_series share_to_story standby
story_insights story_poll_response story_reactions`.split(/\s+/)
)

/** `POST /me/subscribed_apps`: turns on the app's webhook notifications of these fields for the account. */
export const subscribedApps = graphCall<Form>("POST /{ig-user-id}/subscribed_apps", [
  {
    rule: "`subscribed_fields`, required",
    source: spec("IGUserForIGOnlyAPI", "POST subscribed_apps", "subscribed_fields"),
    check: (form) => list(form["subscribed_fields"]).length === 0 ? "The parameter subscribed_fields is required." : undefined
  },
  {
    rule: "each of `subscribed_fields` an Instagram webhook field of the specification's enum",
    source: spec("IGUserForIGOnlyAPI", "POST subscribed_apps", "subscribed_fields"),
    check: (form) => {
      const unknown = list(form["subscribed_fields"]).find((field) => !webhookFields.has(field))
      return unknown === undefined
        ? undefined
        : `(#100) Param subscribed_fields must be one of {${[...webhookFields].join(", ")}} - got "${unknown}".`
    }
  }
])

/** Whether a body has this shape; each rule reads only its own part of the body. */
const has = (schema: Schema.ConstraintDecoder<unknown>) => (body: unknown) => Option.isSome(Schema.decodeUnknownOption(schema)(body))
const hasRecipient = has(Schema.Struct({ recipient: Schema.Struct({ id: Schema.String }) }))
const hasText = has(Schema.Struct({ message: Schema.Struct({ text: Schema.String.check(Schema.isPattern(/\S/)) }) }))
const hasAttachment = has(Schema.Struct({ message: Schema.Struct({ attachment: Schema.Unknown }) }))
/** `messaging_type` of enum_types.json, `iggraphusermessages_messaging_type_enum_param`. */
const messagingType = has(Schema.Struct({ messaging_type: Schema.optionalKey(Schema.Literals(["MESSAGE_TAG", "RESPONSE", "UPDATE", "UTILITY"])) }))

const messagingPage = "https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/messaging-api"

/** `POST /me/messages`: a text to a person, a JSON body (parsed, of any shape). */
export const messages = graphCall<unknown>("POST /{ig-user-id}/messages", [
  {
    rule: "a `recipient` object with the person's `id`",
    source: messagingPage,
    check: (body) => hasRecipient(body) ? undefined : "The parameters recipient and message are required."
  },
  {
    rule: "`messaging_type` one of MESSAGE_TAG, RESPONSE, UPDATE, UTILITY",
    source: spec("IGUserForIGOnlyAPI", "POST messages", "messaging_type"),
    check: (body) =>
      messagingType(body) ? undefined : "(#100) Param messaging_type must be one of {MESSAGE_TAG, RESPONSE, UPDATE, UTILITY}"
  },
  {
    rule: "a `message` with a non-empty `text` or an `attachment`",
    source: messagingPage,
    check: (body) => hasText(body) || hasAttachment(body) ? undefined : "The parameter message is required."
  }
])

export const rules: SimulatorRules.Table = [media, mediaPublish, comments, replies, subscribedApps, messages]
