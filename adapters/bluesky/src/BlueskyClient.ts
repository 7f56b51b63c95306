import { type AdapterConfig, NetworkClient } from "@herald/adapter-kit"
import { Effect, Redacted, Schema } from "effect"
import { HttpClientRequest } from "effect/http"
import * as Errors from "./internal/errors.ts"

/**
 * Typed XRPC calls to a Bluesky PDS (https://docs.bsky.app/docs/api/at-protocol-xrpc-api). The address
 * comes from the config: `https://bsky.social` (the entryway, which proxies each account's own PDS and the
 * app view) or the sandbox simulator. Every call goes through the kit's `NetworkClient`; answers are decoded
 * with lenient schemas, refusals become `PublishError`s through `internal/errors.ts`.
 */

export const postCollection = "app.bsky.feed.post"

const Session = Schema.Struct({
  did: Schema.String,
  handle: Schema.String,
  accessJwt: Schema.String,
  refreshJwt: Schema.String
})
export type Session = typeof Session.Type

const Profile = Schema.Struct({
  did: Schema.String,
  handle: Schema.String,
  displayName: Schema.optional(Schema.String),
  avatar: Schema.optional(Schema.String)
})

const Resolved = Schema.Struct({ did: Schema.String })

const Blob = Schema.Record(Schema.String, Schema.Unknown)
const Uploaded = Schema.Struct({ blob: Blob })

const StrongRef = Schema.Struct({ uri: Schema.String, cid: Schema.String })
export type StrongRef = typeof StrongRef.Type

const PostValue = Schema.Struct({
  text: Schema.optional(Schema.String),
  createdAt: Schema.optional(Schema.String),
  reply: Schema.optional(Schema.Struct({ root: StrongRef, parent: StrongRef }))
})
export type PostValue = typeof PostValue.Type

const Records = Schema.Struct({
  records: Schema.Array(Schema.Struct({ uri: Schema.String, cid: Schema.String, value: PostValue })),
  cursor: Schema.optional(Schema.String)
})
export type ListedRecord = (typeof Records.Type)["records"][number]

const Author = Schema.Struct({ did: Schema.String, handle: Schema.String, displayName: Schema.optional(Schema.String) })

const Notifications = Schema.Struct({
  notifications: Schema.Array(Schema.Struct({
    uri: Schema.String,
    cid: Schema.String,
    author: Author,
    reason: Schema.String,
    record: PostValue,
    indexedAt: Schema.String
  })),
  cursor: Schema.optional(Schema.String)
})
export type Notification = (typeof Notifications.Type)["notifications"][number]

const Posts = Schema.Struct({
  posts: Schema.Array(Schema.Struct({ uri: Schema.String, cid: Schema.String, author: Author, record: PostValue }))
})

/** A record's rkey: the last segment of its `at://<did>/<collection>/<rkey>` URI. */
export const rkeyOf = (uri: string): string => uri.slice(uri.lastIndexOf("/") + 1)

/** The repo (DID) of an `at://` URI. */
export const repoOf = (uri: string): string => uri.replace(/^at:\/\//, "").split("/")[0] ?? ""

export const make = Effect.fnUntraced(function*(config: AdapterConfig.AdapterConfig) {
  const client = yield* NetworkClient.make({
    network: "bluesky",
    name: "Bluesky",
    refusal: Errors.refusal,
    resetHeader: { name: "ratelimit-reset", form: "epoch-seconds" },
    baseUrl: config.apiBaseUrl
  })
  const send = client.send
  const xrpc = (method: string) => `/xrpc/${method}`

  const bearer = (token: Redacted.Redacted<string>) => HttpClientRequest.bearerToken(token)

  return {
    /** The client underneath, for downloading a post's media with the same faults and tracing. */
    http: client.http,

    /**
     * An app password for a session: `com.atproto.server.createSession`. Tightly limited (30 per 5 minutes,
     * 300 a day per account, https://docs.bsky.app/docs/advanced-guides/rate-limits): Herald signs in once
     * at connect and renews the session with `refreshSession` after that.
     */
    createSession: (identifier: string, password: Redacted.Redacted<string>) =>
      send(
        HttpClientRequest.post(xrpc("com.atproto.server.createSession")).pipe(
          HttpClientRequest.bodyJsonUnsafe({ identifier, password: Redacted.value(password) })
        ),
        Session
      ),

    /** `com.atproto.server.refreshSession` with the refresh JWT as the bearer; the old one stops working. */
    refreshSession: (refreshJwt: Redacted.Redacted<string>) =>
      Effect.mapError(
        send(HttpClientRequest.post(xrpc("com.atproto.server.refreshSession")).pipe(bearer(refreshJwt)), Session),
        Errors.refreshRefused
      ),

    /** The account signed in: `com.atproto.server.getSession`, then its profile from the app view. */
    profile: (accessToken: Redacted.Redacted<string>) =>
      Effect.flatMap(
        send(
          HttpClientRequest.get(xrpc("com.atproto.server.getSession")).pipe(bearer(accessToken)),
          Schema.Struct({ did: Schema.String, handle: Schema.String })
        ),
        (session) =>
          send(
            HttpClientRequest.get(xrpc("app.bsky.actor.getProfile")).pipe(
              bearer(accessToken),
              HttpClientRequest.setUrlParam("actor", session.did)
            ),
            Profile
          )
      ),

    /** A handle's DID, for a mention facet; undefined for a handle that does not resolve. */
    resolveHandle: (handle: string) =>
      send(
        HttpClientRequest.get(xrpc("com.atproto.identity.resolveHandle")).pipe(HttpClientRequest.setUrlParam("handle", handle)),
        Resolved
      ).pipe(
        Effect.map((resolved): string | undefined => resolved.did),
        Effect.catchIf((error) => error.reason._tag === "Rejected", () => Effect.succeed(undefined))
      ),

    /** The bytes as a blob of the account's repo (`com.atproto.repo.uploadBlob`); unused blobs are dropped by the PDS. */
    uploadBlob: (accessToken: Redacted.Redacted<string>, body: Uint8Array, mimeType: string) =>
      Effect.map(
        send(
          HttpClientRequest.post(xrpc("com.atproto.repo.uploadBlob")).pipe(
            bearer(accessToken),
            HttpClientRequest.bodyUint8Array(body, mimeType)
          ),
          Uploaded
        ),
        (uploaded) => uploaded.blob
      ),

    /** `com.atproto.repo.createRecord` of an `app.bsky.feed.post`: the call that makes the post. */
    createPost: (accessToken: Redacted.Redacted<string>, repo: string, record: Readonly<Record<string, unknown>>) =>
      send(
        HttpClientRequest.post(xrpc("com.atproto.repo.createRecord")).pipe(
          bearer(accessToken),
          HttpClientRequest.bodyJsonUnsafe({ repo, collection: postCollection, record })
        ),
        StrongRef,
        "makesPost"
      ),

    /** The account's latest posts (replies included), newest first: `com.atproto.repo.listRecords`. */
    recentPosts: (accessToken: Redacted.Redacted<string>, repo: string, limit = 100) =>
      Effect.map(
        send(
          HttpClientRequest.get(xrpc("com.atproto.repo.listRecords")).pipe(
            bearer(accessToken),
            HttpClientRequest.setUrlParams({ repo, collection: postCollection, limit: String(limit) })
          ),
          Records
        ),
        (answer) => answer.records
      ),

    /** Posts by URI from the app view (`app.bsky.feed.getPosts`): a comment's cid and its thread's root. */
    posts: (accessToken: Redacted.Redacted<string>, uris: ReadonlyArray<string>) =>
      Effect.map(
        send(
          HttpClientRequest.get(xrpc("app.bsky.feed.getPosts")).pipe(
            bearer(accessToken),
            HttpClientRequest.setUrlParams({ uris: [...uris] })
          ),
          Posts
        ),
        (answer) => answer.posts
      ),

    /** `app.bsky.notification.listNotifications`, newest first; `cursor` pages to older ones. */
    notifications: (accessToken: Redacted.Redacted<string>, limit: number, cursor: string | undefined) =>
      send(
        HttpClientRequest.get(xrpc("app.bsky.notification.listNotifications")).pipe(
          bearer(accessToken),
          HttpClientRequest.setUrlParams({ limit: String(limit), ...(cursor === undefined ? {} : { cursor }) })
        ),
        Notifications
      )
  }
})

export type BlueskyClient = Effect.Success<ReturnType<typeof make>>
