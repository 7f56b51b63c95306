import { type Adapter, Simulator, SimulatorRules, type SimulatorState } from "@herald/adapter-kit"
import { Effect, Option, Result, Schema } from "effect"
import { HttpServerRequest, type HttpServerResponse } from "effect/http"
import * as XRules from "../XRules.ts"
import { isNewer } from "./inbox.ts"

// What X's simulator answers with and reads (XSimulator.ts and its internal/simulator*.ts pieces): problem
// bodies, the request schemas, X's paged listings, and the uploads it keeps.

export const problem = (status: number, title: string, detail: string, kind = "about:blank") =>
  Simulator.json({
    title,
    detail,
    type: kind === "about:blank" ? kind : `https://api.x.com/2/problems/${kind}`,
    status
  }, status)

/** X answers 401 alike for unknown, expired and revoked tokens. */
export const unauthorized = () => problem(401, "Unauthorized", "Unauthorized")
export const duplicate = () => problem(403, "Forbidden", "You are not allowed to create a Tweet with duplicate content.")
export const unavailable = () => problem(503, "Service Unavailable", "Service Unavailable")
export const invalid = (detail: string) => problem(400, "Invalid Request", detail, "invalid-request")

/**
 * The request's first broken rule of `call` (XRules) as X answers it: an invalid-request problem, or 403
 * for text over X's weighted length; undefined when it keeps them all.
 */
export const refused = <Input>(call: SimulatorRules.Call<Input>, input: Input) => {
  const broken = SimulatorRules.refusal(call, input)
  if (broken === undefined) return undefined
  return broken.rule === XRules.tooLong ? problem(403, "Forbidden", broken.message) : invalid(broken.message)
}

export const TweetRequest = Schema.Struct({
  text: Schema.optional(Schema.String),
  media: Schema.optional(Schema.Struct({ media_ids: Schema.Array(Schema.String) })),
  reply: Schema.optional(Schema.Struct({ in_reply_to_tweet_id: Schema.String }))
})
export const UploadRequest = Schema.Struct({ media: Schema.String, media_category: Schema.String })
export const MetadataRequest = Schema.Struct({
  id: Schema.String,
  metadata: Schema.optional(Schema.Struct({ alt_text: Schema.optional(Schema.Struct({ text: Schema.String })) }))
})
export const InitializeRequest = Schema.Struct({
  media_type: Schema.optional(Schema.String),
  total_bytes: Schema.optional(Schema.Number),
  media_category: Schema.optional(Schema.String)
})
export const MessageRequest = Schema.Struct({ text: Schema.optional(Schema.String) })

/** A post or an event as X lists it, with the person X would expand for it. */
export interface Listed {
  readonly id: string
  readonly wire: Readonly<Record<string, unknown>>
  readonly user: Adapter.Person
}

/** Only the fields asked for (`tweet.fields`, `dm_event.fields`) besides the defaults, as X answers. */
const fieldsOf = (wire: Readonly<Record<string, unknown>>, defaults: ReadonlyArray<string>, asked: string | undefined) => {
  const wanted = new Set([...defaults, ...(asked?.split(",") ?? [])])
  return Object.fromEntries(Object.entries(wire).filter(([key, value]) => wanted.has(key) && value !== undefined))
}

/**
 * A newest-first listing as X pages it: newer than `since_id`, `max_results` a page (10 unless asked, between
 * `min` and 100), `next_token` to the next older page; the expanded people in `includes.users`.
 */
export const listing = (
  items: ReadonlyArray<Listed>,
  query: Readonly<Record<string, string>>,
  options: { readonly min: number; readonly fields: string; readonly defaults: ReadonlyArray<string>; readonly expansion: string }
) => {
  const size = Number(query["max_results"] ?? 10)
  if (!Number.isInteger(size) || size < options.min || size > 100) {
    return invalid(`The \`max_results\` query parameter value [${query["max_results"]}] is not between ${options.min} and 100`)
  }
  const since = query["since_id"]
  const newer = since === undefined ? items : items.filter((item) => isNewer(item.id, since))
  const token = query["pagination_token"]
  const start = token === undefined ? 0 : newer.findIndex((item) => item.id === token)
  if (start < 0) return invalid("The `pagination_token` query parameter value is not valid")
  const page = newer.slice(start, start + size)
  const next = newer[start + size]
  const meta = {
    result_count: page.length,
    ...(page.length === 0 ? {} : { newest_id: page[0]!.id, oldest_id: page[page.length - 1]!.id }),
    ...(next === undefined ? {} : { next_token: next.id })
  }
  if (page.length === 0) return Simulator.json({ meta })
  const expanded = (query["expansions"] ?? "").split(",").includes(options.expansion)
  // X's users always have a display name.
  const users = [...new Map(page.map(({ user }) => [user.id, { id: user.id, name: user.name ?? user.username, username: user.username }]))
    .values()]
  return Simulator.json({
    data: page.map((item) => fieldsOf(item.wire, options.defaults, query[options.fields])),
    ...(expanded ? { includes: { users } } : {}),
    meta
  })
}

export const tweetListing = { min: 5, fields: "tweet.fields", defaults: ["id", "text", "edit_history_tweet_ids"], expansion: "author_id" }
export const dmListing = { min: 1, fields: "dm_event.fields", defaults: ["id", "event_type", "text"], expansion: "sender_id" }

export const newestFirst = (a: Listed, b: Listed) => a.id === b.id ? 0 : isNewer(a.id, b.id) ? -1 : 1

/** An upload X keeps: bytes received so far and where its processing stands. */
export interface Upload {
  readonly id: string
  readonly accountId: string
  readonly mediaType: string
  readonly totalBytes: number
  received: number
  finalized: boolean
  /** `pending` -> `in_progress` -> `succeeded`, one step per status call. */
  state: "pending" | "in_progress" | "succeeded"
  /** Set through `/2/media/metadata`. */
  altText?: string
}

export const processingOrder = ["pending", "in_progress", "succeeded"] as const

/**
 * The JSON body held to the rules of `call`: X's refusal of the first broken, or the body as `schema`
 * reads it (lenient: the rules said what X refuses).
 */
export const body = <A>(call: SimulatorRules.Call<unknown>, schema: Schema.Codec<A, unknown>) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.map(Effect.orElseSucceed(request.json, () => undefined), (json) => {
      const refusal = refused(call, json)
      if (refusal !== undefined) return Result.fail(refusal)
      const decoded = Schema.decodeUnknownOption(schema)(json)
      return Option.isSome(decoded)
        ? Result.succeed(decoded.value)
        : Result.fail(invalid("One or more parameters to your request was invalid."))
    }))

/** What the route pieces share: the state, the uploads, the root's address and the sandbox triggers as X answers them. */
export interface Context {
  readonly state: SimulatorState.SimulatorState
  readonly uploads: SimulatorState.Table<Upload>
  readonly baseUrl: string
  readonly triggered: (text: string, accountId: string) => HttpServerResponse.HttpServerResponse | undefined
}
