import { Simulator, SimulatorRules, SimulatorState } from "@herald/adapter-kit"
import { Effect, Schema } from "effect"
import { HttpRouter } from "effect/http"
import { apiVersion } from "../InstagramConfig.ts"
import type * as InstagramRules from "../InstagramRules.ts"
import { Edge, graphError, instagramTime, tokenRefused } from "./graphAnswers.ts"

// What the routes of the Instagram simulator (InstagramSimulator.ts and its internal/simulator*.ts pieces)
// share: the containers it keeps, Instagram's windows and limits, the rules' refusals, and media, comments
// and conversations as Graph's nodes, with the sandbox triggers answered as Instagram answers them.

export const graph = (path: string): `/${string}` => `/${apiVersion}/${path}`

export type ContainerKind = InstagramRules.MediaType

export interface Container {
  readonly id: string
  readonly accountId: string
  readonly kind: ContainerKind
  readonly caption: string
  readonly mediaUrls: ReadonlyArray<string>
  readonly carouselItem: boolean
  /** Each photo's `alt_text` (null without), in order; a carousel gathers its children's. */
  readonly altTexts: ReadonlyArray<string | null>
  readonly createdAt: number
  /** Status reads left before processing ends: Instagram needs a moment, and longer for videos. */
  checksLeft: number
  status: "IN_PROGRESS" | "FINISHED" | "PUBLISHED"
}

export const containerLifetimeMillis = 24 * 60 * 60 * 1000
/** A business may answer a person only within 24 hours of their last message. */
export const messagingWindowMillis = 24 * 60 * 60 * 1000
/** Instagram gives a conversation's 20 most recent messages, no more. */
const messagesPerConversation = 20

/** What the simulator keeps of a Send API body its rules accepted: `{ recipient: { id }, message: { text? } }`. */
export const SendBody = Schema.Struct({
  recipient: Schema.Struct({ id: Schema.String }),
  message: Schema.Struct({ text: Schema.optionalKey(Schema.String) })
})
/** Graph's answer to the first rule of `call` the request breaks (InstagramRules); undefined when it keeps all. */
export const broken = <Input>(call: InstagramRules.GraphCall<Input>, input: Input) => {
  const refused = SimulatorRules.refusal(call, input)
  return refused === undefined ? undefined : graphError(400, { message: refused.message, code: 100, ...refused.rule.error })
}
/** Accounts whose username has this refuse the webhook subscription, so tests can see the adapter go on without it. */
export const refusesSubscription = (username: string) => username.includes("nosub")

/** Long-lived tokens last 60 days in Instagram; the sandbox keeps the state's own lifetime. */
export const secondsLeft = (grant: SimulatorState.Grant) => Math.max(0, Math.round((grant.expiresAt - Date.now()) / 1000))

/** A call's fields: its query and its form or JSON body, alike. */
export const params = Effect.zipWith(Simulator.query, Simulator.formOrJson, (query, form) => ({ ...query, ...form }))
/** The object id in the path. */
export const pathId = Effect.map(HttpRouter.params, (path) => path["id"] ?? "")

/** The caller's token check, the nodes and the trigger answers of one simulator, over its state. */
export const make = (state: SimulatorState.SimulatorState, baseUrl: string) => {
  const authenticated = Effect.map(Simulator.accessToken, (token) => state.check(token))

  const commentsOf = (accountId: string) => state.commentsAfter(accountId, 0)

  const mediaNode = (post: SimulatorState.SimulatedPost) => ({
    id: post.id,
    caption: post.text,
    permalink: post.url,
    media_type: post.details["media_type"],
    media_product_type: post.details["media_product_type"],
    timestamp: instagramTime(post.createdAt),
    comments_count: commentsOf(post.accountId).filter((comment) => comment.postId === post.id).length
  })

  /** An IG Comment; a top-level one lists its replies as an edge, a reply names its parent. */
  const commentNode = (comment: SimulatorState.SimulatedComment): Record<string, unknown> => ({
    id: comment.id,
    text: comment.text,
    timestamp: instagramTime(Date.parse(comment.createdAt)),
    username: comment.author.username,
    from: { id: comment.author.id, username: comment.author.username },
    media: { id: comment.postId },
    like_count: 0,
    hidden: false,
    ...(comment.replyTo === null
      ? { replies: new Edge(commentsOf(comment.accountId).filter((reply) => reply.replyTo === comment.id).map(commentNode)) }
      : { parent_id: comment.replyTo })
  })

  /** The account's conversations, each with its messages oldest first. */
  const conversationsOf = (accountId: string) => {
    const conversations = new Map<string, Array<SimulatorState.SimulatedMessage>>()
    for (const message of state.messagesAfter(accountId, 0)) {
      conversations.set(message.conversationId, [...(conversations.get(message.conversationId) ?? []), message])
    }
    return conversations
  }

  const conversationNode = (account: SimulatorState.SimulatedAccount, id: string, messages: ReadonlyArray<SimulatorState.SimulatedMessage>) => {
    const self = { id: account.id, username: account.username }
    const person = messages.find((message) => !message.outgoing)?.from
    const counterpart = person === undefined ? undefined : { id: person.id, username: person.username }
    return {
      id,
      updated_time: instagramTime(Date.parse(messages.at(-1)?.createdAt ?? "")),
      participants: { data: counterpart === undefined ? [self] : [self, counterpart] },
      messages: new Edge(messages.slice(-messagesPerConversation).reverse().map((message) => ({
        id: message.id,
        created_time: instagramTime(Date.parse(message.createdAt)),
        from: { id: message.from.id, username: message.from.username },
        to: { data: [message.outgoing ? counterpart : self] },
        message: message.text,
        ...(message.attachments === 0 ? {} : {
          attachments: {
            data: Array.from({ length: message.attachments }, (_, index) => ({
              image_data: { url: `${baseUrl}/attachments/${message.id}/${index}.jpg` }
            }))
          }
        })
      })))
    }
  }

  /** What Instagram answers a sandbox trigger in a caption, reply or message; undefined without one. */
  const triggered = (text: string, accountId: string) => {
    switch (state.trigger(text, accountId)) {
      case "fail":
        return graphError(400, {
          message: "Media upload has failed with error code 2207051",
          code: 9,
          error_subcode: 2207051,
          error_user_title: "Action is blocked",
          error_user_msg: SimulatorState.refusal(text)
        })
      case "flaky":
        return graphError(500, {
          message: "An unexpected error has occurred. Please retry your request later.",
          code: 2,
          is_transient: true
        })
      case "rate-limit":
        return graphError(400, { message: "(#4) Application request limit reached", code: 4, is_transient: true })
      case "revoke":
        return tokenRefused({ _tag: "Revoked" })
    }
    return undefined
  }

  return { authenticated, commentsOf, mediaNode, commentNode, conversationsOf, conversationNode, triggered }
}

export type Nodes = ReturnType<typeof make>
