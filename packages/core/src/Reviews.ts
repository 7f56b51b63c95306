import { Clock, Context, Duration, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type SqlError, SqlSchema } from "effect/sql"
import { EmailAddress, Ids as DomainIds, Permissions, Post, PostStatus, Workspace } from "@herald/domain"
import * as Ids from "./Ids.ts"
import { dieOnBadRow, Timestamp } from "./internal/rows.ts"
import { type Actor, mayReview } from "./internal/postErrors.ts"
import { PostConflict, PostForbidden, type PostNotFound, Posts, type PostsError } from "./Posts.ts"
import { PublicUrl } from "./PublicUrl.ts"
import * as ServiceError from "./ServiceError.ts"
import { type LinkRefused, SignedLinks } from "./SignedLinks.ts"

/**
 * Client review: review profiles (people outside the workspace) and signed, expiring review links that show
 * one post to one profile, who may approve it or ask for changes. The events then carry the `profileId`.
 * Only those who may approve make profiles and links, and a link approves only while its maker still may: a
 * link never does more than who made it (issue 28).
 */

export class ReviewInvalid extends Schema.TaggedError<ReviewInvalid>()("ReviewInvalid", {
  problems: Schema.Array(Schema.Struct({ field: Schema.String, message: Schema.String }))
}) {
  override get message() {
    return this.problems.map((problem) => problem.message).join("; ")
  }
}

/** A review link that cannot be used: the link itself, or what it points at. */
export class ReviewRefused extends Schema.TaggedError<ReviewRefused>()("ReviewRefused", { message: Schema.String }) {}

export class ReviewProfileNotFound extends Schema.TaggedError<ReviewProfileNotFound>()("ReviewProfileNotFound", {
  profileId: Schema.String
}) {
  override get message() {
    return `Review profile ${this.profileId} does not exist`
  }
}

/** Why client review refuses: its own reasons, and the post's state or the caller's role (a post's reasons). */
export type ReviewsReason = ReviewInvalid | ReviewRefused | ReviewProfileNotFound | PostConflict | PostForbidden

/** Client review's one error; what the posts service refuses comes as its `PostsError`. */
export class ReviewsError<R extends ReviewsReason = ReviewsReason> extends ServiceError.Class("ReviewsError", [
  ReviewInvalid,
  ReviewRefused,
  ReviewProfileNotFound,
  PostConflict,
  PostForbidden
])<R> {}

const purpose = "review"
/** A review link works this long unless asked otherwise (`expiresInHours`, 1 to 720). */
export const defaultLifetime = Duration.days(7)

/** A `review_profiles` row as `profileColumns` reads it, decoded rather than asserted (a row unlike it dies). */
const ProfileRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  email: Schema.NullOr(Schema.String),
  createdAt: Timestamp
})

const profileColumns = "id, name, email, created_at"

/** A review link's row: its post, who made it and their role now, and its profile (`ProfileRow`'s columns). */
const LinkRow = Schema.Struct({
  ...ProfileRow.fields,
  workspaceId: Schema.String,
  postId: Schema.String,
  createdByMember: Schema.NullOr(Schema.String),
  makerRole: Schema.NullOr(Workspace.Role)
})

const toProfile = (row: typeof ProfileRow.Type) =>
  new Post.ReviewProfile({ id: row.id, name: row.name, email: row.email, createdAt: row.createdAt })

/** What a review page shows. */
export interface Opened {
  readonly post: Post.Post
  readonly profile: Post.ReviewProfile
  readonly expiresAt: Date
}

export class Reviews extends Context.Service<Reviews, {
  createProfile(workspaceId: string, input: { readonly name: string; readonly email?: string | null | undefined }, actor: Actor): Effect.Effect<
    Post.ReviewProfile,
    ReviewsError<ReviewInvalid | PostForbidden>
  >
  profiles(workspaceId: string): Effect.Effect<ReadonlyArray<Post.ReviewProfile>>
  /** Deletes a profile and with it its review links, which then stop working. */
  deleteProfile(workspaceId: string, profileId: string, actor: Actor): Effect.Effect<
    void,
    ReviewsError<ReviewProfileNotFound | PostForbidden>
  >
  /** A link for one post awaiting approval and one profile. */
  createLink(workspaceId: string, postId: string, input: {
    readonly profileId: string
    readonly expiresInHours?: number | undefined
  }, actor: Actor): Effect.Effect<
    Post.ReviewLink,
    ReviewsError<ReviewInvalid | PostConflict | PostForbidden> | PostsError<PostNotFound>
  >
  open(token: string): Effect.Effect<Opened, ReviewsError<ReviewRefused>>
  /** The reviewer's answer: approve (optional note) or request changes (note required). */
  decide(token: string, decision: { readonly action: "approve" | "request-changes"; readonly note?: string | undefined }): Effect.Effect<
    Opened,
    ReviewsError<ReviewRefused | ReviewInvalid> | PostsError<PostNotFound | PostConflict | PostForbidden>
  >
}>()("@herald/core/Reviews") {
  static readonly layer = Layer.effect(
    Reviews,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const links = yield* SignedLinks
      const posts = yield* Posts
      const publicUrl = yield* PublicUrl
      const insertedProfile = SqlSchema.findOne({
        Request: Schema.Struct({ id: Schema.String, workspaceId: Schema.String, name: Schema.String, email: Schema.NullOr(Schema.String) }),
        Result: ProfileRow,
        execute: ({ email, id, name, workspaceId }) =>
          sql`
          INSERT INTO review_profiles (id, workspace_id, name, email)
          VALUES (${id}, ${workspaceId}, ${name}, ${email})
          RETURNING ${sql.literal(profileColumns)}`
      })
      const profilesOf = SqlSchema.findAll({
        Request: Schema.String,
        Result: ProfileRow,
        execute: (workspaceId) =>
          sql`
            SELECT ${sql.literal(profileColumns)} FROM review_profiles WHERE workspace_id = ${workspaceId} ORDER BY created_at, id`
      })
      const profileOf = SqlSchema.findOneOption({
        Request: Schema.Struct({ id: Schema.String, workspaceId: Schema.String }),
        Result: Schema.Struct({ id: Schema.String }),
        execute: ({ id, workspaceId }) => sql`
          SELECT id FROM review_profiles WHERE id = ${id} AND workspace_id = ${workspaceId}`
      })
      const linkOf = SqlSchema.findOneOption({
        Request: Schema.String,
        Result: LinkRow,
        execute: (id) =>
          sql`
          SELECT l.workspace_id, l.post_id, l.created_by_member, m.role AS maker_role, p.id, p.name, p.email, p.created_at
          FROM review_links l JOIN review_profiles p ON p.id = l.profile_id
          LEFT JOIN members m ON m.id = l.created_by_member AND m.workspace_id = l.workspace_id
          WHERE l.id = ${id}`
      })

      /** Profiles and links are for those who may approve (owners, admins, workspace keys). */
      const reviewer = (actor: Actor, what: string) =>
        mayReview({ ...actor, profileId: undefined }) && actor.assistant === undefined
          ? Effect.void
          : Effect.fail(new PostForbidden({
            message: `${what} are for those who may approve posts (owners, admins and workspace keys); ` +
              `the request acts for ${actor.assistant === undefined ? `a member whose role is ${actor.role}` : "an assistant"}`
          }))

      const createProfile = Effect.fn("Reviews.createProfile")(function*(
        workspaceId: string,
        input: { readonly name: string; readonly email?: string | null | undefined },
        actor: Actor
      ) {
        yield* reviewer(actor, "Review profiles")
        const name = input.name.trim()
        const email = input.email === undefined || input.email === null ? null : input.email.trim().toLowerCase()
        const problems: Array<{ field: string; message: string }> = []
        if (name.length === 0 || name.length > 200) problems.push({ field: "name", message: "name must be 1 to 200 characters" })
        const wrong = email === null ? undefined : EmailAddress.problem(email)
        if (wrong !== undefined) problems.push({ field: "email", message: `email ${EmailAddress.quoted(input.email!)} ${wrong}` })
        if (problems.length > 0) return yield* new ReviewInvalid({ problems })
        const id = yield* Ids.make(DomainIds.prefixes.reviewProfile)
        const row = yield* Effect.orDie(insertedProfile({ id, workspaceId, name, email }))
        return toProfile(row)
      })

      const profiles = (workspaceId: string) =>
        Effect.map(dieOnBadRow(profilesOf(workspaceId)), (rows) => rows.map(toProfile))

      const deleteProfile = Effect.fn("Reviews.deleteProfile")(function*(workspaceId: string, profileId: string, actor: Actor) {
        yield* reviewer(actor, "Review profiles")
        const rows = yield* sql`
          DELETE FROM review_profiles WHERE id = ${profileId} AND workspace_id = ${workspaceId} RETURNING id`
        if (rows.length === 0) return yield* new ReviewProfileNotFound({ profileId })
      })

      const createLink = Effect.fn("Reviews.createLink")(function*(workspaceId: string, postId: string, input: {
        readonly profileId: string
        readonly expiresInHours?: number | undefined
      }, actor: Actor) {
        yield* reviewer(actor, "Review links")
        const hours = input.expiresInHours
        if (hours !== undefined && !(Number.isInteger(hours) && hours >= 1 && hours <= 720)) {
          return yield* new ReviewInvalid({ problems: [{ field: "expiresInHours", message: "expiresInHours must be a whole number from 1 to 720" }] })
        }
        const post = yield* posts.get(workspaceId, postId)
        if (post.status !== PostStatus.awaiting_approval) {
          return yield* new PostConflict({
            message: `Post ${postId} is ${post.status.replace("_", " ")}; review links are for posts awaiting approval (submit it first)`
          })
        }
        const found = yield* dieOnBadRow(profileOf({ id: input.profileId, workspaceId }))
        if (Option.isNone(found)) {
          return yield* new ReviewInvalid({
            problems: [{ field: "profileId", message: `Review profile ${input.profileId} is not one of this workspace` }]
          })
        }
        const profile = found.value
        const now = yield* Clock.currentTimeMillis
        const expiresAt = new Date(now + (hours === undefined ? Duration.toMillis(defaultLifetime) : hours * 3_600_000))
        const id = yield* Ids.make(DomainIds.prefixes.reviewLink)
        yield* sql`
          INSERT INTO review_links (id, workspace_id, post_id, profile_id, expires_at, created_by_member)
          VALUES (${id}, ${workspaceId}, ${postId}, ${profile.id}, ${expiresAt}, ${actor.memberId})`
        return new Post.ReviewLink({
          url: `${publicUrl}/review/${links.sign(purpose, id, expiresAt)}`,
          postId,
          profileId: profile.id,
          expiresAt: expiresAt.toISOString()
        })
      })

      const resolve = Effect.fnUntraced(function*(token: string) {
        const link = yield* Effect.mapError(links.verify(purpose, token), (refused: LinkRefused) => new ReviewRefused({ message: refused.message }))
        const found = yield* dieOnBadRow(linkOf(link.id))
        if (Option.isNone(found)) return yield* new ReviewRefused({ message: "This review link no longer exists (its post or profile was deleted)" })
        const row = found.value
        // Made by a member: it works only while that member may still approve (a workspace key's has none).
        if (row.createdByMember !== null && !(row.makerRole !== null && Permissions.can(row.makerRole, "approve"))) {
          return yield* new ReviewRefused({ message: "Whoever made this review link may no longer approve posts: ask for a new link" })
        }
        return { row, expiresAt: link.expiresAt }
      })

      const open = Effect.fn("Reviews.open")(function*(token: string) {
        const { expiresAt, row } = yield* resolve(token)
        const post = yield* posts.get(row.workspaceId, row.postId).pipe(
          // Its one refusal is the post gone (PostNotFound).
          Effect.mapError(() => new ReviewRefused({ message: "This post no longer exists" }))
        )
        return { post, profile: toProfile(row), expiresAt }
      })

      const decide = Effect.fn("Reviews.decide")(function*(
        token: string,
        decision: { readonly action: "approve" | "request-changes"; readonly note?: string | undefined }
      ) {
        const { expiresAt, row } = yield* resolve(token)
        const note = decision.note?.trim() === "" ? undefined : decision.note?.trim()
        const actor = { memberId: null, role: null, profileId: row.id }
        const post = decision.action === "approve"
          ? yield* posts.approve(row.workspaceId, row.postId, actor, note)
          : note === undefined
          ? yield* new ReviewInvalid({ problems: [{ field: "note", message: "Say what to change: a note is needed to send a post back" }] })
          : yield* posts.requestChanges(row.workspaceId, row.postId, actor, note)
        return { post, profile: toProfile(row), expiresAt }
      })

      return Reviews.of(ServiceError.service(ReviewsError)({ createProfile, profiles, deleteProfile, createLink, open, decide }))
    })
  )
}
