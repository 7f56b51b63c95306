import type { Effect } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import type { Post } from "@herald/domain"
import type { PostShape } from "../PostShape.ts"
import type { Scheduler } from "../Scheduler.ts"
import type { makeCheck } from "./postCheck.ts"
import type { Actor, PostNotFound } from "./postErrors.ts"
import type { Seats } from "./queueSeats.ts"

/** What the posts service's parts (create, update, review) share, made once by its layer. */
export interface PostsContext {
  readonly sql: SqlClient.SqlClient
  readonly baseUrl: string
  readonly scheduler: Scheduler["Service"]
  readonly shape: PostShape
  /** Every rule of a post request (postCheck.ts). */
  readonly check: ReturnType<typeof makeCheck>
  readonly seats: Seats
  /** The post as clients read it, from its rows. */
  readonly one: (workspaceId: string, postId: string) => Effect.Effect<Post.Post, PostNotFound | SqlError.SqlError>
  /**
   * Whether this actor's scheduling waits for approval: an editor, in a workspace that requires it; an
   * assistant its member did not let publish directly, in a workspace that holds assistants' posts.
   */
  readonly needsApproval: (workspaceId: string, actor: Actor | undefined) => Effect.Effect<boolean, SqlError.SqlError>
}
