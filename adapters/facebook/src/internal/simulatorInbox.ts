import { Simulator, type SimulatorState } from "@herald/adapter-kit"
import { Effect, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import * as FacebookRules from "../FacebookRules.ts"
import { facebookTime, graphError, invalid, missing, pick } from "./graphAnswers.ts"
import { broken, graph, type Helpers, messagingWindowMillis, SendBody } from "./simulatorPage.ts"

/**
 * The Facebook simulator's inbox routes: the Page's comments and replies on its posts, its Messenger
 * conversations and their messages, and the Send API inside the 24-hour window.
 */
export const routes = (state: SimulatorState.SimulatorState, helpers: Helpers) => {
  const { asPage, commentNode, conversationsOf, messageNode, onPage, page, params, refusal } = helpers
  return [
  // A comment on one of the Page's posts, or a reply to a comment on one (the first comment and inbox
  // replies); both are the Page's own comments.
  HttpRouter.route("POST", graph(":id/comments"), asPage((account, target) =>
    Effect.map(params, (form) => {
      const message = form["message"] ?? ""
      const post = state.posts.get(target)
      const parent = state.comments.get(target)
      const onPost = post !== undefined && post.accountId === account.id && post.replyTo === undefined
      if (!onPost && (parent === undefined || parent.accountId !== account.id)) return missing(target, "post")
      const refused = broken(FacebookRules.comments, form) ?? refusal(message, account.id)
      if (refused !== undefined) return refused
      const comment = state.addComment({
        accountId: account.id,
        author: { id: account.id, username: account.username, name: account.displayName },
        text: message,
        postId: onPost ? target : parent!.postId,
        replyTo: onPost ? undefined : target
      })
      return Simulator.json({ id: comment.id })
    }))),
  // A post's comments, or a comment's replies: `filter=stream` lists replies too, `toplevel` (the
  // default) only comments on the post; `order` is `chronological` unless `reverse_chronological`.
  HttpRouter.route("GET", graph(":id/comments"), asPage((account, target) =>
    Effect.map(params, (form) => {
      const post = state.posts.get(target)
      const parent = state.comments.get(target)
      const onPost = post !== undefined && post.accountId === account.id
      if (!onPost && (parent === undefined || parent.accountId !== account.id)) return missing(target, "get")
      const all = state.commentsAfter(account.id, 0).filter((comment) =>
        onPost
          ? comment.postId === target && (form["filter"] === "stream" || comment.replyTo === null)
          : comment.replyTo === target
      )
      const ordered = form["order"] === "reverse_chronological" ? [...all].reverse() : all
      const answer = page(ordered, form, `${target}/comments`)
      return Simulator.json({ ...answer, data: answer.data.map((comment) => pick(form["fields"], commentNode(comment))) })
    }))),
  HttpRouter.route("GET", graph(":id/conversations"), onPage((account, form) => {
    if (form["platform"] !== undefined && form["platform"] !== "messenger") return Simulator.json({ data: [] })
    const conversations = conversationsOf(account.id).map((conversation) => ({
      id: conversation.id,
      updated_time: facebookTime(Date.parse(conversation.messages.at(-1)!.createdAt))
    }))
    const answer = page(conversations, form, `${account.id}/conversations`)
    return Simulator.json({ ...answer, data: answer.data.map((conversation) => pick(form["fields"], conversation)) })
  })),
  // A conversation's messages, newest first.
  HttpRouter.route("GET", graph(":id/messages"), asPage((account, id) =>
    Effect.map(params, (form) => {
      const conversation = conversationsOf(account.id).find((entry) => entry.id === id)
      if (conversation === undefined) return missing(id, "get")
      const answer = page([...conversation.messages].reverse(), form, `${id}/messages`)
      return Simulator.json({
        ...answer,
        data: answer.data.map((message) => pick(form["fields"], messageNode(message, account, conversation.counterpart)))
      })
    }))),
  // The Send API: a JSON body naming the person by their Page-scoped id, inside the 24-hour window.
  HttpRouter.route("POST", graph(":id/messages"), asPage((account, id) =>
    Effect.gen(function*() {
      if (id !== account.id) return missing(id, "post")
      const request = yield* HttpServerRequest.HttpServerRequest
      const json = yield* Effect.orElseSucceed(request.json, () => null)
      const refusedBody = broken(FacebookRules.messages, json)
      if (refusedBody !== undefined) return refusedBody
      const body = Schema.decodeUnknownOption(SendBody)(json)
      if (Option.isNone(body)) return invalid("(#100) The parameter recipient and message are required")
      const { message, recipient } = body.value
      const text = message.text ?? ""
      const conversation = conversationsOf(account.id).find((entry) => entry.counterpart?.id === recipient.id)
      if (conversation === undefined) return invalid("(#100) No matching user found", 2018001)
      const lastHeard = conversation.messages.findLast((entry) => !entry.outgoing)!
      if (Date.now() - Date.parse(lastHeard.createdAt) > messagingWindowMillis) {
        return graphError(400, {
          message: "(#10) This message is sent outside of allowed window.",
          code: 10,
          error_subcode: 2018278
        })
      }
      const refused = refusal(text, account.id)
      if (refused !== undefined) return refused
      const sent = state.addMessage({
        accountId: account.id,
        from: { id: account.id, username: account.username, name: account.displayName },
        text,
        conversationId: conversation.id,
        outgoing: true
      })
      return Simulator.json({ recipient_id: recipient.id, message_id: sent.id })
    }))),
  ]
}
