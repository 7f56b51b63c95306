import { Clock, Effect, Option, Redacted } from "effect"
import { HttpClient } from "effect/http"
import { Adapter, type AdapterConfig, MediaDownload, OAuth2, type PostVersion, PublishError } from "@herald/adapter-kit"
import * as LinkedInClient from "./LinkedInClient.ts"
import { api, capabilities, limits } from "./LinkedInLimits.ts"
import * as Errors from "./internal/errors.ts"
import * as InboxCursor from "./internal/inboxCursor.ts"
import * as LittleText from "./internal/littleText.ts"
import * as Request from "./internal/request.ts"
import * as LinkedInIcon from "./LinkedInIcon.ts"

// LinkedIn member posting through the Posts API: OAuth 2.0 with OpenID Connect for the profile, images and
// videos uploaded first (videos processed asynchronously), then one post, then an optional first comment.
// https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api

/**
 * Sign In with LinkedIn using OpenID Connect gives `openid profile`; Share on LinkedIn gives
 * `w_member_social`. https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/share-on-linkedin
 */
export const scopes: ReadonlyArray<string> = ["openid", "profile", "w_member_social"]

/** Videos take seconds to minutes to process; LinkedIn has no callback for members, so Herald polls. */
export const videoCheckAfterMs = 5_000

export const noDirectMessages =
  "LinkedIn's API does not offer direct messages: its messaging API is open to approved partners only"

/**
 * What one inbox poll reads, so a poll costs a bounded number of calls against LinkedIn's daily, unpublished
 * quotas: the comments on the member's most recent posts (up to `inboxCommentPages` pages of
 * `inboxCommentsPerPage` each), and the replies under the `inboxThreads` newest first-level comments that
 * have any (one page each). Comments on older posts, and replies in older threads, are not read.
 */
export const inboxPosts = 10
export const inboxCommentsPerPage = 100
export const inboxCommentPages = 3
export const inboxThreads = 20

type Step = Adapter.PublishStep

export const make = (config: AdapterConfig.AdapterConfig): Effect.Effect<Adapter.Adapter, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* LinkedInClient.make(config)
    const http = yield* HttpClient.HttpClient

    /** A Herald media item's bytes, from its public address, within LinkedIn's size for its kind. */
    const download = (item: PostVersion.MediaItem) =>
      MediaDownload.download(http, Errors.network, item.url, MediaDownload.maxBytesOf(limits.forms.post.media, item.kind))

    const tokens = (answer: LinkedInClient.TokenAnswer, previousRefreshToken: Option.Option<Redacted.Redacted<string>>) =>
      Effect.map(Clock.currentTimeMillis, (now): Adapter.Tokens => ({
        accessToken: Redacted.make(answer.access_token),
        // Refresh tokens go only to approved partner apps, and LinkedIn may answer a refresh without one:
        // the one Herald has then stays valid until its own fixed expiry.
        // https://learn.microsoft.com/en-us/linkedin/shared/authentication/programmatic-refresh-tokens
        refreshToken: answer.refresh_token === undefined
          ? previousRefreshToken
          : Option.some(Redacted.make(answer.refresh_token)),
        expiresAt: Option.some(now + answer.expires_in * 1_000),
        // LinkedIn lists the granted scopes comma-separated.
        scopes: answer.scope === undefined ? scopes : answer.scope.split(/[\s,]+/).filter((scope) => scope !== "")
      }))

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
          const comments = yield* client.comments(account.accessToken, { target: postUrn, start: 0, count: inboxCommentsPerPage })
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

    /** Every comment on a post (or reply to a comment), page after page, up to `pages` pages. */
    const readComments = Effect.fn("LinkedInAdapter.readComments")(function*(
      account: Adapter.Account,
      target: string,
      pages: number
    ) {
      const comments: Array<LinkedInClient.Comment> = []
      for (let page = 0; page < pages; page++) {
        const start = page * inboxCommentsPerPage
        const answer = yield* client.comments(account.accessToken, { target, start, count: inboxCommentsPerPage })
        comments.push(...answer.elements)
        const total = answer.paging?.total
        if (answer.elements.length < inboxCommentsPerPage || (total !== undefined && start + inboxCommentsPerPage >= total)) break
      }
      return comments
    })

    /**
     * A first-level comment whose replies are worth a call: it has some, or LinkedIn did not say (the
     * summary is optional), in which case Herald looks.
     */
    const mayHaveReplies = (comment: LinkedInClient.Comment): boolean => {
      if (comment.parentComment !== undefined) return false
      const summary = comment.commentsSummary
      return summary === undefined || (summary.aggregatedTotalComments ?? summary.totalFirstLevelComments ?? 1) > 0
    }

    /**
     * The Comments API names a comment's author only by URN (`urn:li:person:{id}`, or an organization's);
     * names of other members need LinkedIn's restricted profile APIs, so the URN stands for the username. A
     * person's id is the one OpenID's `sub` gives, so the member's own comments carry their account id.
     */
    const author = (account: Adapter.Account, actorUrn: string): Adapter.Person => {
      const id = Request.personIdOf(actorUrn) ?? actorUrn
      return id === account.networkAccountId
        ? { id, username: account.username, name: null }
        : { id, username: actorUrn, name: null }
    }

    const inboxComment = (account: Adapter.Account, postUrn: string, comment: LinkedInClient.Comment): Adapter.InboxComment => ({
      id: comment.commentUrn,
      // The post Herald listed: `object` may name the post's activity (`urn:li:activity:…`) instead.
      postId: postUrn,
      replyTo: comment.parentComment ?? null,
      author: author(account, comment.actor),
      text: comment.message?.text ?? "",
      permalink: Request.commentPermalink(config.webBaseUrl, postUrn, comment.commentUrn),
      createdAt: new Date(comment.created.time).toISOString()
    })

    /** Every comment within the inbox's bounds, each once, oldest first, with the post it is on. */
    const readInbox = Effect.fn("LinkedInAdapter.readInbox")(function*(account: Adapter.Account) {
      const posts = yield* client.postsByAuthor(account.accessToken, Request.personUrn(account.networkAccountId), inboxPosts)
      const onPosts = yield* Effect.forEach(
        posts.elements,
        (post) => Effect.map(readComments(account, post.id, inboxCommentPages), (comments) => ({ postUrn: post.id, comments })),
        { concurrency: 4 }
      )
      const threads = onPosts
        .flatMap(({ comments, postUrn }) => comments.filter(mayHaveReplies).map((comment) => ({ postUrn, comment })))
        .sort((a, b) => b.comment.created.time - a.comment.created.time)
        .slice(0, inboxThreads)
      const inThreads = yield* Effect.forEach(
        threads,
        ({ comment, postUrn }) => Effect.map(readComments(account, comment.commentUrn, 1), (comments) => ({ postUrn, comments })),
        { concurrency: 4 }
      )
      const byId = new Map<string, { readonly id: string; readonly time: number; readonly comment: Adapter.InboxComment }>()
      for (const { comments, postUrn } of [...onPosts, ...inThreads]) {
        for (const comment of comments) {
          byId.set(comment.commentUrn, {
            id: comment.commentUrn,
            time: comment.created.time,
            comment: inboxComment(account, postUrn, comment)
          })
        }
      }
      return [...byId.values()].sort((a, b) => a.time - b.time)
    })

    /**
     * LinkedIn has no feed of a member's incoming comments (and webhooks only for organization pages), so a
     * poll lists the comments on the member's recent posts and the replies in their newest threads, and
     * keeps what is newer than the cursor (see `internal/inboxCursor.ts`). The first poll (or one with a
     * cursor Herald did not make) answers no comments and a cursor of now, by Herald's clock, moved past
     * what LinkedIn already has: a comment stamped by a clock ahead of Herald's, or in the same millisecond,
     * is not news either.
     */
    const fetch = Effect.fn("LinkedInAdapter.inbox.fetch")(function*(input: {
      readonly account: Adapter.Account
      readonly cursor: string | null
    }): Effect.fn.Return<Adapter.InboxPage, PublishError.PublishError> {
      const since = input.cursor === null ? Option.none() : InboxCursor.decode(input.cursor)
      const read = yield* readInbox(input.account)
      if (Option.isNone(since)) {
        const now = InboxCursor.at(yield* Clock.currentTimeMillis)
        return { comments: [], messages: [], cursor: InboxCursor.encode(InboxCursor.advance(now, read)) }
      }
      const fresh = read.filter((item) => InboxCursor.isNew(since.value, item))
      return {
        comments: fresh.map((item) => item.comment),
        messages: [],
        cursor: InboxCursor.encode(InboxCursor.advance(since.value, fresh))
      }
    })

    /**
     * A reply under the comment, as the member. LinkedIn threads comments two levels deep, so an answer to a
     * reply goes under that reply's first-level comment.
     */
    const replyToComment = Effect.fn("LinkedInAdapter.inbox.replyToComment")(function*(input: {
      readonly account: Adapter.Account
      readonly comment: Adapter.InboxComment
      readonly text: string
    }) {
      const { account, comment } = input
      const parentComment = comment.replyTo ?? comment.id
      const id = yield* client.createComment(account.accessToken, {
        target: parentComment,
        postUrn: comment.postId,
        body: Request.reply({ personId: account.networkAccountId, postUrn: comment.postId, parentComment, text: input.text })
      })
      return { id, permalink: Request.commentPermalink(config.webBaseUrl, comment.postId, id) }
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
      inbox: {
        // Up to 51 calls a read against daily quotas LinkedIn does not publish: every 10 minutes.
        pollEveryMs: 10 * 60 * 1000,
        fetch,
        replyToComment,
        // LinkedIn's messaging API is open to approved partners only; members' messages cannot be read or sent.
        sendMessage: () => Effect.fail(PublishError.rejected(Errors.network, noDirectMessages))
      }
    })
  })
