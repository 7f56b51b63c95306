import { Clock, Effect, Option, Redacted } from "effect"
import type { HttpClient } from "effect/http"
import { Adapter, type AdapterConfig, type PostVersion, PublishError } from "@herald/adapter-kit"
import * as LinkedInClient from "./LinkedInClient.ts"
import { capabilities, limits } from "./LinkedInLimits.ts"
import * as Errors from "./internal/errors.ts"
import * as LittleText from "./internal/littleText.ts"
import * as Request from "./internal/request.ts"

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

type Step = Adapter.PublishStep

export const make = (config: AdapterConfig.AdapterConfig): Effect.Effect<Adapter.Adapter, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* LinkedInClient.make(config)

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

    /** Creates the post over uploaded media, then its first comment. */
    const createPost = Effect.fn("LinkedInAdapter.createPost")(function*(
      input: Adapter.PublishInput,
      mediaUrns: ReadonlyArray<string>
    ): Effect.fn.Return<Step, PublishError.PublishError> {
      const { account, post } = input
      const postUrn = yield* client.createPost(
        account.accessToken,
        Request.post({ personId: account.networkAccountId, post, mediaUrns })
      )
      if (post.firstComment !== null) {
        // The post is out: a failed comment must not fail it, or a retry would post it twice.
        yield* client.createComment(
          account.accessToken,
          postUrn,
          Request.comment({ personId: account.networkAccountId, postUrn, text: post.firstComment })
        ).pipe(
          Effect.catch((error) => Effect.logWarning(`LinkedIn first comment on ${postUrn} failed: ${error.message}`))
        )
      }
      return { _tag: "Published", published: { id: postUrn, url: Request.permalink(config.webBaseUrl, postUrn) } }
    })

    /** Images: initialize, then PUT the whole file. Answers the image URN. */
    const uploadImage = Effect.fn("LinkedInAdapter.uploadImage")(function*(
      account: Adapter.Account,
      item: PostVersion.MediaItem
    ) {
      const bytes = yield* client.download(item.url)
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
      const bytes = yield* client.download(item.url)
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

    /** The handle is the video URN: post once LinkedIn has processed it. */
    const poll = Effect.fn("LinkedInAdapter.poll")(function*(
      input: Adapter.PublishInput,
      handle: string
    ): Effect.fn.Return<Step, PublishError.PublishError> {
      const status = yield* client.videoStatus(input.account.accessToken, handle)
      if (status === "AVAILABLE") return yield* createPost(input, [handle])
      if (status === "PROCESSING_FAILED") {
        return yield* PublishError.rejected(Errors.network, "LinkedIn could not process the video")
      }
      return { _tag: "Processing", handle, checkAfterMs: videoCheckAfterMs }
    })

    /** Looks for the post among the member's recent ones, by its text as LinkedIn stores it. */
    const reconcile = Effect.fn("LinkedInAdapter.reconcile")(function*(input: Adapter.PublishInput) {
      const page = yield* client.postsByAuthor(input.account.accessToken, Request.personUrn(input.account.networkAccountId))
      const commentary = LittleText.escape(input.post.text)
      return Option.map(
        Option.fromNullishOr(page.elements.find((element) => element.commentary === commentary)),
        (element): Adapter.Published => ({ id: element.id, url: Request.permalink(config.webBaseUrl, element.id) })
      )
    })

    return Adapter.make({
      network: Errors.network,
      name: "LinkedIn",
      limits,
      capabilities,
      oauth: {
        scopes,
        // LinkedIn's PKCE support is for native apps; web apps use the client secret.
        pkce: false,
        authorizeUrl: ({ redirectUri, state }) => {
          const url = new URL(`${config.authBaseUrl}/oauth/v2/authorization`)
          url.searchParams.set("response_type", "code")
          url.searchParams.set("client_id", config.clientId)
          url.searchParams.set("redirect_uri", redirectUri)
          url.searchParams.set("state", state)
          url.searchParams.set("scope", scopes.join(" "))
          return url.toString()
        },
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
      reconcile
    })
  })
