import { Adapter, type AdapterConfig, PublishError } from "@herald/adapter-kit"
import { Duration, Effect, Option } from "effect"
import type * as ThreadsClient from "../ThreadsClient.ts"
import { replyChecks, unusable } from "./containers.ts"
import { inboxBounds } from "./inbox.ts"
import * as Request from "./request.ts"

/**
 * Publishing on Threads (`ThreadsAdapter` says how the steps go): `publish`, `poll` over the step handles
 * (`Items`, `Post`, `Posted`, `Comment`) and `reconcile` of a post whose answer was lost.
 */

const network = "threads"

export const make = (client: ThreadsClient.ThreadsClient, config: AdapterConfig.AdapterConfig) => {
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

  return { publish, poll, reconcile }
}
