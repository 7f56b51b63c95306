import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Bounded, Ids, Workspace } from "@herald/domain"
import { ForbiddenResponse, InvalidResponse, NotFoundResponse } from "./ApiError.ts"
import { Data } from "./Envelope.ts"

/** The member a key acts for, with the role the key therefore has. */
export class KeyMember extends Schema.Class<KeyMember>("KeyMember")({
  id: Ids.MemberId,
  email: Schema.String,
  role: Workspace.Role
}) {}

/** A key as listed: never the key itself, only its ends. */
export class Key extends Schema.Class<Key>("Key")({
  id: Ids.ApiKeyId,
  name: Schema.String,
  prefix: Schema.String.annotate({ description: "How every Herald key starts (`hrld_`)" }),
  lastFour: Schema.String.annotate({ description: "The key's last four characters, to tell keys apart" }),
  member: Schema.NullOr(KeyMember).annotate({
    description: "The member the key acts for, with that member's role; null for a workspace key, which may do anything"
  }),
  createdAt: Schema.String,
  lastUsedAt: Schema.NullOr(Schema.String),
  revokedAt: Schema.NullOr(Schema.String)
}) {}

/** The answer to creating a key: the only time the key is shown. */
export class CreatedKey extends Schema.Class<CreatedKey>("CreatedKey")({
  ...Key.fields,
  key: Schema.String.annotate({ description: "The key, shown this once: Herald keeps only its hash" })
}) {}

/** `POST /api/v1/keys`. */
export const CreateKey = Schema.Struct({
  name: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)).annotate({
    description: "What the key is for, to recognise it in the list"
  }),
  memberId: Schema.optionalKey(Bounded.Id.annotate({
    description: "The member (mem_…) the key acts for, with that member's role; absent for a workspace key"
  }))
})

export class KeysApi extends HttpApiGroup.make("keys").add(
  HttpApiEndpoint.get("list", "/keys", {
    success: Data(Schema.Array(Key)),
    error: ForbiddenResponse
  }).annotate(OpenApi.Summary, "The workspace's keys, revoked ones included (owners, admins and workspace keys)"),
  HttpApiEndpoint.post("create", "/keys", {
    payload: CreateKey,
    success: Data(CreatedKey).pipe(HttpApiSchema.status(201)),
    error: [InvalidResponse, ForbiddenResponse]
  }).annotate(
    OpenApi.Summary,
    "Create a key acting for a member (or for the workspace); the answer is the only time the key is shown"
  ),
  HttpApiEndpoint.post("revoke", "/keys/:id/revoke", {
    params: { id: Bounded.Id },
    success: Data(Key),
    error: [NotFoundResponse, ForbiddenResponse]
  }).annotate(OpenApi.Summary, "Revoke a key: refused at once by every process; it stays listed as revoked")
).annotateMerge(OpenApi.annotations({
  title: "API Keys",
  description: "The workspace's API keys, managed by owners, admins and workspace keys. A key acts for a member " +
    "(with that member's role) or for the whole workspace; nobody makes a key with more power than their own."
})) {}
