import { Simulator, SimulatorPage, SimulatorState } from "@herald/adapter-kit"
import { Effect, Result } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import * as Inbox from "./internal/simulatorInbox.ts"
import * as Media from "./internal/simulatorMedia.ts"
import { body, duplicate, invalid, problem, TweetRequest, unauthorized, unavailable, type Upload } from "./internal/simulatorWire.ts"
import { scopes } from "./XClient.ts"
import * as XRules from "./XRules.ts"

/**
 * X's API v2 as Herald's sandbox serves it, under the simulator's root: the consent screen at
 * `/i/oauth2/authorize`, the token endpoint at `/2/oauth2/token`, and `/2/users/me`, `/2/tweets`,
 * `/2/media/upload[...]`, `/2/users/{id}/tweets` with X's shapes, problem bodies and async video processing
 * (https://docs.x.com/x-api, https://docs.x.com/x-api/media/quickstart/media-upload-chunked). The inbox:
 * `/2/users/{id}/mentions` and `/2/users/{id}/tweets` serve the state's comments as replies, `/2/dm_events`
 * and `/2/dm_conversations/{id}/messages` its messages, and `POST /2/tweets` answering a comment stores a
 * comment; the kit's control routes bring people's comments and messages in.
 */

const network = "x"

export const simulator: Simulator.Make = ({ baseUrl }) => {
  const state = Simulator.makeState(network)
  const uploads = state.table<Upload>("uploads", { mutable: true })

  /** The caller's account, or the 401 X gives for any token that does not work. */
  const authenticated = Simulator.authenticated(state, unauthorized)

  /** The sandbox trigger in a text as X would refuse it (a 403 saying why); undefined when none. */
  const triggered = (text: string, accountId: string) => {
    switch (state.trigger(text, accountId)) {
      case "fail":
        return problem(403, "Forbidden", SimulatorState.refusal(text))
      case "flaky":
        return unavailable()
      case "rate-limit":
        return problem(429, "Too Many Requests", "Too Many Requests").pipe(
          HttpServerResponse.setHeader("x-rate-limit-remaining", "0"),
          HttpServerResponse.setHeader("x-rate-limit-reset", String(Math.ceil((Date.now() + SimulatorState.rateLimitResetMs) / 1000)))
        )
      case "revoke":
        return unauthorized()
    }
    return undefined
  }

  const { append, finalize, initialize, mediaUrl, metadata, status, upload } = Media.make({ state, uploads, baseUrl, triggered })
  const { dmEvents, mentions, sendMessage, timeline } = Inbox.make({ state, uploads, baseUrl, triggered })

  const token = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    // A confidential client authenticates with HTTP Basic.
    if (!(request.headers["authorization"] ?? "").toLowerCase().startsWith("basic ")) {
      return Simulator.json({ error: "unauthorized_client", error_description: "Missing valid authorization header" }, 401)
    }
    const form = yield* Simulator.formOrJson
    const grant = form["grant_type"] === "refresh_token"
      ? state.refresh(form["refresh_token"] ?? "")
      : form["grant_type"] === "authorization_code"
      ? Simulator.redeem(state, { code: form["code"], redirectUri: form["redirect_uri"], verifier: form["code_verifier"] })
      : undefined
    if (grant === undefined) {
      return Simulator.json({ error: "invalid_request", error_description: "Value passed for the token was invalid." }, 400)
    }
    return Simulator.json({
      token_type: "bearer",
      expires_in: Math.round(state.accessTokenMillis / 1000),
      access_token: grant.accessToken,
      scope: scopes.join(" "),
      refresh_token: grant.refreshToken
    })
  })

  const createTweet = authenticated((account) =>
    Effect.gen(function*() {
      const read = yield* body(XRules.createPost, TweetRequest)
      if (Result.isFailure(read)) return read.failure
      const tweet = read.success
      const text = tweet.text ?? ""
      const mediaIds = tweet.media?.media_ids ?? []
      const attached = mediaIds.map((id) => uploads.get(id))
      if (attached.some((upload) => upload === undefined || upload.accountId !== account.id)) {
        return invalid("Your media IDs are invalid.")
      }
      if (attached.some((upload) => upload !== undefined && (!upload.finalized || upload.state !== "succeeded"))) {
        return invalid("Your media IDs are invalid.")
      }
      const replyTo = tweet.reply?.in_reply_to_tweet_id
      // A reply to a comment in the account's inbox is a comment by the account.
      const comment = replyTo === undefined ? undefined : state.comments.get(replyTo)
      if (replyTo !== undefined && !state.posts.has(replyTo) && comment?.accountId !== account.id) {
        return problem(403, "Forbidden", "You attempted to reply to a Tweet that is deleted or not visible to you.")
      }
      const trigger = triggered(text, account.id)
      if (trigger !== undefined) return trigger
      if (comment !== undefined) {
        const reply = state.addComment({
          accountId: account.id,
          author: { username: account.username },
          text,
          postId: comment.postId,
          replyTo: comment.id
        })
        return Simulator.json({ data: { id: reply.id, text, edit_history_tweet_ids: [reply.id] } }, 201)
      }
      // X refuses the same text twice from one account.
      if (text !== "" && state.postsWithText(account.id, text).length > 0) return duplicate()
      const id = state.id()
      state.record({
        id,
        accountId: account.id,
        text,
        media: attached.flatMap((upload) => (upload === undefined ? [] : [mediaUrl(upload)])),
        replyTo,
        url: `${baseUrl}/${account.username}/status/${id}`,
        // The alt text each attached photo carries, so tests see what arrived.
        details: { mediaIds, altTexts: attached.map((upload) => upload?.altText ?? null) }
      })
      return Simulator.json({ data: { id, text, edit_history_tweet_ids: [id] } }, 201)
    })
  )


  const me = authenticated((account) =>
    Effect.succeed(Simulator.json({
      data: {
        id: account.id,
        name: account.displayName,
        username: account.username,
        profile_image_url: `${baseUrl}/profile_images/${account.id}_normal.jpg`
      }
    }))
  )

  return {
    network,
    state,
    routes: [
      // The link each post was given (`https://x.com/{username}/status/{id}`), as a page.
      ...SimulatorPage.routes(["/:username/status/:id"], {
        network: "X",
        state,
        baseUrl,
        page: (post) =>
          SimulatorPage.ofPost(state, post, {
            network: "X",
            parts: SimulatorPage.threadParts(state, post)
          })
      }),
      HttpRouter.route("GET", "/i/oauth2/authorize", Simulator.authorize(state)),
      HttpRouter.route("POST", "/2/oauth2/token", token),
      HttpRouter.route("GET", "/2/users/me", me),
      HttpRouter.route("GET", "/2/users/:id/tweets", timeline),
      HttpRouter.route("GET", "/2/users/:id/mentions", mentions),
      HttpRouter.route("GET", "/2/dm_events", dmEvents),
      HttpRouter.route("POST", "/2/dm_conversations/:id/messages", sendMessage),
      HttpRouter.route("POST", "/2/tweets", createTweet),
      HttpRouter.route("POST", "/2/media/upload", upload),
      HttpRouter.route("GET", "/2/media/upload", status),
      HttpRouter.route("POST", "/2/media/metadata", metadata),
      HttpRouter.route("POST", "/2/media/upload/initialize", initialize),
      HttpRouter.route("POST", "/2/media/upload/:id/append", append),
      HttpRouter.route("POST", "/2/media/upload/:id/finalize", finalize),
      ...Simulator.controlRoutes(state)
    ]
  }
}
