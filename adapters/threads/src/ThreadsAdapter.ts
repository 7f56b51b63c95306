import { Adapter, type AdapterConfig, OAuth2, PublishError } from "@herald/adapter-kit"
import { Clock, Duration, Effect, Option, Redacted } from "effect"
import type { HttpClient } from "effect/http"
import * as Errors from "./internal/errors.ts"
import * as Inbox from "./internal/inbox.ts"
import * as Request from "./internal/request.ts"
import * as Webhook from "./internal/webhook.ts"
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
 */

const network = "threads"

/**
 * What one inbox fetch reads: the replies to the account's 10 newest posts (1 + 10 calls a poll, well inside
 * Meta's per-profile call budget at one poll a minute; replies to older posts are not read), in pages of 50,
 * at most 4 pages a post. A post that got more than 200 replies between two polls loses the oldest of them.
 */
export const inboxBounds = { posts: 10, pageSize: 50, pagesPerPost: 4 } as const

/** Looks at a reply container this many times, a second apart, before giving up for a later try. */
const replyChecks = 5

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

    /** Where a post without its own link is found: the profile (networks.md's fallback). */
    const profileUrl = (username: string) => `${config.webBaseUrl}/@${username}`

    /** The post's link; a passing fault is tried again, a refusal falls back to the profile (logged). */
    const published = (input: Adapter.PublishInput, mediaId: string) =>
      client.permalink(input.account.accessToken, mediaId).pipe(
        Effect.catchIf(
          (error) => !error.retryable,
          (error) => Effect.as(Effect.logWarning("Threads published the post but did not give its link", error.message), undefined)
        ),
        Effect.map((url): Adapter.PublishStep => ({
          _tag: "Published",
          published: { id: mediaId, url: url ?? profileUrl(input.account.username) }
        }))
      )

    const processing = (input: Adapter.PublishInput, progress: Request.Progress): Adapter.PublishStep => ({
      _tag: "Processing",
      handle: Request.encodeProgress(progress),
      checkAfterMs: Request.checkAfterMs(input.post)
    })

    /**
     * The account's post with the post's text, among its recent ones. Media alone cannot be told from another
     * such post (nor found, where Threads lists it without `text`): the outcome is then unknown.
     */
    const findPost = (input: Adapter.PublishInput) =>
      input.post.text.trim() === ""
        ? Effect.fail(PublishError.nothingToLookFor(network, "Threads"))
        : Effect.map(
          client.recentThreads(input.account.accessToken),
          (threads) =>
            Option.map(
              Option.fromUndefinedOr(threads.find((thread) => Request.sameText(input.post.text, thread.text))),
              (thread): Adapter.Published => ({ id: thread.id, url: thread.permalink ?? profileUrl(input.account.username) })
            )
        )

    /** A container Threads could not prepare (ERROR) or that expired unpublished (EXPIRED, after 24 h). */
    const unusable = (container: ThreadsClient.Container, what: string) =>
      PublishError.rejected(network, Errors.containerFailure(container.error_message, what, container.status))

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
            return Effect.fail(unusable(container, "the post"))
        }
      })

    /** Whether the account already replied to the post with this text (a first comment a lost try made). */
    const alreadyReplied = (input: Adapter.PublishInput, postId: string, text: string) =>
      Effect.map(
        client.conversation(input.account.accessToken, postId, inboxBounds.pageSize, undefined),
        (page) =>
          page.replies.some((reply) =>
            (reply.is_reply_owned_by_me === true || reply.username === input.account.username) &&
            Request.sameText(text, reply.text)
          )
      )

    /** The post is out: the rest (its link, its first comment) is the next step's, never this one's. */
    const posted = (postId: string) => Adapter.nextStep(Request.encodeProgress({ _tag: "Posted", postId }))

    /**
     * A step of the first comment. Threads refusing it for good (or failing its container) never fails a post
     * that is out: it is logged and the post ends with its link; a passing fault or a lost answer fails the
     * step, which is tried again.
     */
    const commenting = (input: Adapter.PublishInput, postId: string, step: Effect.Effect<Adapter.PublishStep, PublishError.PublishError>) =>
      Effect.flatMap(
        PublishError.refusalLogged("Threads did not take the first comment", step),
        (answer) => answer === undefined ? published(input, postId) : Effect.succeed(answer)
      )

    /**
     * The post is out; its first comment, if any, follows as a reply. `lookFirst` where a lost try may
     * already have made that reply (a post found after a crash, a resumed step): its replies are read first.
     */
    const afterPost = (
      input: Adapter.PublishInput,
      postId: string,
      lookFirst = false
    ): Effect.Effect<Adapter.PublishStep, PublishError.PublishError> =>
      Effect.gen(function*() {
        const comment = Request.firstComment(input.post)
        if (
          comment === undefined ||
          (lookFirst && (yield* PublishError.lookingFirst(network, "the first comment", alreadyReplied(input, postId, comment))))
        ) {
          return yield* published(input, postId)
        }
        return yield* commenting(
          input,
          postId,
          Effect.flatMap(
            client.createContainer(input.account.accessToken, input.account.networkAccountId, Request.reply(comment, postId)),
            (containerId) => commentStep(input, postId, containerId)
          )
        )
      })

    /** A post a lost try made, found by `look`: the steps after it are finished, each looked for first. */
    const finished = (input: Adapter.PublishInput, look: Effect.Effect<Option.Option<Adapter.Published>, PublishError.PublishError>) =>
      Effect.flatMap(look, (found) =>
        Option.match(found, {
          onNone: () => Effect.succeed(Option.none<Adapter.Published>()),
          onSome: (post) =>
            Effect.gen(function*() {
              // The first comment's container may need a moment, as in `poll`; it is looked at a bounded number
              // of times, and a comment still not ready must not fail a post that is out (it is logged).
              let step = yield* afterPost(input, post.id, true)
              for (let check = 1; step._tag === "Processing"; check++) {
                if (check > replyChecks) {
                  yield* Effect.logWarning("Threads is still preparing the first comment of a post found after a crash; it is not posted")
                  return Option.some(post)
                }
                yield* Effect.sleep(Duration.millis(step.checkAfterMs))
                step = yield* poll({ ...input, resumed: true }, step.handle)
              }
              return Option.some(step.published)
            })
        }))

    /** The post a container Threads says is `PUBLISHED` became; not found, the outcome is unknown, never "absent". */
    const publishedPost = (input: Adapter.PublishInput) =>
      Effect.flatMap(findPost(input), (found) =>
        Option.isSome(found)
          ? Effect.succeed(found)
          : Effect.fail(PublishError.outcomeUnknown(network, "the container was published but the post cannot be found")))

    /**
     * The post a lost try may have made. After a `Post` step (the one that calls `threads_publish`) the
     * container says whether it was published: not yet, there is no post and the step may be sent again,
     * whatever the text; published, the post is found by its text. After `publish` it is looked for by its text.
     */
    const reconcile = (input: Adapter.ReconcileInput) => {
      const progress = input.handle === undefined ? undefined : Request.decodeProgress(input.handle)
      if (progress?._tag !== "Post") return finished(input, findPost(input))
      return Effect.flatMap(
        client.container(input.account.accessToken, progress.containerId),
        (container) => container.status === "PUBLISHED" ? finished(input, publishedPost(input)) : Effect.succeed(Option.none<Adapter.Published>())
      )
    }

    const commentStep = (input: Adapter.PublishInput, postId: string, containerId: string) =>
      whenReady(
        input,
        containerId,
        { _tag: "Comment", postId, containerId },
        // The link is the next step's: it finds the container `PUBLISHED`, as does a try after a lost answer here.
        Effect.as(
          client.publish(input.account.accessToken, input.account.networkAccountId, containerId),
          Adapter.nextStep(Request.encodeProgress({ _tag: "Comment", postId, containerId }))
        ),
        published(input, postId)
      )

    const postStep = (input: Adapter.PublishInput, containerId: string) =>
      whenReady(
        input,
        containerId,
        { _tag: "Post", containerId },
        Effect.map(
          client.publish(input.account.accessToken, input.account.networkAccountId, containerId),
          posted
        ),
        // Published by a step whose answer was lost: find the post rather than guess (a container does not
        // name the post it became, https://developers.facebook.com/documentation/threads/posts), then finish
        // what follows it.
        Effect.flatMap(publishedPost(input), (post) => afterPost(input, post.value.id, true))
      )

    /** The container is made: `threads_publish` is the `Post` step's, whose handle names the container reconcile asks. */
    const toPublish = (containerId: string) => Adapter.nextStep(Request.encodeProgress({ _tag: "Post", containerId }))

    /** Carousel items must all be FINISHED before the CAROUSEL container may name them. */
    const itemsStep = Effect.fnUntraced(function*(input: Adapter.PublishInput, itemIds: ReadonlyArray<string>) {
      // A step cut off by a Herald that published the carousel within this step may have made the post: look
      // before making another.
      if (input.resumed === true) {
        const found = yield* PublishError.lookingFirst(network, "the carousel", findPost(input))
        if (Option.isSome(found)) return yield* afterPost(input, found.value.id, true)
      }
      const items = yield* Effect.forEach(itemIds, (id) => client.container(input.account.accessToken, id))
      const failed = items.find((item) => item.status === "ERROR" || item.status === "EXPIRED")
      if (failed !== undefined) return yield* Effect.fail(unusable(failed, "a carousel item"))
      if (items.some((item) => item.status !== "FINISHED")) return processing(input, { _tag: "Items", itemIds })
      const containerId = yield* client.createContainer(
        input.account.accessToken,
        input.account.networkAccountId,
        Request.carousel(input.post.text, itemIds)
      )
      return toPublish(containerId)
    })

    const publish = Effect.fnUntraced(function*(input: Adapter.PublishInput) {
      const { accessToken, networkAccountId } = input.account
      const plan = Request.plan(input.post)
      if (plan._tag === "Single") {
        return toPublish(yield* client.createContainer(accessToken, networkAccountId, plan.container))
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
        case "Posted":
          return afterPost(input, progress.postId, input.resumed === true)
        case "Comment":
          return commenting(input, progress.postId, commentStep(input, progress.postId, progress.containerId))
      }
    }

    /**
     * A post's replies that are new since the cursor, reading its conversation newest first until a reply
     * older than the cursor (or the page bound), answered oldest first. Without a cursor only the first page
     * is read: its newest reply is what the first cursor needs.
     */
    const newReplies = Effect.fnUntraced(function*(account: Adapter.Account, postId: string, since: Inbox.Cursor | undefined) {
      const found: Array<ThreadsClient.Reply> = []
      let after: string | undefined
      for (let page = 0; page < inboxBounds.pagesPerPost; page++) {
        const answer = yield* client.conversation(account.accessToken, postId, inboxBounds.pageSize, after)
        if (since === undefined) return answer.replies
        found.push(...answer.replies.filter((reply) => Inbox.isNew(since, reply)))
        if (answer.after === undefined || answer.replies.some((reply) => Inbox.isOlder(since, reply))) break
        after = answer.after
      }
      return found.reverse()
    })

    const inbox: Adapter.InboxHooks = {
      /** Threads announces replies; the accounts it names are read at once, polling stays the safety net. */
      webhook: Webhook.make(config.clientSecret),

      fetch: Effect.fnUntraced(function*({ account, cursor }) {
        const since = cursor === null ? undefined : Inbox.decodeCursor(cursor)
        const posts = yield* client.recentThreads(account.accessToken, inboxBounds.posts)
        const perPost = yield* Effect.forEach(
          posts,
          (post) => Effect.map(newReplies(account, post.id, since), (replies) => replies.map((reply) => ({ post, reply }))),
          { concurrency: 3 }
        )
        const found = perPost.flat()
        const next = Inbox.advance(since ?? Inbox.start, found.map(({ reply }) => reply))
        // A first fetch (or one with a cursor from elsewhere) only learns where "now" is.
        const comments = since === undefined
          ? []
          : found
            .map(({ post, reply }) => Inbox.toComment(account, post.id, reply))
            // Stable, so replies of one post in the same second keep the order Threads listed them in.
            .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
        return { comments, messages: [], cursor: Inbox.encodeCursor(next) }
      }),

      /** A reply is a TEXT container with `reply_to_id`, published like a post; it counts against 1,000 replies a day. */
      replyToComment: Effect.fnUntraced(function*({ account, comment, text }) {
        const { accessToken, networkAccountId } = account
        const containerId = yield* client.createContainer(accessToken, networkAccountId, Request.reply(text, comment.id))
        for (let check = 1;; check++) {
          const container = yield* client.container(accessToken, containerId)
          if (container.status === "FINISHED") break
          if (container.status !== "IN_PROGRESS") return yield* Effect.fail(unusable(container, "the reply"))
          // An unpublished container expires on its own: trying again later makes a new one, never a second reply.
          if (check >= replyChecks) return yield* Effect.fail(PublishError.transient(network, "Threads is still preparing the reply"))
          yield* Effect.sleep("1 second")
        }
        const id = yield* client.publish(accessToken, networkAccountId, containerId)
        // The reply is out: a link that cannot be read now must not fail it, or a retry would reply twice.
        const permalink = yield* Effect.orElseSucceed(client.permalink(accessToken, id), () => undefined)
        return { id, permalink: permalink ?? null }
      }),

      sendMessage: () =>
        Effect.fail(PublishError.rejected(network, "The Threads API does not offer direct messages, so Herald cannot send one"))
    }

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
      inbox
    })
  })
