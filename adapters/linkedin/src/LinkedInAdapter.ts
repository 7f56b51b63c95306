import { Clock, Effect, Option, Redacted } from "effect"
import { HttpClient } from "effect/http"
import { Adapter, type AdapterConfig, MediaDownload, OAuth2, type PostVersion, PublishError } from "@herald/adapter-kit"
import * as LinkedInClient from "./LinkedInClient.ts"
import { api, capabilities, limits } from "./LinkedInLimits.ts"
import * as Errors from "./internal/errors.ts"
import * as Inbox from "./internal/inbox.ts"
import * as LittleText from "./internal/littleText.ts"
import * as Request from "./internal/request.ts"
import * as LinkedInIcon from "./LinkedInIcon.ts"

// LinkedIn member posting through the Posts API: OAuth 2.0 with OpenID Connect for the profile, images and
// videos uploaded first (videos processed asynchronously), then one post, then an optional first comment.
// https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api
// The inbox (its bounds, its reads and its reply) is `internal/inbox.ts`'s; its bounds are exported here too.

/**
 * Sign In with LinkedIn using OpenID Connect gives `openid profile`; Share on LinkedIn gives
 * `w_member_social`. https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/share-on-linkedin
 */
export const scopes: ReadonlyArray<string> = ["openid", "profile", "w_member_social"]

/** Videos take seconds to minutes to process; LinkedIn has no callback for members, so Herald polls. */
export const videoCheckAfterMs = 5_000

export {
  inboxCommentPages,
  inboxCommentsPerPage,
  inboxPosts,
  inboxThreads,
  noDirectMessages
} from "./internal/inbox.ts"

type Step = Adapter.PublishStep

export const make = (config: AdapterConfig.AdapterConfig): Effect.Effect<Adapter.Adapter, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* LinkedInClient.make(config)
    const http = yield* HttpClient.HttpClient

    /** A Herald media item's bytes, from its public address, within LinkedIn's size for its kind. */
    const download = (item: PostVersion.MediaItem) =>
      MediaDownload.download(http, Errors.network, item.url, MediaDownload.maxBytesOf(limits.forms.post.media, item.kind))

    // Refresh tokens go only to approved partner apps, and LinkedIn may answer a refresh without one: the one
    // Herald has then stays valid until its own fixed expiry (`tokensOf` keeps it). LinkedIn lists the granted
    // scopes comma-separated.
    // https://learn.microsoft.com/en-us/linkedin/shared/authentication/programmatic-refresh-tokens
    const tokens = (answer: OAuth2.TokenAnswer, previousRefreshToken: Option.Option<Redacted.Redacted<string>>) =>
      Effect.map(Clock.currentTimeMillis, (now): Adapter.Tokens =>
        OAuth2.tokensOf(answer, { now, previousRefreshToken, requested: scopes, scopeSeparator: "," }))

    const publishedAs = (postUrn: string): Adapter.Published => ({ id: postUrn, url: Request.permalink(config.webBaseUrl, postUrn) })
    const published = (postUrn: string): Step => ({ _tag: "Published", published: publishedAs(postUrn) })
    /** The handle of the step that makes the first comment of the post whose URN follows. */
    const commentStep = "comment:"

    /**
     * The first comment, once the post is out. `lookFirst` where an earlier try may already have made it (a
     * post found after a crash, a resumed step): the post's comments are read first, and the member's own with
     * the same text counts. LinkedIn refusing it for good never fails a post that is out (it is logged); a
     * passing fault or a lost answer fails the step, which is then tried again (looking first).
     */
    const firstComment = (input: Adapter.PublishInput, postUrn: string, lookFirst: boolean) =>
      Effect.gen(function*() {
        const { account, post } = input
        if (post.firstComment === null) return
        const actor = Request.personUrn(account.networkAccountId)
        // The Comments API answers the text as readers see it; the escaped form is accepted too.
        const texts = [post.firstComment, LittleText.escape(post.firstComment)]
        if (lookFirst) {
          const comments = yield* client.comments(account.accessToken, { target: postUrn, start: 0, count: Inbox.inboxCommentsPerPage })
          const mine = comments.elements.some((comment) => comment.actor === actor && texts.includes(comment.message?.text ?? ""))
          if (mine) return
        }
        yield* client.createComment(account.accessToken, {
          target: postUrn,
          postUrn,
          body: Request.comment({ personId: account.networkAccountId, postUrn, text: post.firstComment })
        })
      }).pipe((part) => PublishError.refusalLogged(`LinkedIn did not take the first comment on ${postUrn}`, part))

    /**
     * Creates the post over uploaded media. The step ends there: the first comment is the next step's
     * (`comment:<post urn>`), so its failure never makes the post again.
     */
    const createPost = Effect.fn("LinkedInAdapter.createPost")(function*(
      input: Adapter.PublishInput,
      mediaUrns: ReadonlyArray<string>
    ): Effect.fn.Return<Step, PublishError.PublishError> {
      const { account, post } = input
      const postUrn = yield* client.createPost(
        account.accessToken,
        Request.post({ personId: account.networkAccountId, post, mediaUrns })
      )
      return input.post.firstComment === null ? published(postUrn) : Adapter.nextStep(`${commentStep}${postUrn}`)
    })

    /** The member's recent posts (newest first), where a lost post is looked for. */
    const recentPosts = (account: Adapter.Account) =>
      Effect.map(
        client.postsByAuthor(account.accessToken, Request.personUrn(account.networkAccountId), 50),
        (page) => page.elements
      )

    /** Images: initialize, then PUT the whole file. Answers the image URN. */
    const uploadImage = Effect.fn("LinkedInAdapter.uploadImage")(function*(
      account: Adapter.Account,
      item: PostVersion.MediaItem
    ) {
      const bytes = yield* download(item)
      const upload = yield* client.initializeImageUpload(
        account.accessToken,
        Request.initializeImageUpload(account.networkAccountId)
      )
      yield* client.upload({ uploadUrl: upload.uploadUrl, bytes, accessToken: account.accessToken })
      return upload.image
    })

    /**
     * Videos: initialize with the size, PUT each byte range LinkedIn asks for, then finalize with the
     * parts' ETags in order. Answers the video URN, which is processed before it can be posted.
     */
    const uploadVideo = Effect.fn("LinkedInAdapter.uploadVideo")(function*(
      account: Adapter.Account,
      item: PostVersion.MediaItem
    ) {
      const bytes = yield* download(item)
      const upload = yield* client.initializeVideoUpload(
        account.accessToken,
        Request.initializeVideoUpload(account.networkAccountId, bytes.length)
      )
      const partEtags = yield* Effect.forEach(upload.uploadInstructions, (instruction) =>
        client.upload({
          uploadUrl: instruction.uploadUrl,
          bytes: bytes.subarray(instruction.firstByte, instruction.lastByte + 1),
          accessToken: undefined
        }))
      yield* client.finalizeVideoUpload(
        account.accessToken,
        Request.finalizeVideoUpload({ videoUrn: upload.video, uploadToken: upload.uploadToken ?? "", partEtags })
      )
      return upload.video
    })

    const publish = Effect.fn("LinkedInAdapter.publish")(function*(
      input: Adapter.PublishInput
    ): Effect.fn.Return<Step, PublishError.PublishError> {
      const video = input.post.media.find((item) => item.kind === "video")
      if (video !== undefined) {
        const videoUrn = yield* uploadVideo(input.account, video)
        return { _tag: "Processing", handle: videoUrn, checkAfterMs: videoCheckAfterMs }
      }
      const imageUrns = yield* Effect.forEach(input.post.media, (item) => uploadImage(input.account, item))
      return yield* createPost(input, imageUrns)
    })

    /** The handle is the video URN (post once LinkedIn has processed it), or the post whose first comment is next. */
    const poll = Effect.fn("LinkedInAdapter.poll")(function*(
      input: Adapter.PublishInput,
      handle: string
    ): Effect.fn.Return<Step, PublishError.PublishError> {
      if (handle.startsWith(commentStep)) {
        const postUrn = handle.slice(commentStep.length)
        yield* firstComment(input, postUrn, input.resumed === true)
        return published(postUrn)
      }
      const status = yield* client.videoStatus(input.account.accessToken, handle)
      if (status === "AVAILABLE") {
        // After a poll cut off before its answer was recorded, the share may already exist: a video URN is
        // used by one post only, so the member's post showing it is that share. LinkedIn's refusal of
        // duplicate content is not documented (networks.md, 6.4), so it is no safeguard. A first try needs no
        // look (and the author finder wants a restricted scope, see the README).
        const shared = input.resumed === true
          ? (yield* PublishError.lookingFirst(Errors.network, "the video's share", recentPosts(input.account)))
            .find((element) => element.content?.media?.id === handle)
          : undefined
        if (shared === undefined) return yield* createPost(input, [handle])
        yield* firstComment(input, shared.id, true)
        return published(shared.id)
      }
      if (status === "PROCESSING_FAILED") {
        return yield* PublishError.rejected(Errors.network, "LinkedIn could not process the video")
      }
      return { _tag: "Processing", handle, checkAfterMs: videoCheckAfterMs }
    })

    /**
     * Looks for the post among the member's recent ones, by its text as LinkedIn stores it; a found post gets
     * its first comment made sure of, since the try that made it may have stopped between the two.
     */
    const reconcile = Effect.fn("LinkedInAdapter.reconcile")(function*(input: Adapter.PublishInput) {
      // Media alone matches any other such post: Herald must not guess.
      if (input.post.text.trim() === "") return yield* PublishError.nothingToLookFor(Errors.network, "LinkedIn")
      const commentary = LittleText.escape(input.post.text)
      const found = (yield* recentPosts(input.account)).find((element) => element.commentary === commentary)
      if (found === undefined) return Option.none<Adapter.Published>()
      // Reconcile answers the post as it is: a first comment that cannot be made now is logged, not failed.
      yield* Effect.catch(
        firstComment(input, found.id, true),
        (error) => Effect.logWarning(`LinkedIn did not take the first comment on ${found.id}`, error.message)
      )
      return Option.some(publishedAs(found.id))
    })

    return Adapter.make({
      network: Errors.network,
      name: "LinkedIn",
      limits,
      api,
      capabilities,
      icon: LinkedInIcon.svg,
      oauth: {
        scopes,
        // LinkedIn's PKCE support is for native apps; web apps use the client secret.
        pkce: false,
        authorizeUrl: ({ redirectUri, state }) =>
          OAuth2.authorizeUrl({
            endpoint: `${config.authBaseUrl}/oauth/v2/authorization`,
            clientId: config.clientId,
            redirectUri,
            state,
            scopes
          }),
        exchange: ({ code, redirectUri }) =>
          Effect.flatMap(client.exchangeCode({ code, redirectUri }), (answer) => tokens(answer, Option.none())),
        refresh: (refreshToken) =>
          Effect.flatMap(client.refresh(refreshToken), (answer) => tokens(answer, Option.some(refreshToken))),
        profile: (accessToken) =>
          Effect.map(client.userInfo(accessToken), (user): Adapter.Profile => ({
            networkAccountId: user.sub,
            // LinkedIn has no handle for members through OpenID; their name is how people know them.
            username: user.name ?? user.sub,
            displayName: user.name ?? null,
            avatarUrl: user.picture ?? null
          }))
      },
      publish,
      poll,
      reconcile,
      inbox: Inbox.make(client, config)
    })
  })
