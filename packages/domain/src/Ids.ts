import { Schema } from "effect"

// Ids are opaque strings with a readable prefix (product.md, "Ids, times, shapes").
const prefixed = (prefix: string) =>
  Schema.String.check(Schema.isPattern(new RegExp(`^${prefix}_[0-9A-Za-z]{16,40}$`), {
    message: `Expected an id starting with ${prefix}_`
  }))

export const WorkspaceId = prefixed("ws").pipe(Schema.brand("WorkspaceId"))
export type WorkspaceId = typeof WorkspaceId.Type

export const MemberId = prefixed("mem").pipe(Schema.brand("MemberId"))
export type MemberId = typeof MemberId.Type

export const InvitationId = prefixed("inv").pipe(Schema.brand("InvitationId"))
export type InvitationId = typeof InvitationId.Type

export const ReviewProfileId = prefixed("rvp").pipe(Schema.brand("ReviewProfileId"))
export type ReviewProfileId = typeof ReviewProfileId.Type

export const ApiKeyId = prefixed("key").pipe(Schema.brand("ApiKeyId"))
export type ApiKeyId = typeof ApiKeyId.Type

export const AccountId = prefixed("acc").pipe(Schema.brand("AccountId"))
export type AccountId = typeof AccountId.Type

export const PersonId = prefixed("per").pipe(Schema.brand("PersonId"))
export type PersonId = typeof PersonId.Type

export const SessionId = prefixed("ses").pipe(Schema.brand("SessionId"))
export type SessionId = typeof SessionId.Type

/** The prefix each kind of id carries. */
export const prefixes = {
  workspace: "ws",
  member: "mem",
  invitation: "inv",
  reviewProfile: "rvp",
  reviewLink: "rvl",
  apiKey: "key",
  account: "acc",
  webhookEndpoint: "whk",
  person: "per",
  session: "ses"
} as const

/**
 * A webhook endpoint id as a client may still send it: ids given out before the `whk_` prefix (`wh_…`) were
 * renamed by migration 0020 to `whk_` and the same rest, so an old id still names its endpoint (decision 0016).
 */
export const currentWebhookEndpointId = (id: string): string => id.startsWith("wh_") ? `whk_${id.slice(3)}` : id
