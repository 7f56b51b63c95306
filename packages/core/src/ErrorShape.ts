import type { ApiKeyNotFound } from "./ApiKeys.ts"
import type { AccountNotFound, ConnectionFailed, InvalidConnect, InvalidReturnTo } from "./Connections.ts"
import type { InboxNotFound, InboxSendFailed } from "./internal/inboxErrors.ts"
import type { MediaInvalid, MediaNotFound, MediaTooLarge } from "./Media.ts"
import type { UnknownNetwork } from "./Networks.ts"
import type { PersonInvalid } from "./People.ts"
import type { PostConflict, PostForbidden, PostInvalid, PostNotFound } from "./Posts.ts"
import type { QueueScheduleInvalid } from "./QueueSchedules.ts"
import type { ReviewInvalid, ReviewProfileNotFound } from "./Reviews.ts"
import type { InvalidSetting } from "./Settings.ts"
import type { InvitationNotFound, MemberNotFound, TeamConflict, TeamInvalid } from "./Team.ts"
import type { WebhookConflict as WebhookDeliveryConflict } from "./WebhookDelivery.ts"
import type { WebhookConflict, WebhookInvalid, WebhookNotFound } from "./Webhooks.ts"
import type { WorkspaceInvalid, WorkspaceNotFound } from "./Workspaces.ts"
import { reasonOf, type ServiceError } from "./ServiceError.ts"

// What a domain error says to a client, in the reference's error shape (`{ code, message, details? }` with
// its HTTP status), once for every surface: REST renders it as the answer, MCP as the tool error, the CLI
// as its failure line. An error that needs more than this (a header, a redirect) is rendered by its
// surface around the shape, not instead of it. The table below is also what marks an error as a domain error
// (`isDomainError`): each surface catches every error it lists with one combinator, never tag by tag
// (docs/decisions/0084-errors-once.md).

/**
 * The reference's error codes, plus `internal` for the unexpected and the storage's faults, `unavailable` (it cannot
 * be reached) and `insufficient_storage` (it is full): StorageFaults.ts, docs/decisions/0067-storage-faults.md
 * (the same list as `ApiError.codes`).
 */
export type Code =
  | "unauthorized"
  | "forbidden"
  | "invalid"
  | "not_found"
  | "conflict"
  | "too_large"
  | "rate_limited"
  | "internal"
  | "unavailable"
  | "insufficient_storage"

export const statusOf: { readonly [code in Code]: number } = {
  unauthorized: 401,
  forbidden: 403,
  invalid: 400,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
  insufficient_storage: 507
}

/** The domain errors clients see, each with the code it answers. */
export type DomainError =
  | PostInvalid
  | PostNotFound
  | PostConflict
  | PostForbidden
  | QueueScheduleInvalid
  | MediaInvalid
  | MediaTooLarge
  | MediaNotFound
  | WebhookInvalid
  | WebhookNotFound
  | WebhookConflict
  | WebhookDeliveryConflict
  | TeamInvalid
  | TeamConflict
  | MemberNotFound
  | InvitationNotFound
  | InboxNotFound
  | InboxSendFailed
  | WorkspaceNotFound
  | WorkspaceInvalid
  | ReviewInvalid
  | ReviewProfileNotFound
  | PersonInvalid
  | InvalidSetting
  | ApiKeyNotFound
  | AccountNotFound
  | UnknownNetwork
  | InvalidConnect
  | InvalidReturnTo
  | ConnectionFailed

export const byTag = {
  PostInvalid: "invalid",
  PostNotFound: "not_found",
  PostConflict: "conflict",
  PostForbidden: "forbidden",
  QueueScheduleInvalid: "invalid",
  MediaInvalid: "invalid",
  MediaTooLarge: "too_large",
  MediaNotFound: "not_found",
  WebhookInvalid: "invalid",
  WebhookNotFound: "not_found",
  WebhookConflict: "conflict",
  WebhookDeliveryConflict: "conflict",
  TeamInvalid: "invalid",
  TeamConflict: "conflict",
  MemberNotFound: "not_found",
  InvitationNotFound: "not_found",
  InboxNotFound: "not_found",
  // The network refused the reply: the request was fine, the state of the conversation was not.
  InboxSendFailed: "conflict",
  WorkspaceNotFound: "not_found",
  WorkspaceInvalid: "invalid",
  ReviewInvalid: "invalid",
  ReviewProfileNotFound: "not_found",
  PersonInvalid: "invalid",
  InvalidSetting: "invalid",
  ApiKeyNotFound: "not_found",
  AccountNotFound: "not_found",
  UnknownNetwork: "not_found",
  InvalidConnect: "invalid",
  InvalidReturnTo: "invalid",
  // The network refused the grant or the code: what the person sent (or consented to) cannot be used.
  ConnectionFailed: "invalid"
} as const satisfies { readonly [tag in DomainError["_tag"]]: Code }

/** What a surface answers: a domain error, or a service's error whose reason is one (decision 0088). */
export type Answerable = DomainError | ServiceError<string, DomainError>

/** The domain error an answerable error answers as: a service error's reason, or itself. */
export type ReasonOf<E> = E extends ServiceError<string, infer R> ? R : E

/**
 * An error channel once every domain error in it is answered: what is left (a service error keeps only its
 * reasons that are not domain errors, which its surface renders itself).
 */
export type Unanswered<E> = E extends ServiceError<infer Tag, infer R>
  ? [Exclude<R, DomainError>] extends [never] ? never : ServiceError<Tag, Exclude<R, DomainError>>
  : Exclude<E, DomainError>

/** The code a domain error answers, by its tag (a service error's by its reason's). */
export type CodeOf<E extends Answerable> = typeof byTag[Extract<ReasonOf<E>, DomainError>["_tag"]]

export interface Shape<C extends Code = Code> {
  readonly code: C
  readonly status: number
  readonly message: string
  readonly details?: unknown
}

/** The code of an error known by its tag alone (an error that crossed a process boundary); `undefined` if not a domain error's. */
export const codeOfTag = (tag: string): Code | undefined => Object.hasOwn(byTag, tag) ? byTag[tag as DomainError["_tag"]] : undefined

/**
 * Whether an error is one of the domain errors, known by its tag being in the table above: what every surface's
 * one combinator catches (REST's `answered`, MCP's and the CLI's), so that no handler lists tags.
 */
export const isDomainError = (error: unknown): error is Answerable => {
  const reason = reasonOf(error)
  return typeof reason === "object" && reason !== null && "_tag" in reason && typeof reason._tag === "string" &&
    Object.hasOwn(byTag, reason._tag)
}

/**
 * What a domain error answers (a service error, its reason): its code and status, its own message, and the
 * problems it lists as details.
 */
export const of = <E extends Answerable>(answerable: E): Shape<CodeOf<E>> => {
  const error = reasonOf(answerable) as DomainError
  const code = byTag[error._tag] as CodeOf<E>
  const details = "problems" in error
    ? error.problems
    : error._tag === "PersonInvalid" || error._tag === "InvalidConnect" ||
        (error._tag === "MediaInvalid" && error.field !== undefined)
    ? [{ field: error.field, message: error.message }]
    : error._tag === "InvalidReturnTo"
    ? [{ field: "returnTo", message: error.message }]
    : undefined
  return details === undefined
    ? { code, status: statusOf[code], message: error.message }
    : { code, status: statusOf[code], message: error.message, details }
}
