import { SimulatorRules } from "@herald/adapter-kit"
import { Option, Schema } from "effect"
import { isPublicUrl } from "./internal/graphAnswers.ts"

/**
 * What Facebook refuses of the Page calls Herald makes, as the simulator holds it (issue 31): one rule per
 * line, each with where Meta states it, read 2026-12-03. Parameter names, types, enums and `required` come
 * from Meta's machine-readable Graph API specification, `api_specs/specs/*.json` of
 * facebook/facebook-business-sdk-codegen (its last commit, ad2b0b6f of 2026-04-15, the one read); what the
 * specification cannot say (lengths, which field a post needs) comes from the documentation pages named.
 * A broken rule is answered as Graph answers a bad parameter: HTTP 400, `type: "OAuthException"`, code 100
 * and a `(#100) ...` message unless the rule names its own code.
 *
 * What the simulator checks against its state (an attached photo that is not an unpublished photo of the
 * Page, a comment on a post of another Page, a message outside the 24-hour window) stays in the simulator.
 */

/** A form call as the simulator reads it: the query and the form fields together. */
export type Form = Readonly<Record<string, string>>

/** A rule with Graph's error for it, when that is not code 100 alone. */
export interface GraphRule<in Input> extends SimulatorRules.Rule<Input> {
  readonly error?: { readonly code: number; readonly error_subcode?: number }
}

const graphCall = <Input>(name: string, rules: ReadonlyArray<GraphRule<Input>>) => SimulatorRules.call<Input, GraphRule<Input>>(name, rules)
export type GraphCall<Input> = ReturnType<typeof graphCall<Input>>

const spec = (file: string, call: string, param: string) =>
  `facebook/facebook-business-sdk-codegen api_specs/specs/${file}.json #/apis[${call}]/params[${param}]`

/** Graph's booleans on the wire. */
const isBoolean = (value: string | undefined) => value === undefined || ["true", "false", "1", "0"].includes(value)

/**
 * The longest message of a Page post, in characters (Facebook's composer; networks.md §7.3). Stated here,
 * apart from the adapter's limits, so that the conformance suite compares the two.
 */
const maxMessageLength = 63_206
const postsPage = "https://developers.facebook.com/docs/pages-api/posts"

const longest = (field: string): GraphRule<Form> => ({
  rule: `\`${field}\` of at most ${maxMessageLength.toLocaleString("en")} characters`,
  source: postsPage,
  check: (form) =>
    [...(form[field] ?? "").normalize("NFC")].length > maxMessageLength
      ? `(#100) The message is longer than ${maxMessageLength} characters`
      : undefined
})

/** A Graph list parameter sent as a comma-separated string. */
const list = (value: string | undefined) => (value ?? "").split(",").map((item) => item.trim()).filter((item) => item !== "")

/** `POST /{page-id}/photos`: one photo by its address, published or not. */
export const photos = graphCall<Form>("POST /{page-id}/photos", [
  {
    rule: "a photo by `url`, an http(s) address Facebook can fetch",
    source: "https://developers.facebook.com/docs/graph-api/reference/page/photos/",
    check: (form) => isPublicUrl(form["url"]) ? undefined : "(#324) Missing or invalid image file",
    error: { code: 324 }
  },
  {
    rule: "`published` a boolean",
    source: spec("Page", "POST photos", "published"),
    check: (form) => isBoolean(form["published"]) ? undefined : "(#100) Param published must be a boolean"
  },
  longest("caption"),
  longest("message")
])

/** What `attached_media` must be: a JSON list of `{ "media_fbid": ... }`; none is an empty list. */
const AttachedMedia = Schema.fromJsonString(Schema.Array(Schema.Struct({ media_fbid: Schema.String })))
export const attachedMedia = (value: string | undefined) =>
  value === undefined ? Option.some([]) : Schema.decodeUnknownOption(AttachedMedia)(value)

/** `POST /{page-id}/feed`: a text post, or one that publishes photos uploaded unpublished. */
export const feed = graphCall<Form>("POST /{page-id}/feed", [
  {
    rule: "`attached_media` a JSON list of `{\"media_fbid\"}` objects",
    source: spec("Page", "POST feed", "attached_media"),
    check: (form) =>
      Option.isSome(attachedMedia(form["attached_media"]))
        ? undefined
        : "(#100) param attached_media must be an array of {\"media_fbid\"}"
  },
  {
    rule: "a `message` or attached media",
    source: "https://developers.facebook.com/docs/graph-api/reference/page/feed/#publish",
    check: (form) =>
      (form["message"] ?? "").trim() === "" && Option.getOrElse(attachedMedia(form["attached_media"]), () => []).length === 0
        ? "(#100) Missing message or attachment"
        : undefined
  },
  longest("message")
])

/** `POST /{page-id}/videos`: one video Facebook fetches from `file_url`. */
export const videos = graphCall<Form>("POST /{page-id}/videos", [
  {
    rule: "a video by `file_url`, an http(s) address Facebook can fetch",
    source: spec("Page", "POST videos", "file_url"),
    check: (form) => isPublicUrl(form["file_url"]) ? undefined : "(#351) There was a problem with your video file",
    error: { code: 351 }
  },
  longest("description")
])

/** `POST /{object-id}/comments`: the first comment on a post, or a reply to a comment. */
export const comments = graphCall<Form>("POST /{object-id}/comments", [
  {
    rule: "a `message`, unless an attachment (`attachment_id`, `attachment_url`, `attachment_share_url`) is given",
    source: "https://developers.facebook.com/docs/graph-api/reference/object/comments/#publish",
    check: (form) =>
      (form["message"] ?? "").trim() === "" &&
        ["attachment_id", "attachment_url", "attachment_share_url"].every((key) => (form[key] ?? "") === "")
        ? "(#100) Missing message or attachment"
        : undefined
  }
])

/** The values of `subscribed_fields` (enum_types.json, `pagesubscribed_apps_subscribed_fields_enum_param`). */
export const webhookFields: ReadonlySet<string> = new Set(
  `affiliation attire awards bio birthday business_integrity call_permission_reply call_settings_update calls
category checkins comment_poll_response company_overview conversations culinary_team current_location
description email feature_access_list feed follow founded general_info general_manager group_feed hometown
hours inbox_labels invalid_topic_placeholder invoice_access_bank_slip_events invoice_access_invoice_change
invoice_access_invoice_draft_change invoice_access_onboarding_status_active leadgen leadgen_fat leadgen_update
live_videos local_delivery location marketing_message_clicks marketing_message_deliveries
marketing_message_delivery_failed marketing_message_echoes marketing_message_reads
marketing_messages_subscriber_upload_status mcom_invoice_change members mention merchant_review
message_context message_deliveries message_echoes message_edits message_mention message_reactions
message_reads message_template_status_update messages messaging_account_linking messaging_appointments
messaging_checkout_updates messaging_customer_information messaging_direct_sends
messaging_fblogin_account_linking messaging_feedback messaging_game_plays messaging_handovers
messaging_in_thread_lead_form_submit messaging_integrity messaging_optins messaging_optouts messaging_payments
messaging_policy_enforcement messaging_postbacks messaging_pre_checkouts messaging_referrals mission name
page_about_story page_change_proposal page_upcoming_change parking payment_options payment_request_update
personal_info personal_interests phone picture price_range product_review products public_transit
publisher_subscriptions ratings registration response_feedback send_cart standby story_poll_response
story_share user_action video_text_question_responses videos website`.split(/\s+/)
)

/** `POST /{page-id}/subscribed_apps`: installs the app on the Page for these webhook fields. */
export const subscribedApps = graphCall<Form>("POST /{page-id}/subscribed_apps", [
  {
    rule: "`subscribed_fields`, required",
    source: spec("Page", "POST subscribed_apps", "subscribed_fields"),
    check: (form) => list(form["subscribed_fields"]).length === 0 ? "(#100) The parameter subscribed_fields is required" : undefined
  },
  {
    rule: "each of `subscribed_fields` a Page webhook field of the specification's enum",
    source: spec("Page", "POST subscribed_apps", "subscribed_fields"),
    check: (form) => {
      const fields = list(form["subscribed_fields"])
      const index = fields.findIndex((field) => !webhookFields.has(field))
      return index < 0
        ? undefined
        : `(#100) Param subscribed_fields[${index}] must be one of {${[...webhookFields].join(", ")}} - got "${fields[index]}"`
    }
  }
])

/** The Send API's body as the simulator reads it: parsed JSON, of any shape. */
export type SendBody = unknown

/** Whether a body has this shape; each rule reads only its own part of the body. */
const has = (schema: Schema.ConstraintDecoder<unknown>) => (body: unknown) => Option.isSome(Schema.decodeUnknownOption(schema)(body))
const hasRecipient = has(Schema.Struct({ recipient: Schema.Struct({ id: Schema.String }) }))
const hasText = has(Schema.Struct({ message: Schema.Struct({ text: Schema.String.check(Schema.isPattern(/\S/)) }) }))
const hasAttachment = has(Schema.Struct({ message: Schema.Struct({ attachment: Schema.Unknown }) }))
/** `messaging_type` of enum_types.json, `pagemessages_messaging_type_enum_param`. */
const messagingType = has(Schema.Struct({ messaging_type: Schema.optionalKey(Schema.Literals(["MESSAGE_TAG", "RESPONSE", "UPDATE", "UTILITY"])) }))

/** `POST /{page-id}/messages`: the Send API, a JSON body. */
export const messages = graphCall<SendBody>("POST /{page-id}/messages", [
  {
    rule: "a `recipient` object with the person's `id`, required",
    source: spec("Page", "POST messages", "recipient"),
    check: (body) => hasRecipient(body) ? undefined : "(#100) The parameter recipient is required"
  },
  {
    rule: "`messaging_type` one of MESSAGE_TAG, RESPONSE, UPDATE, UTILITY",
    source: spec("Page", "POST messages", "messaging_type"),
    check: (body) =>
      messagingType(body) ? undefined : "(#100) Param messaging_type must be one of {MESSAGE_TAG, RESPONSE, UPDATE, UTILITY}"
  },
  {
    rule: "a `message` with a non-empty `text` or an `attachment`",
    source: "https://developers.facebook.com/docs/messenger-platform/reference/send-api/#message",
    check: (body) => hasText(body) || hasAttachment(body) ? undefined : "(#100) Message cannot be empty"
  }
])

export const rules: SimulatorRules.Table = [photos, feed, videos, comments, subscribedApps, messages]
