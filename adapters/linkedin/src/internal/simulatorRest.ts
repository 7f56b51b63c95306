import { Simulator, SimulatorRules, type SimulatorState } from "@herald/adapter-kit"
import { Effect, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, type HttpServerResponse } from "effect/http"
import type * as LinkedInRules from "../LinkedInRules.ts"
import * as Request from "./request.ts"

// How the LinkedIn simulator (LinkedInSimulator.ts and its internal/simulator*.ts pieces) answers and reads:
// LinkedIn's error bodies, request bodies held to `LinkedInRules`, path parameters, and comments as the
// Comments API answers them.

/** LinkedIn's error body. */
export const failure = (status: number, message: string, fields: Record<string, unknown> = {}) =>
  Simulator.json({ status, message, ...fields }, status)

export const refuse = (check: SimulatorState.TokenCheck) =>
  check._tag === "Expired"
    ? failure(401, "The token used in the request has expired", { serviceErrorCode: 65602, code: "EXPIRED_ACCESS_TOKEN" })
    : check._tag === "Revoked"
    ? failure(401, "The token used in the request has been revoked by the user", {
      serviceErrorCode: 65601,
      code: "REVOKED_ACCESS_TOKEN"
    })
    : failure(401, "Invalid access token", { serviceErrorCode: 65600, code: "INVALID_ACCESS_TOKEN" })

/** LinkedIn's answer to a request that breaks one of its rules. */
export const broken = ({ message, rule: { answer } }: { readonly message: string; readonly rule: { readonly answer: LinkedInRules.Answer } }) =>
  failure(answer.status, message, {
    code: answer.code,
    ...(answer.serviceErrorCode === undefined ? {} : { serviceErrorCode: answer.serviceErrorCode })
  })

/**
 * The request's JSON body held to the rules of its call (`LinkedInRules`), then decoded with a schema for
 * the handler: the rules' refusal, or the body. The server bounds a body's size before this reads it.
 */
export const body = <A>(
  rules: LinkedInRules.Call<LinkedInRules.Body>,
  account: SimulatorState.SimulatedAccount,
  schema: Schema.Codec<A, unknown>
): Effect.Effect<{ readonly _tag: "Refused"; readonly response: HttpServerResponse.HttpServerResponse } | { readonly _tag: "Body"; readonly value: A }, never, HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.map(Effect.orElseSucceed(request.json, () => null), (json) => {
      const refused = SimulatorRules.refusal(rules, { body: json, member: Request.personUrn(account.id) })
      if (refused !== undefined) return { _tag: "Refused" as const, response: broken(refused) }
      return Option.match(Schema.decodeUnknownOption(schema)(json), {
        onNone: () => ({ _tag: "Refused" as const, response: invalid }),
        onSome: (value) => ({ _tag: "Body" as const, value })
      })
    }))

const decodeComponent = Option.liftThrowable(decodeURIComponent)

export const unprocessable = (message: string) => failure(422, message, { code: "UNPROCESSABLE_ENTITY" })
const invalid = unprocessable("ERROR :: the request body does not match the schema")

// What the handlers read of the bodies, once `LinkedInRules` has held them to LinkedIn's rules.
const Attached = Schema.Struct({ id: Schema.String, altText: Schema.optionalKey(Schema.String) })

export const PostRequest = Schema.Struct({
  author: Schema.String,
  commentary: Schema.String,
  visibility: Schema.String,
  content: Schema.optionalKey(Schema.Struct({
    media: Schema.optionalKey(Attached),
    multiImage: Schema.optionalKey(Schema.Struct({ images: Schema.Array(Attached) }))
  }))
})

export const CommentRequest = Schema.Struct({
  actor: Schema.String,
  object: Schema.String,
  message: Schema.Struct({ text: Schema.String }),
  parentComment: Schema.optionalKey(Schema.String)
})

/** LinkedIn's default page of comments, and the most one page holds. */
export const defaultCount = 10
export const maxCount = 100

/** A query number that must be a whole number of at least zero; undefined when it is not. */
export const wholeNumber = (value: string | undefined, fallback: number): number | undefined => {
  const number = value === undefined ? fallback : Number(value)
  return Number.isSafeInteger(number) && number >= 0 ? number : undefined
}

/**
 * A stored comment as the Comments API answers it: authors by URN, times in epoch milliseconds, the text
 * as written, the parent of a reply, and a first-level comment's count of replies.
 * https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/comments-api
 */
export const wireComment = (comment: SimulatorState.SimulatedComment, replies: number) => {
  const actor = Request.personUrn(comment.author.id)
  const stamp = { actor, time: Date.parse(comment.createdAt) }
  return {
    id: comment.id,
    commentUrn: Request.commentUrn(comment.postId, comment.id),
    actor,
    created: stamp,
    lastModified: stamp,
    object: comment.postId,
    message: { text: comment.text, attributes: [] },
    ...(comment.replyTo === null
      ? { commentsSummary: { aggregatedTotalComments: replies, totalFirstLevelComments: replies, selectedComments: [] } }
      : { parentComment: Request.commentUrn(comment.postId, comment.replyTo) }),
    likesSummary: { totalLikes: 0, likedByCurrentUser: false, aggregatedTotalLikes: 0, selectedLikes: [] }
  }
}

/** A path parameter, percent-decoded (URNs travel encoded). */
export const pathParam = (name: string) =>
  Effect.map(HttpRouter.params, (params) => {
    const value = params[name] ?? ""
    return Option.getOrElse(decodeComponent(value), () => value)
  })

export const forbidden = (what: string) =>
  failure(403, `Not enough permissions to access: ${what}`, { serviceErrorCode: 100, code: "ACCESS_DENIED" })
