import { Adapter, type AdapterConfig, PublishError } from "@herald/adapter-kit"
import { Clock, Effect, Option, Redacted } from "effect"
import type { HttpClient } from "effect/http"
import * as Request from "./internal/request.ts"
import * as ThreadsClient from "./ThreadsClient.ts"
import { capabilities, limits } from "./ThreadsLimits.ts"

/**
 * Threads through the Threads API: Threads Login (code, short-lived token, long-lived token), then every
 * post as a container that Threads prepares (IN_PROGRESS until FINISHED) before `threads_publish`. Each
 * wait answers `Processing` and continues in `poll`; a first comment is a reply container published after.
 * https://developers.facebook.com/documentation/threads/posts
 */

const network = "threads"

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

    const published = (input: Adapter.PublishInput, mediaId: string) =>
      Effect.map(
        client.permalink(input.account.accessToken, mediaId),
        (url): Adapter.PublishStep => ({ _tag: "Published", published: { id: mediaId, url } })
      )

    const processing = (input: Adapter.PublishInput, progress: Request.Progress): Adapter.PublishStep => ({
      _tag: "Processing",
      handle: Request.encodeProgress(progress),
      checkAfterMs: Request.checkAfterMs(input.post)
    })

    const reconcile = (input: Adapter.PublishInput) =>
      Effect.map(
        client.recentThreads(input.account.accessToken),
        (threads) =>
          Option.map(
            Option.fromUndefinedOr(threads.find((thread) => Request.sameText(input.post.text, thread.text))),
            (thread) => ({ id: thread.id, url: thread.permalink ?? `${config.webBaseUrl}/@${input.account.username}` })
          )
      )

    /**
     * Looks at a container and goes on once Threads has it ready. `PUBLISHED` means an earlier step's
     * publish went through though its answer was lost; `onPublished` says what that step had made.
     */
    const whenReady = (
      input: Adapter.PublishInput,
      containerId: string,
      waiting: Request.Progress,
      onReady: Effect.Effect<Adapter.PublishStep, PublishError.PublishError>,
      onPublished: Effect.Effect<Adapter.PublishStep, PublishError.PublishError>
    ) =>
      Effect.flatMap(client.container(input.account.accessToken, containerId), (container) => {
        switch (container.status) {
          case "FINISHED":
            return onReady
          case "PUBLISHED":
            return onPublished
          case "IN_PROGRESS":
            return Effect.succeed(processing(input, waiting))
          default:
            // ERROR or EXPIRED (a container not published within 24 h).
            return Effect.fail(PublishError.rejected(
              network,
              container.error_message ?? `Threads could not prepare the post (${container.status})`
            ))
        }
      })

    /** The post is out; its first comment, if any, follows as a reply. */
    const afterPost = (input: Adapter.PublishInput, postId: string) => {
      const comment = Request.firstComment(input.post)
      if (comment === undefined) return published(input, postId)
      return Effect.flatMap(
        client.createContainer(input.account.accessToken, input.account.networkAccountId, Request.reply(comment, postId)),
        (containerId) => commentStep(input, postId, containerId)
      )
    }

    const commentStep = (input: Adapter.PublishInput, postId: string, containerId: string) =>
      whenReady(
        input,
        containerId,
        { _tag: "Comment", postId, containerId },
        Effect.flatMap(
          client.publish(input.account.accessToken, input.account.networkAccountId, containerId),
          () => published(input, postId)
        ),
        published(input, postId)
      )

    const postStep = (input: Adapter.PublishInput, containerId: string) =>
      whenReady(
        input,
        containerId,
        { _tag: "Post", containerId },
        Effect.flatMap(
          client.publish(input.account.accessToken, input.account.networkAccountId, containerId),
          (postId) => afterPost(input, postId)
        ),
        // Published by a step whose answer was lost: find the post rather than guess.
        Effect.flatMap(reconcile(input), (found) =>
          Option.match(found, {
            onNone: () =>
              Effect.fail(PublishError.outcomeUnknown(network, "the container was published but the post cannot be found")),
            onSome: (post) => Effect.succeed<Adapter.PublishStep>({ _tag: "Published", published: post })
          }))
      )

    /** Carousel items must all be FINISHED before the CAROUSEL container may name them. */
    const itemsStep = Effect.fnUntraced(function*(input: Adapter.PublishInput, itemIds: ReadonlyArray<string>) {
      const items = yield* Effect.forEach(itemIds, (id) => client.container(input.account.accessToken, id))
      const failed = items.find((item) => item.status === "ERROR" || item.status === "EXPIRED")
      if (failed !== undefined) {
        return yield* Effect.fail(PublishError.rejected(
          network,
          failed.error_message ?? `Threads could not prepare a carousel item (${failed.status})`
        ))
      }
      if (items.some((item) => item.status !== "FINISHED")) return processing(input, { _tag: "Items", itemIds })
      const containerId = yield* client.createContainer(
        input.account.accessToken,
        input.account.networkAccountId,
        Request.carousel(input.post.text, itemIds)
      )
      return yield* postStep(input, containerId)
    })

    const publish = Effect.fnUntraced(function*(input: Adapter.PublishInput) {
      const { accessToken, networkAccountId } = input.account
      const plan = Request.plan(input.post)
      if (plan._tag === "Single") {
        const containerId = yield* client.createContainer(accessToken, networkAccountId, plan.container)
        return yield* postStep(input, containerId)
      }
      const itemIds = yield* Effect.forEach(plan.items, (item) => client.createContainer(accessToken, networkAccountId, item))
      return processing(input, { _tag: "Items", itemIds })
    })

    const poll = (input: Adapter.PublishInput, handle: string) => {
      const progress = Request.decodeProgress(handle)
      if (progress === undefined) {
        return Effect.fail(PublishError.rejected(network, `unknown publishing handle "${handle}"`))
      }
      switch (progress._tag) {
        case "Items":
          return itemsStep(input, progress.itemIds)
        case "Post":
          return postStep(input, progress.containerId)
        case "Comment":
          return commentStep(input, progress.postId, progress.containerId)
      }
    }

    return Adapter.make({
      network,
      name: "Threads",
      limits,
      capabilities,
      oauth: {
        scopes: ThreadsClient.scopes,
        // Threads Login has no PKCE; the client secret authenticates the exchange.
        pkce: false,
        authorizeUrl: ({ redirectUri, state }) => {
          const url = new URL(`${config.authBaseUrl}/oauth/authorize`)
          url.searchParams.set("client_id", config.clientId)
          url.searchParams.set("redirect_uri", redirectUri)
          url.searchParams.set("scope", ThreadsClient.scopes.join(","))
          url.searchParams.set("response_type", "code")
          url.searchParams.set("state", state)
          return url.toString()
        },
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
      reconcile
    })
  })
