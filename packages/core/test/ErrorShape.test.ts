import { assert, describe, it } from "@effect/vitest"
import {
  ApiKeys,
  Connections,
  ErrorShape,
  Inbox,
  Media,
  Networks,
  People,
  Posts,
  QueueSchedules,
  Reviews,
  Settings,
  Team,
  WebhookDelivery,
  Webhooks,
  Workspaces
} from "../src/index.ts"

// The modules whose errors reach clients through the one mapping; every error class they export is in its table.
const modules = { ApiKeys, Connections, Inbox, Media, Networks, People, Posts, QueueSchedules, Reviews, Settings, Team, WebhookDelivery, Webhooks, Workspaces }

/** Errors of those modules that a surface renders itself, each for a reason the shape cannot carry. */
const renderedElsewhere: Record<string, string> = {
  WrongCredentials: "sign-in: one answer for a wrong e-mail or password, with a delay",
  TooManyAttempts: "sign-in: 429 with Retry-After",
  PersonNotFound: "sign-in: never told apart from a wrong password",
  ReviewRefused: "the review page: an HTML page, not JSON",
  InvitationRefused: "the invitation page: an HTML page, not JSON",
  MediaGone: "internal: a stored file missing under its row (a 500)",
  Unauthenticated: "the authorization middleware: 401 naming what was wrong with the credentials",
  MemberNotInWorkspace: "names the field the request used for the member (memberId when creating a key)"
}

const errorClasses = Object.entries(modules).flatMap(([module, exports]) =>
  Object.values(exports as Record<string, unknown>).flatMap((value) =>
    typeof value === "function" && value.prototype instanceof Error && typeof (value as { identifier?: unknown }).identifier === "string"
      ? [{ module, tag: (value as unknown as { identifier: string }).identifier }]
      : []
  )
)

const codes = ["unauthorized", "forbidden", "invalid", "not_found", "conflict", "too_large", "rate_limited", "internal"]

describe("ErrorShape", () => {
  it("every error class of the modules clients reach maps to a code, or is named as rendered by its surface", () => {
    assert.isAbove(errorClasses.length, 15)
    for (const { module, tag } of errorClasses) {
      const mapped = ErrorShape.codeOfTag(tag)
      assert.isTrue(mapped !== undefined || tag in renderedElsewhere, `${module}.${tag} has no code in ErrorShape.byTag`)
    }
    for (const [tag, code] of Object.entries(ErrorShape.byTag)) {
      assert.include(codes, code, tag)
      assert.isTrue(errorClasses.some((found) => found.tag === tag), `${tag} is mapped but no module exports it`)
    }
  })

  it("an error answers its code, the code's status, its own message and its problems as details", () => {
    const table: ReadonlyArray<[ErrorShape.DomainError, ErrorShape.Code, number]> = [
      [new Posts.PostNotFound({ postId: "pst_1" }), "not_found", 404],
      [new Posts.PostConflict({ message: "Post pst_1 is published" }), "conflict", 409],
      [new Posts.PostForbidden({ message: "needs an owner" }), "forbidden", 403],
      [new Media.MediaTooLarge({ kind: "image", limit: 10 }), "too_large", 413],
      [new Media.MediaInvalid({ message: "not a JPEG" }), "invalid", 400],
      [new Webhooks.WebhookNotFound({ endpointId: "whk_1" }), "not_found", 404],
      [new Inbox.InboxSendFailed({ message: "refused" }), "conflict", 409],
      [new Settings.InvalidSetting({ name: "PORT", value: "x", expected: "a port" }), "invalid", 400]
    ]
    for (const [error, code, status] of table) {
      const shape: ErrorShape.Shape = ErrorShape.of(error)
      assert.deepStrictEqual(shape, { code, status, message: error.message }, error._tag)
    }
    const problems = [{ field: "content", message: "too long" }]
    assert.deepStrictEqual(ErrorShape.of(new Posts.PostInvalid({ problems })), {
      code: "invalid",
      status: 400,
      message: new Posts.PostInvalid({ problems }).message,
      details: problems
    })
    const connect = new Connections.InvalidConnect({ field: "fields.password", message: "Wrong app password" })
    assert.deepStrictEqual(ErrorShape.of(connect), {
      code: "invalid",
      status: 400,
      message: "Wrong app password",
      details: [{ field: "fields.password", message: "Wrong app password" }]
    })
    assert.deepStrictEqual(ErrorShape.of(new Connections.InvalidReturnTo({ returnTo: "https://elsewhere" })).details, [
      { field: "returnTo", message: new Connections.InvalidReturnTo({ returnTo: "https://elsewhere" }).message }
    ])
    assert.strictEqual(ErrorShape.of(new Connections.AccountNotFound({ accountId: "acc_1" })).status, 404)
    const person = new People.PersonInvalid({ field: "email", reason: "is not an address" })
    assert.deepStrictEqual(ErrorShape.of(person).details, [{ field: "email", message: person.message }])
    const workspace = new Workspaces.WorkspaceInvalid({ problems: [{ field: "timeZone", message: "timeZone is not a time zone" }] })
    assert.deepStrictEqual(ErrorShape.of(workspace), {
      code: "invalid",
      status: 400,
      message: workspace.message,
      details: workspace.problems
    })
  })

  it("marks exactly the errors of its table as domain errors", () => {
    assert.isTrue(ErrorShape.isDomainError(new Posts.PostNotFound({ postId: "pst_1" })))
    assert.isTrue(ErrorShape.isDomainError(new Workspaces.WorkspaceNotFound({ workspaceId: "wks_1" })))
    assert.isFalse(ErrorShape.isDomainError(new People.TooManyAttempts({ retryAfterSeconds: 1 })))
    assert.isFalse(ErrorShape.isDomainError({ _tag: "toString" }))
    assert.isFalse(ErrorShape.isDomainError("PostNotFound"))
    assert.isFalse(ErrorShape.isDomainError(null))
  })

  it("a tag that is not a domain error's has no code", () => {
    assert.isUndefined(ErrorShape.codeOfTag("DataDirBusy"))
    assert.isUndefined(ErrorShape.codeOfTag("toString"))
    assert.strictEqual(ErrorShape.codeOfTag("PostConflict"), "conflict")
  })
})
