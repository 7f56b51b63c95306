import { Simulator, type SimulatorState } from "@herald/adapter-kit"
import { Effect, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import * as InstagramRules from "../InstagramRules.ts"
import { graphError, invalid, missing, pick, tokenRefused } from "./graphAnswers.ts"
import { broken, graph, messagingWindowMillis, type Nodes, params, pathId, SendBody } from "./simulatorNodes.ts"

/**
 * The Instagram simulator's inbox routes: comments on the account's media and replies to them, and the Send
 * API inside the messaging window.
 */
export const routes = (state: SimulatorState.SimulatorState, nodes: Nodes) => {
  const { authenticated, commentNode, commentsOf, triggered } = nodes

  /** The Send API: a text to the person of one of the account's conversations, within the messaging window. */
  const sendMessage = (account: SimulatorState.SimulatedAccount, body: typeof SendBody.Type) => {
    const incoming = state.messagesAfter(account.id, 0).filter((message) => !message.outgoing && message.from.id === body.recipient.id)
    const last = incoming.at(-1)
    if (last === undefined) return graphError(400, { message: "No matching user found", code: 100, error_subcode: 2018001 })
    if (Date.now() - Date.parse(last.createdAt) > messagingWindowMillis) {
      return graphError(400, { message: "This message is sent outside of allowed window.", code: 10, error_subcode: 2018278 })
    }
    const text = body.message.text ?? ""
    const refused = triggered(text, account.id)
    if (refused !== undefined) return refused
    const sent = state.addMessage({
      accountId: account.id,
      from: { username: account.username },
      text,
      conversationId: last.conversationId,
      outgoing: true
    })
    return Simulator.json({ recipient_id: body.recipient.id, message_id: sent.id })
  }

  return [
  HttpRouter.route("POST", graph(":id/comments"), Effect.gen(function*() {
    const check = yield* authenticated
    if (check._tag !== "Valid") return tokenRefused(check)
    const mediaId = yield* pathId
    const form = yield* params
    const message = form["message"] ?? ""
    const media = state.posts.get(mediaId)
    if (media === undefined || media.replyTo !== undefined) return missing(mediaId, "post")
    if (media.details["media_product_type"] === "STORY") return invalid("Stories cannot be commented on.")
    const refused = broken(InstagramRules.comments, form)
    if (refused !== undefined) return refused
    const comment = state.addComment({ accountId: check.account.id, author: { username: check.account.username }, text: message, postId: mediaId })
    return Simulator.json({ id: comment.id })
  })),
  // Top-level comments only, newest first; replies come through the `replies` edge.
  HttpRouter.route("GET", graph(":id/comments"), Effect.gen(function*() {
    const check = yield* authenticated
    if (check._tag !== "Valid") return tokenRefused(check)
    const mediaId = yield* pathId
    const query = yield* Simulator.query
    const media = state.posts.get(mediaId)
    if (media === undefined || media.accountId !== check.account.id || media.replyTo !== undefined) return missing(mediaId, "get")
    const limit = Math.min(100, Number(query["limit"] ?? 25) || 25)
    const comments = commentsOf(check.account.id)
      .filter((comment) => comment.postId === mediaId && comment.replyTo === null)
      .reverse()
      .slice(0, limit)
    return Simulator.json({ data: comments.map((comment) => pick(query["fields"], commentNode(comment))), paging: { cursors: {} } })
  })),
  // A reply to a reply is filed under the top-level comment, as Instagram does.
  HttpRouter.route("POST", graph(":id/replies"), Effect.gen(function*() {
    const check = yield* authenticated
    if (check._tag !== "Valid") return tokenRefused(check)
    const commentId = yield* pathId
    const form = yield* params
    const message = form["message"] ?? ""
    const comment = state.comments.get(commentId)
    if (comment === undefined || comment.accountId !== check.account.id) return missing(commentId, "post")
    const refused = broken(InstagramRules.replies, form) ?? triggered(message, check.account.id)
    if (refused !== undefined) return refused
    const reply = state.addComment({
      accountId: check.account.id,
      author: { username: check.account.username },
      text: message,
      postId: comment.postId,
      replyTo: comment.replyTo ?? comment.id
    })
    return Simulator.json({ id: reply.id })
  })),
  HttpRouter.route("POST", graph(":id/messages"), Effect.gen(function*() {
    const check = yield* authenticated
    if (check._tag !== "Valid") return tokenRefused(check)
    const id = yield* pathId
    if (id !== check.account.id && id !== "me") return missing(id, "post")
    const request = yield* HttpServerRequest.HttpServerRequest
    const json = yield* Effect.orElseSucceed(request.json, () => null)
    const body = Schema.decodeUnknownOption(SendBody)(json)
    return broken(InstagramRules.messages, json) ??
      (Option.isNone(body) ? invalid("The parameters recipient and message are required.") : sendMessage(check.account, body.value))
  })),
  ]
}
