import { Effect, Schema } from "effect"
import { Envelope, PostsApi } from "@herald/api"
import { Posts } from "@herald/core"
import { define, domainFailures, postId, type ToolFailure } from "./Tool.ts"

/**
 * The tools that move a post along its way, each the twin of a REST call on `/api/v1/posts/:id`: retry,
 * submit for approval, approve, send back with a note. Each answers the post as `get_post` does.
 */

type PostError = Posts.PostsError

const answered = <A, R>(effect: Effect.Effect<A, PostError, R>): Effect.Effect<{ readonly data: A }, ToolFailure, R> =>
  effect.pipe(
    Effect.map((data) => ({ data })),
    domainFailures
  )

// Who may approve, said once for both review tools (product.md, "Team").
const reviewers = "Only an owner or admin may do this: a key acting for an editor is refused as forbidden, naming the role."

/** The tools, answering the post in `post`'s wire form (the installed networks' options). */
export const make = (post: PostsApi.Schemas["post"]) =>
  Effect.gen(function*() {
    const posts = yield* Posts.Posts
    const output = Envelope.Data(post)
    return [
      define({
        name: "retry_post",
        title: "Retry a failed post",
        description: "Publishes again, now, a post that failed on some or all of its accounts (status failed or partial): " +
          "only the failed targets are sent again; those already published are left alone. Any other post is refused as " +
          "conflict. Follow it with get_post: each target's status, link and error show how it went.",
        input: Schema.Struct({ id: postId }),
        output,
        run: (input, caller) => answered(posts.retry(caller.workspaceId, input.id))
      }),
      define({
        name: "submit_post",
        title: "Submit a post for approval",
        description: "Sends a draft that has a time (scheduledAt, or queued) to approval: it becomes awaiting_approval, and " +
          "an owner or admin approves it (approve_post) or sends it back with a note (request_changes). An editor's " +
          "scheduled posts go this way; a draft without a time, or a post that is not a draft, is refused.",
        input: Schema.Struct({ id: postId }),
        output,
        // Submitted once, a second call is refused as conflict and changes nothing.
        idempotent: true,
        run: (input, caller) => answered(posts.submit(caller.workspaceId, input.id, caller.actor))
      }),
      define({
        name: "approve_post",
        title: "Approve a post",
        description: "Approves a post awaiting approval: it is scheduled at its time, or goes out now if that time has " +
          `passed. An optional note reaches the author (post.approved). ${reviewers} A post not awaiting approval is ` +
          "refused as conflict.",
        input: Schema.Struct({ id: postId, ...PostsApi.Approve.fields }),
        output,
        idempotent: true,
        run: (input, caller) => answered(posts.approve(caller.workspaceId, input.id, caller.actor, input.note))
      }),
      define({
        name: "request_changes",
        title: "Send a post back with a note",
        description: "Sends a post awaiting approval back to draft, with a note saying what to change (required; " +
          `post.changes_requested carries it to the author). ${reviewers} A post not awaiting approval is refused ` +
          "as conflict.",
        input: Schema.Struct({ id: postId, ...PostsApi.RequestChanges.fields }),
        output,
        idempotent: true,
        run: (input, caller) => answered(posts.requestChanges(caller.workspaceId, input.id, caller.actor, input.note))
      })
    ]
  })
