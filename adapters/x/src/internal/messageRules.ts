import { SimulatorRules } from "@herald/adapter-kit"
import { field, jsonObject, onlyFields, pattern, schema } from "./ruleChecks.ts"

/** X's rules on a direct message sent into a conversation. */

/** `POST /2/dm_conversations/{dm_conversation_id}/messages` over its JSON body. */
export const sendMessage = SimulatorRules.call<unknown>("POST /2/dm_conversations/{dm_conversation_id}/messages", [
  jsonObject("/2/dm_conversations/{dm_conversation_id}/messages"),
  {
    rule: "only text and attachments (CreateDirectMessagesByConversationIdRequest)",
    source: schema("CreateDirectMessagesByConversationIdRequest"),
    check: onlyFields("", ["attachments", "text"])
  },
  {
    rule: "at least one of text and attachments",
    source: schema("CreateDirectMessagesByConversationIdRequest"),
    check: (body) =>
      field(body, "text") === undefined && field(body, "attachments") === undefined
        ? "At least one of text, attachments is required."
        : undefined
  },
  {
    rule: "text a string of at least 1 character",
    source: `${schema("CreateDirectMessagesByConversationIdRequest")}/properties/text`,
    check: (body) => {
      const text = field(body, "text")
      return text === undefined || (typeof text === "string" && text.length >= 1) ? undefined : "text must be at least 1 character."
    }
  },
  {
    rule: "attachments an array of objects whose media_id is 1 to 19 digits",
    source: schema("CreateDirectMessagesByConversationIdAttachments"),
    check: (body) => {
      const attachments = field(body, "attachments")
      if (attachments === undefined) return undefined
      if (!Array.isArray(attachments)) return "attachments must be an array."
      return attachments
        .map((each) => onlyFields("attachments", ["media_id"])(each) ?? pattern("attachments.media_id", field(each, "media_id") ?? null))
        .find((message) => message !== undefined)
    }
  }
])
