import { Simulator, SimulatorMedia, SimulatorRules, SimulatorState } from "@herald/adapter-kit"
import { Effect } from "effect"
import * as ThreadsRules from "../ThreadsRules.ts"

// How the Threads simulator (ThreadsSimulator.ts and its internal/simulator*.ts pieces) answers: Graph errors,
// the containers it keeps, what it makes of a video, and Graph's fields, times and paging cursors.

export const graphError = (
  status: number,
  message: string,
  code: number,
  extra: { readonly error_subcode?: number; readonly is_transient?: boolean; readonly error_user_msg?: string } = {}
) => Simulator.json({ error: { message, type: "OAuthException", code, ...extra, fbtrace_id: "AsandboxTrace" } }, status)

export const invalidParameter = (message: string) => graphError(400, message, 100)
const expired = () =>
  graphError(400, "Error validating access token: Session has expired.", 190, { error_subcode: 463 })
export const revoked = () =>
  graphError(400, "Error validating access token: The user has not authorized application.", 190, { error_subcode: 458 })
const unknownToken = () => graphError(400, "Invalid OAuth access token - Cannot parse access token", 190)
/** Threads' refusal of content (subcode 2207051), saying why the sandbox refused it. */
export const restricted = (text: string) =>
  graphError(400, "Action is restricted", 100, {
    error_subcode: 2207051,
    error_user_msg: SimulatorState.refusal(text)
  })
export const unavailable = () =>
  graphError(503, "An unexpected error has occurred. Please retry your request later.", 2, { is_transient: true })

/** What the wire shape of a reply is made from, for a comment and for a reply the account published. */
export interface WireReply {
  readonly id: string
  readonly text: string
  readonly username: string
  readonly ownedByMe: boolean
  readonly permalink: string | null
  /** Epoch milliseconds or ISO 8601. */
  readonly at: number | string
}

export interface Container {
  readonly id: string
  readonly accountId: string
  readonly mediaType: ThreadsRules.MediaType
  readonly text: string
  readonly media: ReadonlyArray<string>
  /** Each image's or video's `alt_text` (null without), in order; a carousel gathers its items'. */
  readonly altTexts: ReadonlyArray<string | null>
  readonly carouselItem: boolean
  readonly replyTo: string | undefined
  status: "IN_PROGRESS" | "FINISHED" | "PUBLISHED" | "ERROR"
  /** Status reads left before the container is ready, as Threads fetches and transcodes media. */
  readsLeft: number
  /** Why Threads will not prepare the media, once it has looked (`error_message`); undefined when it will. */
  readonly failure: string | undefined
}

/**
 * The longest video Threads takes: 5 minutes ("Video specifications",
 * https://developers.facebook.com/documentation/threads/posts, read 2026-12-03), stated here apart from the
 * adapter's limits. A longer one ends its container `ERROR` with `INVALID_DURATION`, one of the error
 * messages https://developers.facebook.com/docs/threads/troubleshooting lists.
 */
const maxVideoDurationMs = 5 * 60 * 1000

/**
 * What Threads makes of a video it fetched: undefined when it can prepare it (or cannot tell its length). The
 * sandbox fetches only from its own server's origin (Herald's media): any other address a caller names would
 * make the server fetch it, so its length stays unknown.
 */
export const videoFailure = (url: string, origin: string) =>
  !URL.canParse(url) || new URL(url).origin !== origin ? Effect.succeed(undefined) : Effect.map(SimulatorMedia.fetchInspect(url), (video) =>
    video.durationMs !== undefined && video.durationMs > maxVideoDurationMs ? "INVALID_DURATION" : undefined)

/** Graph's answer to the first rule of `call` the request breaks (ThreadsRules); undefined when it keeps all. */
export const broken = <Input>(call: ThreadsRules.GraphCall<Input>, input: Input) => {
  const refused = SimulatorRules.refusal(call, input)
  if (refused === undefined) return undefined
  const { code, ...extra } = { code: 100, ...refused.rule.error }
  return graphError(400, refused.message, code, extra)
}

/** Threads' timestamps: ISO 8601 to the second with a `+0000` offset. */
export const threadsTime = (at: number | string) => `${new Date(at).toISOString().slice(0, 19)}+0000`

/** Ids are made in order with the same length (`state.id()`): the later one is the newer. */
export const newestFirst = (a: { readonly id: string }, b: { readonly id: string }) =>
  b.id.length - a.id.length || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0)

/** Graph paging cursors are opaque; here they are the offset into the listing. */
export const pageCursor = (offset: number) => Buffer.from(`offset:${offset}`).toString("base64url")
export const pageOffset = (cursor: string | undefined) => {
  const match = /^offset:(\d+)$/.exec(Buffer.from(cursor ?? "", "base64url").toString("utf8"))
  return match === null ? 0 : Number(match[1])
}

/** A token that does not work, answered as Graph tells expired from revoked and unknown. */
export const refuse = (check: SimulatorState.TokenCheck) =>
  check._tag === "Expired" ? expired() : check._tag === "Revoked" ? revoked() : unknownToken()

/** Only the requested fields, as the Graph API answers. */
export const pick = (object: Record<string, unknown>, fields: string | undefined) =>
  fields === undefined
    ? { id: object["id"] }
    : Object.fromEntries(fields.split(",").flatMap((field) => (field in object ? [[field, object[field]]] : [])))

export const shortcode = (id: string) => Buffer.from(id).toString("base64url").slice(-11)

export const unsupported = (id: string | undefined) =>
  graphError(400, `Unsupported get request. Object with ID '${id}' does not exist.`, 100, { error_subcode: 33 })
