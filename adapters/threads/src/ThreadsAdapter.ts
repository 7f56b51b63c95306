import { Adapter, type AdapterConfig, OAuth2 } from "@herald/adapter-kit"
import { Clock, Effect, Option, Redacted } from "effect"
import type { HttpClient } from "effect/http"
import * as InboxHooks from "./internal/inboxHooks.ts"
import * as Publishing from "./internal/publishing.ts"
import * as Request from "./internal/request.ts"
import * as ThreadsClient from "./ThreadsClient.ts"
import { api, capabilities, limits } from "./ThreadsLimits.ts"
import * as ThreadsIcon from "./ThreadsIcon.ts"

/**
 * Threads through the Threads API: Threads Login (code, short-lived token, long-lived token), then every
 * post as a container that Threads prepares (IN_PROGRESS until FINISHED) before `threads_publish`. Each
 * wait answers `Processing` and continues in `poll`; a first comment is a reply container published after.
 * https://developers.facebook.com/documentation/threads/posts
 *
 * Once `threads_publish` has answered, the step ends there (`Posted`): reading the post's link and sending
 * the first comment are later steps, so a call of theirs that fails (an answer lost in transit included)
 * repeats only them, never the publish. Each later step is safe to repeat: a comment's container is looked
 * at before it is published, and a resumed step reads the post's replies before it makes one. The publish
 * step and a carousel's `Items` step end once their container is made, so the post's `threads_publish` always
 * runs in a `Post` step (`makesPost`), and a lost answer of it is settled by asking that container.
 *
 * The publishing steps are `internal/publishing.ts`'s, the inbox hooks `internal/inboxHooks.ts`'s; this
 * file puts them together with Threads Login.
 */

const network = "threads"

export { inboxBounds } from "./internal/inbox.ts"

export const make = (config: AdapterConfig.AdapterConfig): Effect.Effect<Adapter.Adapter, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* ThreadsClient.make(config)

    /** The long-lived token is its own refresh credential. */
    const tokens = (answer: ThreadsClient.LongLivedToken) =>
      Effect.map(Clock.currentTimeMillis, (now): Adapter.Tokens => {
        const accessToken = Redacted.make(answer.access_token)
        return {
          accessToken,
          refreshToken: Option.some(accessToken),
          expiresAt: Option.map(Option.fromUndefinedOr(answer.expires_in), (seconds) => now + seconds * 1000),
          scopes: [...ThreadsClient.scopes]
        }
      })

    const { poll, publish, reconcile } = Publishing.make(client, config)

    return Adapter.make({
      network,
      name: "Threads",
      limits,
      api,
      capabilities,
      icon: ThreadsIcon.svg,
      oauth: {
        scopes: ThreadsClient.scopes,
        // Threads Login has no PKCE; the client secret authenticates the exchange.
        pkce: false,
        authorizeUrl: ({ redirectUri, state }) =>
          OAuth2.authorizeUrl({
            endpoint: `${config.authBaseUrl}/oauth/authorize`,
            // Meta's login dialogs take the scopes comma-separated.
            scopes: ThreadsClient.scopes,
            scopeSeparator: ",",
            clientId: config.clientId,
            redirectUri,
            state
          }),
        exchange: ({ code, redirectUri }) =>
          client.exchangeCode(code, redirectUri).pipe(
            Effect.flatMap((shortLived) => client.longLived(shortLived.access_token)),
            Effect.flatMap(tokens)
          ),
        refresh: (refreshToken) => Effect.flatMap(client.refresh(refreshToken), tokens),
        profile: (accessToken) =>
          Effect.map(client.me(accessToken), (me) => ({
            networkAccountId: me.id,
            username: me.username,
            displayName: me.name ?? null,
            avatarUrl: me.threads_profile_picture_url ?? null
          }))
      },
      publish,
      poll,
      reconcile,
      // Only the `Post` step calls `threads_publish` for the post itself (a `Comment` step publishes a reply).
      makesPost: (handle) => Request.decodeProgress(handle)?._tag === "Post",
      inbox: InboxHooks.make(client, config)
    })
  })
