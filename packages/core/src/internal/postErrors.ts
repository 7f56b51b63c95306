import { Schema } from "effect"
import { Permissions, type Post, type Workspace } from "@herald/domain"
import * as ServiceError from "../ServiceError.ts"

// What the posts service refuses, and who acts on a post: shared by its parts (create, update, review).

/** The request breaks rules: every problem, as one message and as data. */
export class PostInvalid extends Schema.TaggedError<PostInvalid>()("PostInvalid", {
  problems: Schema.Array(Schema.Struct({ field: Schema.String, message: Schema.String, network: Schema.optionalKey(Schema.String) }))
}) {
  override get message() {
    return this.problems.map((problem) => problem.message).join("; ")
  }
}


export class PostNotFound extends Schema.TaggedError<PostNotFound>()("PostNotFound", { postId: Schema.String }) {
  override get message() {
    return `Post ${this.postId} does not exist`
  }
}

export class PostConflict extends Schema.TaggedError<PostConflict>()("PostConflict", { message: Schema.String }) {}

/** The key's member may not do this (an editor approving). */
export class PostForbidden extends Schema.TaggedError<PostForbidden>()("PostForbidden", { message: Schema.String }) {}

/** Why the posts service refuses. */
export type PostsReason = PostInvalid | PostNotFound | PostConflict | PostForbidden

/** The posts service's one error: `reason` says why (`Effect.catchReason("PostsError", "PostNotFound", ...)`). */
export class PostsError<R extends PostsReason = PostsReason>
  extends ServiceError.Class("PostsError", [PostInvalid, PostNotFound, PostConflict, PostForbidden])<R>
{}

/**
 * Who acts on a post: the member a key acts for and the member's role, both null for a workspace key (which
 * may do anything); or a person outside the workspace through a review link (`profileId`). An assistant
 * connected by OAuth acts as its member, marked `assistant` (decision 0048).
 */
export interface Actor {
  readonly memberId: string | null
  readonly role: Workspace.Role | null
  readonly profileId?: string | undefined
  /** Set for an OAuth-connected assistant: whether its member let it publish without approval. */
  readonly assistant?: { readonly publishesDirectly: boolean } | undefined
}

/** A workspace key: what the REST API's callers without a member, the MCP tools and the operator act as. */
export const workspaceActor: Actor = { memberId: null, role: null }

/** Who may approve and send back: owners, admins, workspace keys and review links. */
export const mayReview = (actor: Actor) => actor.profileId !== undefined || Permissions.can(actor.role, "approve")

/** Who they were, for the event: the member, or the review profile. */
export const actorData = (actor: Actor) => ({
  ...(actor.memberId === null ? {} : { memberId: actor.memberId }),
  ...(actor.profileId === undefined ? {} : { profileId: actor.profileId })
})

/** A caller narrower than the REST API: which statuses it may act on, and who it is (for the refusal's message). */
export interface Restriction {
  readonly statuses: ReadonlyArray<Post.PostStatus>
  readonly caller: string
}

export const refused = (postId: string, status: string, only: Restriction) =>
  new PostConflict({
    message: `Post ${postId} is ${status.replace("_", " ")}; ${only.caller} acts only on ${only.statuses.map((name) => name.replace("_", " ")).join(" or ")} posts`
  })

