import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Exit, Schema } from "effect"
import { SqlError } from "effect/sql"
import { ErrorShape, People, Posts, Reviews, ServiceError } from "../src/index.ts"

// One error per service (decision 0088): a service's boundary puts each of its reasons in its one error, lets
// the database's failure die, and passes other services' errors as they are; every surface answers the
// service error as its reason.

class OtherFailure extends Schema.TaggedError<OtherFailure>()("OtherFailure", { message: Schema.String }) {}

const methods = ServiceError.service(Posts.PostsError)({
  missing: (postId: string) => Effect.fail(new Posts.PostNotFound({ postId })),
  database: Effect.fail(new SqlError.SqlError({ reason: new SqlError.UnknownError({ cause: "down", message: "down" }) })),
  other: () => Effect.fail(new OtherFailure({ message: "elsewhere" })),
  fine: (n: number) => Effect.succeed(n + 1),
  plain: 3
})

describe("ServiceError", () => {
  it.effect("a reason comes in the service's error, with its message, and is handled by its tag", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(methods.missing("pst_1"))
      assert.instanceOf(error, Posts.PostsError)
      assert.strictEqual(error._tag, "PostsError")
      assert.strictEqual(error.reason._tag, "PostNotFound")
      assert.strictEqual(error.message, "Post pst_1 does not exist")
      const handled = yield* methods.missing("pst_2").pipe(
        Effect.catchReason("PostsError", "PostNotFound", (reason) => Effect.succeed(reason.postId))
      )
      assert.strictEqual(handled, "pst_2")
    }))

  it.effect("the database failing dies; another service's error passes as it is; the rest is untouched", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(methods.database)
      assert.isTrue(Exit.isFailure(exit) && Cause.hasDies(exit.cause))
      const other = yield* Effect.flip(methods.other())
      assert.instanceOf(other, OtherFailure)
      assert.strictEqual(yield* methods.fine(1), 2)
      assert.strictEqual(methods.plain, 3)
    }))

  it("a service error answers as its reason on every surface, and is a domain error exactly when its reason is", () => {
    const reason = new Posts.PostInvalid({ problems: [{ field: "content", message: "too long" }] })
    const error = new Posts.PostsError({ reason })
    assert.deepStrictEqual(ErrorShape.of(error), ErrorShape.of(reason))
    assert.isTrue(ErrorShape.isDomainError(error))
    assert.strictEqual(ServiceError.reasonOf(error), reason)
    const refused = new Reviews.ReviewsError({ reason: new Reviews.ReviewRefused({ message: "expired" }) })
    assert.isFalse(ErrorShape.isDomainError(refused), "ReviewRefused is rendered by the review page")
    // A reason of its own kind: PersonInvalid's `reason` is text, not a service error's.
    assert.isTrue(ErrorShape.isDomainError(new People.PersonInvalid({ field: "email", reason: "is not an address" })))
  })

  it("every reason of every service error is in ErrorShape's table or named as rendered by its surface", () => {
    const renderedElsewhere = new Set(["ReviewRefused"])
    for (const ErrorClass of [Posts.PostsError, Reviews.ReviewsError]) {
      for (const reason of ErrorClass.reasons) {
        assert.isTrue(
          ErrorShape.codeOfTag(reason.identifier) !== undefined || renderedElsewhere.has(reason.identifier),
          `${ErrorClass.tag}'s ${reason.identifier} has no code`
        )
      }
    }
  })
})
