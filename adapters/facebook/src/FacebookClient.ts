import { type AdapterConfig, NetworkClient } from "@herald/adapter-kit"
import { Effect, Redacted, Schema } from "effect"
import { HttpClientRequest } from "effect/http"
import { apiVersion } from "./FacebookConfig.ts"
import * as Errors from "./internal/errors.ts"
import * as Inbox from "./internal/inbox.ts"
import type { Params } from "./internal/request.ts"

// Typed calls to the Graph API for Facebook Pages. Answers are decoded with minimal, lenient schemas:
// only the fields Herald reads. Access tokens go in the `Authorization` header; the token endpoint only
// takes the secret and codes as query parameters, which get `Redacted` values that traces hide.
// Reference: https://developers.facebook.com/docs/pages-api

const Token = Schema.Struct({ access_token: Schema.String, expires_in: Schema.optionalKey(Schema.Number) })

const Picture = Schema.Struct({ data: Schema.Struct({ url: Schema.optionalKey(Schema.String) }) })

const Pages = Schema.Struct({
  data: Schema.Array(Schema.Struct({
    id: Schema.String,
    name: Schema.String,
    access_token: Schema.String,
    tasks: Schema.optionalKey(Schema.Array(Schema.String))
  }))
})
export type Page = typeof Pages.Type["data"][number]

const PageProfile = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  username: Schema.optionalKey(Schema.String),
  picture: Schema.optionalKey(Picture)
})
export type PageProfile = typeof PageProfile.Type

const Created = Schema.Struct({ id: Schema.String })

/** https://developers.facebook.com/docs/graph-api/reference/video#fields: `status.video_status`. */
const VideoStatus = Schema.Struct({
  status: Schema.Struct({ video_status: Schema.String }),
  permalink_url: Schema.optionalKey(Schema.String)
})
export type VideoStatus = typeof VideoStatus.Type

const Permalink = Schema.Struct({ permalink_url: Schema.String })

const Posts = Schema.Struct({
  data: Schema.Array(Schema.Struct({
    id: Schema.String,
    message: Schema.optionalKey(Schema.String),
    permalink_url: Schema.optionalKey(Schema.String)
  }))
})
export type Posts = typeof Posts.Type

/** Cursor-based paging, as every Graph edge answers it (https://developers.facebook.com/docs/graph-api/results). */
const Paging = Schema.Struct({
  cursors: Schema.optionalKey(Schema.Struct({ after: Schema.optionalKey(Schema.String) })),
  next: Schema.optionalKey(Schema.String)
})

const Comments = Schema.Struct({ data: Schema.Array(Inbox.Comment), paging: Schema.optionalKey(Paging) })
export type Comments = typeof Comments.Type

const Conversations = Schema.Struct({
  data: Schema.Array(Schema.Struct({ id: Schema.String, updated_time: Inbox.GraphTime }))
})
export type Conversations = typeof Conversations.Type

const Messages = Schema.Struct({ data: Schema.Array(Inbox.Message) })

const Participants = Schema.Struct({
  participants: Schema.Struct({ data: Schema.Array(Schema.Struct({ id: Schema.String, name: Schema.optionalKey(Schema.String) })) })
})

/** A write that answers no id, only whether it took (`{"success": true}`). */
const Success = Schema.Struct({ success: Schema.Boolean })

/** https://developers.facebook.com/docs/messenger-platform/reference/send-api: the Send API's answer. */
const Sent = Schema.Struct({ recipient_id: Schema.optionalKey(Schema.String), message_id: Schema.String })

export const make = Effect.fnUntraced(function*(config: AdapterConfig.AdapterConfig) {
  const graph = (path: string) => `${config.apiBaseUrl}/${apiVersion}/${path}`
  const node = (id: string, edge?: string) => graph(edge === undefined ? encodeURIComponent(id) : `${encodeURIComponent(id)}/${edge}`)
  const bearer = (token: Redacted.Redacted<string>) => HttpClientRequest.bearerToken(Redacted.value(token))

  // `"makesPost"` marks calls whose lost answer must not be resent (the kit's lost-answer rule).
  const { send } = yield* NetworkClient.make({ network: "facebook", name: "Facebook", refusal: Errors.refusal })

  const read = <A>(token: Redacted.Redacted<string>, url: string, schema: Schema.Codec<A, unknown>, params: Params) =>
    send(HttpClientRequest.get(url).pipe(bearer(token), HttpClientRequest.setUrlParams(params)), schema)

  const create = (token: Redacted.Redacted<string>, url: string, params: Params, call: NetworkClient.Call) =>
    send(
      HttpClientRequest.post(url).pipe(bearer(token), HttpClientRequest.bodyUrlParams(params)),
      Created,
      call
    ).pipe(Effect.map((created) => created.id))

  return {
    /** Redeems the dialog's code for a short-lived user token. */
    userToken: (params: { readonly code: string; readonly redirectUri: string }) =>
      send(
        HttpClientRequest.get(graph("oauth/access_token")).pipe(HttpClientRequest.setUrlParams({
          client_id: config.clientId,
          client_secret: config.clientSecret,
          redirect_uri: params.redirectUri,
          code: Redacted.make(params.code)
        })),
        Token
      ),

    /** A long-lived user token (about 60 days); Page tokens read with it never expire. */
    longLivedUserToken: (userToken: Redacted.Redacted<string>) =>
      send(
        HttpClientRequest.get(graph("oauth/access_token")).pipe(HttpClientRequest.setUrlParams({
          grant_type: "fb_exchange_token",
          client_id: config.clientId,
          client_secret: config.clientSecret,
          fb_exchange_token: userToken
        })),
        Token
      ),

    /** The Pages the person manages, each with its Page token. */
    pages: (userToken: Redacted.Redacted<string>) =>
      read(userToken, graph("me/accounts"), Pages, { fields: "id,name,access_token,tasks" }).pipe(
        Effect.map((answer) => answer.data)
      ),

    /** With a Page token, `me` is the Page. */
    page: (pageToken: Redacted.Redacted<string>) =>
      read(pageToken, graph("me"), PageProfile, { fields: "id,name,username,picture" }),

    feedPost: (pageToken: Redacted.Redacted<string>, pageId: string, params: Params) =>
      create(pageToken, node(pageId, "feed"), params, "makesPost"),

    /** An unpublished photo, shown only once a feed post attaches it. */
    uploadPhoto: (pageToken: Redacted.Redacted<string>, pageId: string, params: Params) =>
      create(pageToken, node(pageId, "photos"), params, "read"),

    uploadVideo: (pageToken: Redacted.Redacted<string>, pageId: string, params: Params) =>
      create(pageToken, node(pageId, "videos"), params, "makesPost"),

    videoStatus: (pageToken: Redacted.Redacted<string>, videoId: string) =>
      read(pageToken, node(videoId), VideoStatus, { fields: "status,permalink_url" }),

    permalink: (pageToken: Redacted.Redacted<string>, objectId: string) =>
      read(pageToken, node(objectId), Permalink, { fields: "permalink_url" }).pipe(
        Effect.map((answer) => answer.permalink_url)
      ),

    comment: (pageToken: Redacted.Redacted<string>, objectId: string, message: string) =>
      create(pageToken, node(objectId, "comments"), { message }, "makesPost"),

    /** The Page's latest posts, newest first (what reconcile searches, and whose comments the inbox reads). */
    recentPosts: (pageToken: Redacted.Redacted<string>, pageId: string, limit = 50) =>
      read(pageToken, node(pageId, "posts"), Posts, { fields: "id,message,permalink_url", limit: String(limit) }),

    /**
     * One page of a post's comments, newest first. `filter=stream` lists replies too (flat, with `parent`);
     * the default `toplevel` would hide them (https://developers.facebook.com/docs/graph-api/reference/object/comments).
     */
    comments: (pageToken: Redacted.Redacted<string>, postId: string, after: string | undefined) =>
      read(pageToken, node(postId, "comments"), Comments, {
        fields: "id,message,from,created_time,parent,permalink_url",
        filter: "stream",
        order: "reverse_chronological",
        limit: "50",
        ...(after === undefined ? {} : { after })
      }),

    /** The Page's Messenger conversations, most recently active first. */
    conversations: (pageToken: Redacted.Redacted<string>, pageId: string, limit: number) =>
      read(pageToken, node(pageId, "conversations"), Conversations, {
        platform: "messenger",
        fields: "id,updated_time",
        limit: String(limit)
      }),

    /** A conversation's latest messages, newest first; Meta serves details for the 20 most recent only. */
    messages: (pageToken: Redacted.Redacted<string>, conversationId: string) =>
      read(pageToken, node(conversationId, "messages"), Messages, {
        fields: "id,created_time,from,message,attachments",
        limit: "20"
      }).pipe(Effect.map((answer) => answer.data)),

    /**
     * Installs the app on the Page for these webhook fields: Meta only sends a Page's notifications to apps
     * subscribed to it (https://developers.facebook.com/docs/graph-api/reference/page/subscribed_apps,
     * https://developers.facebook.com/docs/pages-api/webhooks-for-pages). Takes the Page token and the
     * `pages_manage_metadata` permission; idempotent on Meta's side, so it may be made again. Answers
     * whether Meta took it.
     */
    subscribeApp: (pageToken: Redacted.Redacted<string>, pageId: string, fields: ReadonlyArray<string>) =>
      send(
        HttpClientRequest.post(node(pageId, "subscribed_apps")).pipe(
          bearer(pageToken),
          HttpClientRequest.setUrlParams({ subscribed_fields: fields.join(",") })
        ),
        Success
      ).pipe(Effect.map((answer) => answer.success)),

    participants: (pageToken: Redacted.Redacted<string>, conversationId: string) =>
      read(pageToken, node(conversationId), Participants, { fields: "participants" }).pipe(
        Effect.map((answer) => answer.participants.data)
      ),

    /**
     * A reply in Messenger, as a `RESPONSE` inside the 24-hour standard messaging window; the Send API
     * takes a JSON body. A lost answer may have been delivered, so it is never resent blindly.
     */
    sendMessage: (pageToken: Redacted.Redacted<string>, pageId: string, recipientId: string, text: string) =>
      send(
        HttpClientRequest.post(node(pageId, "messages")).pipe(
          bearer(pageToken),
          HttpClientRequest.bodyJsonUnsafe({ recipient: { id: recipientId }, messaging_type: "RESPONSE", message: { text } })
        ),
        Sent,
        "makesPost"
      ).pipe(Effect.map((sent) => sent.message_id))
  }
})

export type FacebookClient = Effect.Success<ReturnType<typeof make>>
