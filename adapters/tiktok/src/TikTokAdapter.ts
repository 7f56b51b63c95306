import { Clock, Effect, Option, Redacted, Result } from "effect"
import type { HttpClient } from "effect/http"
import { Adapter, type AdapterConfig, OAuth2, PublishError } from "@herald/adapter-kit"
import * as Errors from "./internal/errors.ts"
import * as Request from "./internal/request.ts"
import * as TikTokClient from "./TikTokClient.ts"
import { api, capabilities, limits } from "./TikTokLimits.ts"
import * as TikTokOptions from "./TikTokOptions.ts"
import * as TikTokIcon from "./TikTokIcon.ts"

// TikTok through Login Kit v2 and the Content Posting API's Direct Post: query what the creator allows,
// initialise a post TikTok pulls from Herald's media URLs, then poll the `publish_id` until it is public.
//
// No `reconcile`: finding a post whose `init` answer was lost would need the `video.list` scope (an extra
// app review) and `POST /v2/video/list/` only lists public videos once moderation is done, so it cannot
// tell "never made" from "still processing" or "private". Instead an `init` that gets no answer fails as
// `OutcomeUnknown`, and once `init` answers, the `publish_id` is held by the engine and polled.
// https://developers.tiktok.com/doc/tiktok-api-v2-video-list

const network = "tiktok"

/**
 * `user.info.profile` is asked for because TikTok moved `username` out of `user.info.basic`, and the
 * permalink needs it. https://developers.tiktok.com/bulletin/user-info-scope-migration
 */
export const scopes = ["user.info.basic", "user.info.profile", "video.publish"] as const

/** TikTok says processing takes from seconds to minutes (moderation up to hours): poll gently. */
const pollAfterMs = 5_000

export const make = (config: AdapterConfig.AdapterConfig): Effect.Effect<Adapter.Adapter, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* TikTokClient.make(config)

    const toTokens = (answer: TikTokClient.TokenAnswer) =>
      Effect.map(Clock.currentTimeMillis, (now): Adapter.Tokens => ({
        accessToken: Redacted.make(answer.access_token),
        refreshToken: Option.some(Redacted.make(answer.refresh_token)),
        // TikTok's lifetimes changed between doc versions (24 h, now 2 h): trust `expires_in`.
        expiresAt: Option.some(now + answer.expires_in * 1000),
        scopes: answer.scope.split(",").filter((scope) => scope !== "")
      }))

    const creatorOf = (info: typeof TikTokClient.CreatorInfo.Type): Request.Creator => ({
      privacyLevelOptions: info.privacy_level_options,
      commentDisabled: info.comment_disabled === true,
      duetDisabled: info.duet_disabled === true,
      stitchDisabled: info.stitch_disabled === true,
      maxVideoPostDurationSec: info.max_video_post_duration_sec
    })

    const publish = Effect.fn("TikTokAdapter.publish")(function*({ account, post }: Adapter.PublishInput) {
      // Direct Post requires asking first; the answer limits the privacy levels and switches.
      const creator = creatorOf(yield* client.creatorInfo(account.accessToken))
      const init = Request.init(post, creator)
      if (Result.isFailure(init)) return yield* PublishError.rejected(network, init.failure)
      const publishId = yield* client.init(account.accessToken, init.success)
      return { _tag: "Processing", handle: publishId, checkAfterMs: pollAfterMs } satisfies Adapter.PublishStep
    })

    const poll = Effect.fn("TikTokAdapter.poll")(function*({ account, post }: Adapter.PublishInput, publishId: string) {
      const answer = yield* client.fetchStatus(account.accessToken, publishId)
      switch (answer.status) {
        case "FAILED":
          return yield* Errors.fromFailReason(answer.fail_reason ?? "", answer.message)
        // Direct Post ends at PUBLISH_COMPLETE; SEND_TO_USER_INBOX is the end of an upload-only post.
        case "PUBLISH_COMPLETE":
        case "SEND_TO_USER_INBOX": {
          const first = answer.publicaly_available_post_id?.[0]
          const postId = first === undefined ? undefined : String(first)
          const kind = post.media.some((item) => item.kind === "video") ? "video" : "photo"
          const published: Adapter.Published = {
            id: postId ?? publishId,
            url: Request.permalink(config.webBaseUrl, account.username, kind, postId)
          }
          return { _tag: "Published", published } satisfies Adapter.PublishStep
        }
        // PROCESSING_UPLOAD, PROCESSING_DOWNLOAD, and anything TikTok adds later.
        default:
          return { _tag: "Processing", handle: publishId, checkAfterMs: pollAfterMs } satisfies Adapter.PublishStep
      }
    })

    return Adapter.make({
      network,
      name: "TikTok",
      limits,
      api,
      capabilities,
      icon: TikTokIcon.svg,
      options: TikTokOptions.options,
      oauth: {
        scopes,
        // Login Kit for Web: a server-side app with a client secret and no PKCE (the desktop variant's
        // PKCE takes a hex challenge, not RFC 7636's base64url). https://developers.tiktok.com/doc/login-kit-web
        pkce: false,
        authorizeUrl: ({ redirectUri, state }) =>
          OAuth2.authorizeUrl({
            endpoint: `${config.authBaseUrl}/v2/auth/authorize/`,
            // TikTok names the client `client_key` and wants the scopes comma-separated.
            clientIdParam: "client_key",
            clientId: config.clientId,
            redirectUri,
            state,
            scopes,
            scopeSeparator: ","
          }),
        exchange: ({ code, redirectUri }) => Effect.flatMap(client.exchangeCode(code, redirectUri), toTokens),
        refresh: (refreshToken) => Effect.flatMap(client.refresh(refreshToken), toTokens),
        profile: (accessToken) =>
          Effect.map(client.userInfo(accessToken), ({ user }): Adapter.Profile => ({
            networkAccountId: user.open_id,
            username: user.username ?? user.open_id,
            displayName: user.display_name ?? null,
            avatarUrl: user.avatar_url ?? null
          }))
      },
      publish,
      poll
    })
  })
