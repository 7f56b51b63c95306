import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Bounded, Post } from "@herald/domain"
import { ConflictResponse, ForbiddenResponse, InvalidResponse, NotFoundResponse } from "./ApiError.ts"
import { Data } from "./Envelope.ts"
import { Deleted } from "./PostsApi.ts"

/** `POST /api/v1/review-profiles`. */
export const CreateProfile = Schema.Struct({
  name: Bounded.Name.annotate({ description: "Who reviews: a person, a client, a team" }),
  email: Schema.optionalKey(Schema.NullOr(Bounded.Email).annotate({ description: "Where to reach them (optional)" }))
})

/** `POST /api/v1/posts/:id/review-links`. */
export const CreateLink = Schema.Struct({
  profileId: Bounded.Id.annotate({ description: "The review profile (rvp_…) the link is for" }),
  expiresInHours: Schema.optionalKey(Schema.Finite.annotate({ description: "How long the link works, 1 to 720 hours (168 by default)" }))
})

export class ReviewsApi extends HttpApiGroup.make("reviews").add(
  HttpApiEndpoint.post("createProfile", "/review-profiles", {
    payload: CreateProfile,
    success: Data(Post.ReviewProfile),
    error: [InvalidResponse, ForbiddenResponse]
  }).annotate(OpenApi.Summary, "Add a review profile: someone outside the workspace who reviews posts (owners, admins, workspace keys)"),
  HttpApiEndpoint.get("profiles", "/review-profiles", {
    success: Data(Schema.Array(Post.ReviewProfile))
  }).annotate(OpenApi.Summary, "The workspace's review profiles"),
  HttpApiEndpoint.delete("deleteProfile", "/review-profiles/:id", {
    params: { id: Bounded.Id },
    success: Data(Deleted),
    error: [NotFoundResponse, ForbiddenResponse]
  }).annotate(OpenApi.Summary, "Delete a review profile: its review links stop working (owners, admins, workspace keys)"),
  HttpApiEndpoint.post("createLink", "/posts/:id/review-links", {
    params: { id: Bounded.Id },
    payload: CreateLink,
    success: Data(Post.ReviewLink),
    error: [InvalidResponse, NotFoundResponse, ConflictResponse, ForbiddenResponse]
  }).annotate(
    OpenApi.Summary,
    "A signed, expiring link showing a post awaiting approval to one review profile (owners, admins, workspace keys; " +
      "it approves only while its maker may)"
  )
).annotateMerge(OpenApi.annotations({
  title: "Reviews",
  description: "Review profiles and signed review links, for people outside the workspace to approve a post without a key."
})) {}

const html = Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/html" }))

/** The review page a link opens: no key, the signed link is the proof. */
export class ReviewPagesApi extends HttpApiGroup.make("reviewPages", { topLevel: true }).add(
  HttpApiEndpoint.get("show", "/review/:token", {
    params: { token: Bounded.Secret },
    success: html,
    error: html.pipe(HttpApiSchema.status(400))
  }).annotate(OpenApi.Summary, "A post as each network will show it, with approve and request-changes forms"),
  HttpApiEndpoint.post("decide", "/review/:token", {
    params: { token: Bounded.Secret },
    payload: Schema.Struct({
      action: Schema.Literals(["approve", "request-changes"]),
      note: Schema.optionalKey(Bounded.Note)
    }).pipe(HttpApiSchema.asFormUrlEncoded()),
    success: html,
    error: html.pipe(HttpApiSchema.status(400))
  }).annotate(OpenApi.Summary, "The reviewer approves the post or sends it back with a note (events carry profileId)")
).annotateMerge(OpenApi.annotations({
  title: "Review Pages",
  description: "The review page a review link opens, and its form. No key: the signed link is the proof."
})) {}
