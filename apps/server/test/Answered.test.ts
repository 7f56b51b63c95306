import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Exit, Option } from "effect"
import { ApiError } from "@herald/api"
import { ErrorShape, People, Posts, Team, Workspaces } from "@herald/core"
import { answered, answeredInOwn } from "../src/http/ErrorRendering.ts"

// Handlers list no tags: one combinator answers every domain error as ErrorShape renders it, and leaves the
// handler's own errors, and those a surface renders itself, as they are.

const failure = <E>(exit: Exit.Exit<unknown, E>) =>
  Exit.isFailure(exit) ? Option.getOrUndefined(Cause.findErrorOption(exit.cause)) : undefined

const classOf: Record<string, new(...args: ReadonlyArray<never>) => unknown> = {
  not_found: ApiError.NotFound,
  invalid: ApiError.Invalid,
  forbidden: ApiError.Forbidden,
  conflict: ApiError.Conflict
}

describe("answered", () => {
  it.effect("a domain error is the REST error of its code, with ErrorShape's message and details", () =>
    Effect.gen(function*() {
      const errors = [
        new Posts.PostNotFound({ postId: "pst_1" }),
        new Posts.PostInvalid({ problems: [{ field: "content", message: "content is too long" }] }),
        new Posts.PostForbidden({ message: "needs an owner" }),
        new Team.TeamConflict({ message: "the last owner stays" }),
        new Workspaces.WorkspaceInvalid({ problems: [{ field: "timeZone", message: "timeZone is not a time zone" }] })
      ]
      for (const error of errors) {
        const answer = failure(yield* Effect.exit(answered(Effect.fail(error))))
        const shape = ErrorShape.of(error)
        assert.instanceOf(answer, classOf[shape.code]!, error._tag)
        assert.deepStrictEqual({ message: answer?.message, details: answer?.details }, { message: shape.message, details: shape.details })
      }
    }))

  it.effect("other errors pass through unchanged, and a success is untouched", () =>
    Effect.gen(function*() {
      const own = new ApiError.Invalid({ message: "limit must be a number" })
      assert.strictEqual(failure(yield* Effect.exit(answered(Effect.fail(own)))), own)
      const tooMany = new People.TooManyAttempts({ retryAfterSeconds: 30 })
      assert.strictEqual(failure(yield* Effect.exit(answered(Effect.fail(tooMany)))), tooMany)
      assert.strictEqual(yield* answered(Effect.succeed(1)), 1)
    }))

  it.effect("in the caller's own workspace, its WorkspaceNotFound dies; elsewhere it is a 404", () =>
    Effect.gen(function*() {
      const missing = new Workspaces.WorkspaceNotFound({ workspaceId: "wks_1" })
      const own = yield* Effect.exit(answeredInOwn(Effect.fail(missing)))
      assert.isTrue(Exit.isFailure(own) && Cause.hasDies(own.cause))
      const admin = failure(yield* Effect.exit(answered(Effect.fail(missing))))
      assert.instanceOf(admin, ApiError.NotFound)
      assert.strictEqual(admin?.message, missing.message)
      const other = yield* Effect.exit(answeredInOwn(Effect.fail(new Posts.PostNotFound({ postId: "pst_1" }))))
      assert.instanceOf(failure(other), ApiError.NotFound)
    }))
})
