import { type AdapterConfig, NetworkClient, OAuth2 } from "@herald/adapter-kit"
import { Effect, Redacted, Schema } from "effect"
import { HttpClientRequest } from "effect/http"
import { apiVersion } from "./InstagramConfig.ts"
import * as Errors from "./internal/errors.ts"
import type { ContainerParams } from "./internal/request.ts"

// Typed calls to the Instagram API with Instagram Login. Answers are decoded with minimal, lenient
// schemas: only the fields Herald reads. Access tokens go in the `Authorization` header; the two token
// endpoints that only take them as query parameters get them as `Redacted` values, which traces hide.
// Reference: https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login

/** `POST /oauth/access_token`: a short-lived token (1 hour). Newer apps get it wrapped in `data`. */
const ShortLivedGrant = Schema.Struct({
  access_token: Schema.String,
  user_id: Schema.optionalKey(Schema.Union([Schema.String, Schema.Number])),
  permissions: Schema.optionalKey(Schema.Union([Schema.String, Schema.Array(Schema.String)]))
})
const ShortLivedToken = Schema.Union([ShortLivedGrant, Schema.Struct({ data: Schema.Tuple([ShortLivedGrant]) })])
export type ShortLivedGrant = typeof ShortLivedGrant.Type

/** The long-lived token (60 days), as both the exchange and the refresh answer it. */
const LongLivedToken = Schema.Struct({ access_token: Schema.String, expires_in: Schema.Number })
export type LongLivedToken = typeof LongLivedToken.Type

const Me = Schema.Struct({
  user_id: Schema.Union([Schema.String, Schema.Number]),
  username: Schema.String,
  name: Schema.optionalKey(Schema.String),
  profile_picture_url: Schema.optionalKey(Schema.String)
})
export type Me = typeof Me.Type

const Created = Schema.Struct({ id: Schema.String })

/** https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-container */
export const ContainerStatusCode = Schema.Literals(["IN_PROGRESS", "FINISHED", "ERROR", "EXPIRED", "PUBLISHED"])
const ContainerStatus = Schema.Struct({
  status_code: ContainerStatusCode,
  status: Schema.optionalKey(Schema.String)
})
export type ContainerStatus = typeof ContainerStatus.Type

const Permalink = Schema.Struct({ permalink: Schema.String })

const MediaList = Schema.Struct({
  data: Schema.Array(Schema.Struct({
    id: Schema.String,
    caption: Schema.optionalKey(Schema.String),
    permalink: Schema.optionalKey(Schema.String),
    comments_count: Schema.optionalKey(Schema.Number)
  }))
})
export type MediaList = typeof MediaList.Type

/** Graph times: ISO 8601 with a `+0000` offset for comments, and either that or Unix seconds for conversations. */
const GraphTime = Schema.Union([Schema.String, Schema.Number])

/** Someone on Instagram as messages and comments name them; `id` is their Instagram-scoped id (IGSID). */
const GraphPerson = Schema.Struct({ id: Schema.String, username: Schema.optionalKey(Schema.String) })

/** https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-comment */
const commentFields = "id,text,timestamp,username,from,parent_id"
const commentStruct = {
  id: Schema.String,
  text: Schema.optionalKey(Schema.String),
  timestamp: Schema.String,
  username: Schema.optionalKey(Schema.String),
  from: Schema.optionalKey(GraphPerson),
  parent_id: Schema.optionalKey(Schema.String)
}
const GraphReply = Schema.Struct(commentStruct)
export type GraphComment = typeof GraphReply.Type
const CommentList = Schema.Struct({
  data: Schema.Array(Schema.Struct({ ...commentStruct, replies: Schema.optionalKey(Schema.Struct({ data: Schema.Array(GraphReply) })) }))
})
export type CommentList = typeof CommentList.Type

/** https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/conversations-api */
const Conversations = Schema.Struct({ data: Schema.Array(Schema.Struct({ id: Schema.String, updated_time: GraphTime })) })
export type Conversations = typeof Conversations.Type

/** A message's fields (https://developers.facebook.com/docs/graph-api/reference/message). */
const GraphMessage = Schema.Struct({
  id: Schema.String,
  created_time: GraphTime,
  from: GraphPerson,
  message: Schema.optionalKey(Schema.String),
  attachments: Schema.optionalKey(Schema.Struct({ data: Schema.Array(Schema.Unknown) }))
})
export type GraphMessage = typeof GraphMessage.Type
const ConversationMessages = Schema.Struct({ messages: Schema.optionalKey(Schema.Struct({ data: Schema.Array(GraphMessage) })) })
const Participants = Schema.Struct({ participants: Schema.Struct({ data: Schema.Array(GraphPerson) }) })
const MessageSent = Schema.Struct({ message_id: Schema.String })
const Success = Schema.Struct({ success: Schema.Boolean })

export const make = Effect.fnUntraced(function*(config: AdapterConfig.AdapterConfig) {
  const graph = (path: string) => `${config.apiBaseUrl}/${apiVersion}/${path}`
  const bearer = (token: Redacted.Redacted<string>) => HttpClientRequest.bearerToken(Redacted.value(token))

  // `"makesPost"` marks calls whose lost answer must not be resent (the kit's lost-answer rule).
  const { send } = yield* NetworkClient.make({ network: "instagram", name: "Instagram", refusal: Errors.refusal })

  /** Creates a comment under `path` (a media's `comments` or a comment's `replies`); answers its id. */
  const postComment = (token: Redacted.Redacted<string>, path: string, message: string) =>
    send(
      HttpClientRequest.post(graph(path)).pipe(bearer(token), HttpClientRequest.bodyUrlParams({ message })),
      Created,
      "makesPost"
    ).pipe(Effect.map((created) => created.id))

  return {
    /** Redeems the consent screen's code. */
    shortLivedToken: (params: { readonly code: string; readonly redirectUri: string }) =>
      send(
        OAuth2.tokenRequest({
          endpoint: `${config.authBaseUrl}/oauth/access_token`,
          grant: { _tag: "AuthorizationCode", ...params },
          clientId: config.clientId,
          clientSecret: config.clientSecret,
          auth: "body"
        }),
        ShortLivedToken
      ).pipe(Effect.map((answer): ShortLivedGrant => "data" in answer ? answer.data[0] : answer)),

    /** Trades a short-lived token for a long-lived one. */
    longLivedToken: (shortLived: Redacted.Redacted<string>) =>
      send(
        HttpClientRequest.get(`${config.apiBaseUrl}/access_token`).pipe(
          HttpClientRequest.setUrlParams({
            grant_type: "ig_exchange_token",
            client_secret: config.clientSecret,
            access_token: shortLived
          })
        ),
        LongLivedToken
      ),

    /** A fresh long-lived token for a valid one (https://developers.facebook.com/docs/instagram-platform/reference/refresh_access_token). */
    refreshToken: (longLived: Redacted.Redacted<string>) =>
      send(
        HttpClientRequest.get(`${config.apiBaseUrl}/refresh_access_token`).pipe(
          HttpClientRequest.setUrlParams({ grant_type: "ig_refresh_token", access_token: longLived })
        ),
        LongLivedToken
      ),

    me: (token: Redacted.Redacted<string>) =>
      send(
        HttpClientRequest.get(graph("me")).pipe(
          bearer(token),
          HttpClientRequest.setUrlParam("fields", "user_id,username,name,profile_picture_url")
        ),
        Me
      ),

    /** Creates a media container; nothing is visible until it is published. */
    createContainer: (token: Redacted.Redacted<string>, userId: string, params: ContainerParams) =>
      send(
        HttpClientRequest.post(graph(`${encodeURIComponent(userId)}/media`)).pipe(
          bearer(token),
          HttpClientRequest.bodyUrlParams(params)
        ),
        Created
      ).pipe(Effect.map((created) => created.id)),

    containerStatus: (token: Redacted.Redacted<string>, containerId: string) =>
      send(
        HttpClientRequest.get(graph(encodeURIComponent(containerId))).pipe(
          bearer(token),
          HttpClientRequest.setUrlParam("fields", "status_code,status")
        ),
        ContainerStatus
      ),

    /** Publishes a finished container; answers the new media's id. */
    publishContainer: (token: Redacted.Redacted<string>, userId: string, containerId: string) =>
      send(
        HttpClientRequest.post(graph(`${encodeURIComponent(userId)}/media_publish`)).pipe(
          bearer(token),
          HttpClientRequest.bodyUrlParams({ creation_id: containerId })
        ),
        Created,
        "makesPost"
      ).pipe(Effect.map((created) => created.id)),

    /** The media's public link; the media id is not its shortcode, so the link is never built here. */
    permalink: (token: Redacted.Redacted<string>, mediaId: string) =>
      send(
        HttpClientRequest.get(graph(encodeURIComponent(mediaId))).pipe(
          bearer(token),
          HttpClientRequest.setUrlParam("fields", "permalink")
        ),
        Permalink
      ).pipe(Effect.map((answer) => answer.permalink)),

    comment: (token: Redacted.Redacted<string>, mediaId: string, message: string) =>
      postComment(token, `${encodeURIComponent(mediaId)}/comments`, message),

    /** `POST /{ig-comment-id}/replies` (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-comment/replies). */
    reply: (token: Redacted.Redacted<string>, commentId: string, message: string) =>
      postComment(token, `${encodeURIComponent(commentId)}/replies`, message),

    /** The account's latest feed media, newest first (what reconcile searches and the inbox reads comments of). */
    recentMedia: (token: Redacted.Redacted<string>, limit = 50) =>
      send(
        HttpClientRequest.get(graph("me/media")).pipe(
          bearer(token),
          HttpClientRequest.setUrlParams({ fields: "id,caption,permalink,comments_count", limit })
        ),
        MediaList
      ),

    /** One page of a media's top-level comments, each with the first page of its replies (field expansion). */
    comments: (token: Redacted.Redacted<string>, mediaId: string, limit: number) =>
      send(
        HttpClientRequest.get(graph(`${encodeURIComponent(mediaId)}/comments`)).pipe(
          bearer(token),
          HttpClientRequest.setUrlParams({ fields: `${commentFields},replies{${commentFields}}`, limit })
        ),
        CommentList
      ),

    /** The account's conversations, the most recently active first, with the time of their last message. */
    conversations: (token: Redacted.Redacted<string>, limit: number) =>
      send(
        HttpClientRequest.get(graph("me/conversations")).pipe(
          bearer(token),
          HttpClientRequest.setUrlParams({ platform: "instagram", fields: "id,updated_time", limit })
        ),
        Conversations
      ),

    /**
     * Turns on the app's webhook notifications of `fields` for the account, step 3 of Meta's setup guide
     * (https://developers.facebook.com/docs/instagram-platform/webhooks): without it Meta sends none for the
     * account, whatever the App Dashboard subscribes to. Idempotent; answers Meta's `success`.
     */
    subscribeApp: (token: Redacted.Redacted<string>, fields: ReadonlyArray<string>) =>
      send(
        HttpClientRequest.post(graph("me/subscribed_apps")).pipe(
          bearer(token),
          HttpClientRequest.setUrlParam("subscribed_fields", fields.join(","))
        ),
        Success
      ).pipe(Effect.map((answer) => answer.success)),

    /** A conversation's messages; Instagram gives only the 20 most recent. */
    messages: (token: Redacted.Redacted<string>, conversationId: string) =>
      send(
        HttpClientRequest.get(graph(encodeURIComponent(conversationId))).pipe(
          bearer(token),
          HttpClientRequest.setUrlParam("fields", "messages{id,created_time,from,message,attachments}")
        ),
        ConversationMessages
      ).pipe(Effect.map((answer) => answer.messages?.data ?? [])),

    /** Who takes part in a conversation: the account and the person it talks with. */
    participants: (token: Redacted.Redacted<string>, conversationId: string) =>
      send(
        HttpClientRequest.get(graph(encodeURIComponent(conversationId))).pipe(
          bearer(token),
          HttpClientRequest.setUrlParam("fields", "participants")
        ),
        Participants
      ).pipe(Effect.map((answer) => answer.participants.data)),

    /**
     * Sends a text message to a person by their Instagram-scoped id; answers the message's id. Sending is a
     * publishing call: a lost answer may still have delivered it.
     */
    sendMessage: (token: Redacted.Redacted<string>, userId: string, recipientId: string, text: string) =>
      send(
        HttpClientRequest.post(graph(`${encodeURIComponent(userId)}/messages`)).pipe(
          bearer(token),
          HttpClientRequest.bodyJsonUnsafe({ recipient: { id: recipientId }, message: { text } })
        ),
        MessageSent,
        "makesPost"
      ).pipe(Effect.map((sent) => sent.message_id))
  }
})

export type InstagramClient = Effect.Success<ReturnType<typeof make>>
