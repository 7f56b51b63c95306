import { type Adapter, Simulator, SimulatorRules, SimulatorState } from "@herald/adapter-kit"
import { Effect, Schema } from "effect"
import { HttpRouter, type HttpServerResponse } from "effect/http"
import { apiVersion } from "../FacebookConfig.ts"
import type * as FacebookRules from "../FacebookRules.ts"
import { facebookTime, graphError, missing, tokenRefused } from "./graphAnswers.ts"

// What every route of the Facebook simulator (FacebookSimulator.ts and its internal/simulator*.ts pieces)
// shares: the records it keeps, the Page's tokens and who is calling, posting on the Page's feed with the
// sandbox triggers, and Graph's nodes and cursor paging.

export const graph = (path: string): `/${string}` => `/${apiVersion}/${path}`

export interface Photo {
  readonly accountId: string
  readonly url: string
  /** Its `alt_text_custom`, null without. */
  readonly altText: string | null
  attached: boolean
}

export interface Video {
  readonly accountId: string
  /** Status reads left before processing ends. */
  checksLeft: number
}

export const pageTasks = ["ADVERTISE", "ANALYZE", "CREATE_CONTENT", "MESSAGING", "MODERATE", "MANAGE"]

/** What the simulator keeps of a Send API body its rules accepted (https://developers.facebook.com/docs/messenger-platform/reference/send-api). */
export const SendBody = Schema.Struct({
  recipient: Schema.Struct({ id: Schema.String }),
  message: Schema.Struct({ text: Schema.optionalKey(Schema.String) })
})

/** How long after a person's message a Page may answer with a standard `RESPONSE`. */
export const messagingWindowMillis = 24 * 60 * 60 * 1000

/** The app's webhook subscription on a Page: the fields last asked for, and how many times it was asked. */
export interface Subscription {
  readonly fields: ReadonlyArray<string>
  readonly calls: number
}

/** Each simulator's subscriptions (`POST /{page-id}/subscribed_apps`), by Page id. */
export const subscriptionsOf = (state: SimulatorState.SimulatorState) => state.table<Subscription>("subscriptions")

/** The app's webhook subscription on a sandbox Page, if it was made. */
export const subscriptionOf = (state: SimulatorState.SimulatorState, pageId: string): Subscription | undefined =>
  subscriptionsOf(state).get(pageId)

const pageTokenRequired = graphError(400, { message: "(#210) A page access token is required to request this resource.", code: 210 })

/** Graph's answer to the first rule of `call` the request breaks (FacebookRules); undefined when it keeps all. */
export const broken = <Input>(call: FacebookRules.GraphCall<Input>, input: Input) => {
  const refused = SimulatorRules.refusal(call, input)
  return refused === undefined ? undefined : graphError(400, { message: refused.message, code: 100, ...refused.rule.error })
}

/** The helpers of one simulator's routes, over its state. */
export const make = (state: SimulatorState.SimulatorState, baseUrl: string) => {
  // Each Page's token, by Page id; kept with the state, so a Page token works after a restart and in every
  // process.
  const pageTokens = state.table<string>("pageTokens")
  const params = Effect.zipWith(Simulator.query, Simulator.formOrJson, (query, form) => ({ ...query, ...form }))
  const pathId = Effect.map(HttpRouter.params, (path) => path["id"] ?? "")
  const authenticated = Effect.map(Simulator.accessToken, (token) => {
    const check = state.check(token)
    return { check, isPage: check._tag === "Valid" && token === pageTokens.get(check.account.id) }
  })

  /** The Page token of an account's Page; like Facebook's, it does not expire. */
  const pageTokenOf = (accountId: string) => {
    const existing = pageTokens.get(accountId)
    if (existing !== undefined && state.check(existing)._tag === "Valid") return existing
    const grant = state.grant(accountId)
    grant.expiresAt = Number.MAX_SAFE_INTEGER
    pageTokens.set(accountId, grant.accessToken)
    return grant.accessToken
  }

  const postNode = (post: SimulatorState.SimulatedPost) => ({
    id: post.id,
    message: post.text,
    permalink_url: post.url,
    created_time: facebookTime(post.createdAt)
  })

  /** Graph's answer to a sandbox trigger in a text the Page sends; undefined when it carries none. */
  const refusal = (text: string, accountId: string) => {
    switch (state.trigger(text, accountId)) {
      case "fail":
        return graphError(400, {
          message: "The action attempted has been deemed abusive or is otherwise disallowed",
          code: 368,
          error_user_title: "Content blocked",
          error_user_msg: SimulatorState.refusal(text)
        })
      case "flaky":
        return graphError(500, {
          message: "An unexpected error has occurred. Please retry your request later.",
          code: 2,
          is_transient: true
        })
      case "rate-limit":
        return graphError(400, { message: "(#32) Page request limit reached", code: 32 })
      case "revoke":
        return tokenRefused({ _tag: "Revoked" })
    }
    return undefined
  }

  /**
   * A post of the Page, on its feed, once the call's rules passed; the sandbox triggers act on the text. A
   * photo post's details keep each photo's alt text (`altTexts`, null without).
   */
  const publishPost = (
    account: SimulatorState.SimulatedAccount,
    text: string,
    media: ReadonlyArray<string>,
    options: { readonly videoId?: string; readonly altTexts?: ReadonlyArray<string | null> } = {}
  ) => {
    const refused = refusal(text, account.id)
    if (refused !== undefined) return { refused }
    const postId = options.videoId ?? `${account.id}_${state.id()}`
    const url = options.videoId === undefined
      ? `${baseUrl}/${account.id}/posts/${postId.split("_")[1]}/`
      : `${baseUrl}/${account.id}/videos/${postId}/`
    const details = options.altTexts === undefined ? {} : { altTexts: options.altTexts }
    return { post: state.record({ id: postId, accountId: account.id, text, media, replyTo: undefined, url, details }) }
  }

  /** A call that takes a valid Page token; `handle` gets the Page and the id in the path. */
  const asPage = <E, R>(
    handle: (account: SimulatorState.SimulatedAccount, id: string) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ) =>
    Effect.gen(function*() {
      const { check, isPage } = yield* authenticated
      if (check._tag !== "Valid") return tokenRefused(check)
      if (!isPage) return pageTokenRequired
      return yield* handle(check.account, yield* pathId)
    })

  /** Every Page call: a valid Page token of the Page in the path. */
  const onPage = (
    handle: (account: SimulatorState.SimulatedAccount, form: Record<string, string>) => HttpServerResponse.HttpServerResponse
  ) =>
    asPage((account, id) =>
      id === account.id ? Effect.map(params, (form) => handle(account, form)) : Effect.succeed(missing(id, "post")))

  /**
   * One page of an edge, with Graph's cursor paging (`limit`, `after`, `paging.cursors`, `paging.next` when
   * more follow); the cursors are opaque to callers, here an offset.
   */
  const page = <A>(items: ReadonlyArray<A>, form: Record<string, string>, path: string) => {
    const limit = Math.min(100, Number(form["limit"] ?? 25) || 25)
    const offset = Number(Buffer.from(form["after"] ?? "", "base64url").toString("utf8")) || 0
    const data = items.slice(offset, offset + limit)
    const cursor = (at: number) => Buffer.from(String(at)).toString("base64url")
    const cursors = { before: cursor(offset), after: cursor(offset + data.length) }
    const more = offset + data.length < items.length
    return { data, paging: more ? { cursors, next: `${baseUrl}${graph(path)}?limit=${limit}&after=${cursors.after}` } : { cursors } }
  }

  /** `from` as Graph gives it: a Page-scoped id and a name, never a username. */
  const fromNode = (person: Adapter.Person) => ({ id: person.id, name: person.name ?? person.username })

  const commentNode = (comment: SimulatorState.SimulatedComment) => {
    const parent = comment.replyTo === null ? undefined : state.comments.get(comment.replyTo)
    const parentNode = parent === undefined
      ? { id: comment.replyTo }
      : { id: parent.id, message: parent.text, from: fromNode(parent.author) }
    return {
      id: comment.id,
      message: comment.text,
      created_time: facebookTime(Date.parse(comment.createdAt)),
      from: fromNode(comment.author),
      ...(comment.replyTo === null ? {} : { parent: parentNode }),
      ...(comment.permalink === null ? {} : { permalink_url: comment.permalink })
    }
  }

  /** The Page's Messenger conversations, most recently active first, each with its messages oldest first. */
  const conversationsOf = (accountId: string) => {
    const byId = new Map<string, Array<SimulatorState.SimulatedMessage>>()
    for (const message of state.messagesAfter(accountId, 0)) {
      const list = byId.get(message.conversationId) ?? []
      list.push(message)
      byId.set(message.conversationId, list)
    }
    return [...byId.entries()]
      .map(([id, messages]) => ({ id, messages, counterpart: messages.find((message) => !message.outgoing)?.from }))
      .sort((a, b) => b.messages.at(-1)!.seq - a.messages.at(-1)!.seq)
  }

  const messageNode = (
    message: SimulatorState.SimulatedMessage,
    page: SimulatorState.SimulatedAccount,
    counterpart: Adapter.Person | undefined
  ) => {
    const pageNode = { id: page.id, name: page.displayName }
    const to = message.outgoing ? counterpart : undefined
    const attachments = Array.from({ length: message.attachments }, (_, index) => ({ id: `${message.id}_${index}`, mime_type: "image/jpeg" }))
    return {
      id: message.id,
      created_time: facebookTime(Date.parse(message.createdAt)),
      from: fromNode(message.from),
      to: { data: [to === undefined ? pageNode : fromNode(to)] },
      message: message.text,
      ...(message.attachments === 0
        ? {}
        : { attachments: { data: attachments } })
    }
  }

  const tokenAnswer = (grant: SimulatorState.Grant) =>
    Simulator.json({
      access_token: grant.accessToken,
      token_type: "bearer",
      expires_in: Math.max(0, Math.round((grant.expiresAt - Date.now()) / 1000))
    })

  return {
    params,
    pathId,
    authenticated,
    pageTokenOf,
    postNode,
    refusal,
    publishPost,
    asPage,
    onPage,
    page,
    fromNode,
    commentNode,
    conversationsOf,
    messageNode,
    tokenAnswer
  }
}

/** The helpers `make` gives the route pieces. */
export type Helpers = ReturnType<typeof make>
