import { Adapter, type AdapterConfig, PublishError } from "@herald/adapter-kit"
import { Effect, Option, Redacted } from "effect"
import type { HttpClient } from "effect/http"
import * as FacebookClient from "./FacebookClient.ts"
import { apiVersion } from "./FacebookConfig.ts"
import { capabilities, limits } from "./FacebookLimits.ts"
import * as Request from "./internal/request.ts"

// Facebook Pages through the Graph API. The connected account is a Page: Facebook Login gives a user
// token, which is made long-lived and then yields the Page's own token, the one every publishing call
// uses (https://developers.facebook.com/docs/pages-api/getting-started).

const network = "facebook"

/** https://developers.facebook.com/docs/permissions */
export const scopes = [
  "pages_show_list",
  "pages_read_engagement",
  "pages_manage_posts",
  "pages_manage_engagement",
  "business_management"
] as const

/** The Page to connect: the first one on which the person may create content. */
const choosePage = (pages: ReadonlyArray<FacebookClient.Page>) =>
  pages.find((page) => page.tasks === undefined || page.tasks.includes("CREATE_CONTENT"))

export const make = (config: AdapterConfig.AdapterConfig): Effect.Effect<Adapter.Adapter, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* FacebookClient.make(config)

    /** Once the post exists: its link, then the first comment. Neither may fail a post that is already out. */
    const finish = Effect.fnUntraced(function*(input: Adapter.PublishInput, postId: string, permalink: string | undefined) {
      const token = input.account.accessToken
      const url = permalink !== undefined
        ? Request.absoluteUrl(config.webBaseUrl, permalink)
        : yield* client.permalink(token, postId).pipe(
          Effect.map((link) => Request.absoluteUrl(config.webBaseUrl, link)),
          Effect.catch((error) =>
            Effect.as(
              Effect.logWarning("Facebook published the post but did not give its link", error.message),
              `${config.webBaseUrl}/${encodeURIComponent(postId)}`
            )
          )
        )
      const firstComment = input.post.firstComment
      if (firstComment !== null && firstComment.trim() !== "") {
        yield* client.comment(token, postId, firstComment).pipe(
          Effect.catch((error) => Effect.logWarning("Facebook did not take the first comment", error.message))
        )
      }
      return { _tag: "Published", published: { id: postId, url } } satisfies Adapter.PublishStep
    })

    /** A video shows once Facebook has processed it. */
    const advance = Effect.fnUntraced(function*(input: Adapter.PublishInput, videoId: string) {
      const video = yield* client.videoStatus(input.account.accessToken, videoId)
      switch (video.status.video_status) {
        case "ready":
          return yield* finish(input, videoId, video.permalink_url)
        case "error":
          return yield* PublishError.rejected(network, "Facebook could not process the video; check its format (MP4 or MOV)")
        case "expired":
          return yield* PublishError.rejected(network, "the video upload expired before Facebook processed it")
        default:
          return {
            _tag: "Processing",
            handle: Request.encodeHandle(videoId),
            checkAfterMs: Request.videoCheckAfterMs
          } satisfies Adapter.PublishStep
      }
    })

    const reconcile = Effect.fnUntraced(function*(input: Adapter.PublishInput) {
      // A post without text would match any other media-only post: Herald must not guess.
      if (input.post.text.trim() === "") {
        return yield* PublishError.outcomeUnknown(
          network,
          "Facebook cannot tell whether this post went out (it has no text to look for); check the Page before retrying"
        )
      }
      const { accessToken, networkAccountId } = input.account
      const recent = yield* client.recentPosts(accessToken, networkAccountId)
      const match = recent.data.find((post) => Request.sameMessage(post.message, input.post.text))
      if (match === undefined) return Option.none<Adapter.Published>()
      const permalink = match.permalink_url ?? (yield* client.permalink(accessToken, match.id))
      return Option.some<Adapter.Published>({ id: match.id, url: Request.absoluteUrl(config.webBaseUrl, permalink) })
    })

    return Adapter.make({
      network,
      name: "Facebook Pages",
      limits,
      capabilities,
      oauth: {
        scopes,
        pkce: false,
        authorizeUrl: ({ redirectUri, state }) => {
          const url = new URL(`${config.authBaseUrl}/${apiVersion}/dialog/oauth`)
          url.searchParams.set("client_id", config.clientId)
          url.searchParams.set("redirect_uri", redirectUri)
          url.searchParams.set("response_type", "code")
          url.searchParams.set("scope", scopes.join(","))
          url.searchParams.set("state", state)
          return url.toString()
        },
        exchange: ({ code, redirectUri }) =>
          Effect.gen(function*() {
            const shortLived = yield* client.userToken({ code, redirectUri })
            const longLived = yield* client.longLivedUserToken(Redacted.make(shortLived.access_token))
            const page = choosePage(yield* client.pages(Redacted.make(longLived.access_token)))
            if (page === undefined) {
              return yield* PublishError.rejected(
                network,
                "the Facebook account manages no Page on which it may create content; grant Herald access to a Page"
              )
            }
            // A Page token read with a long-lived user token has no expiry and no refresh token.
            return {
              accessToken: Redacted.make(page.access_token),
              refreshToken: Option.none(),
              expiresAt: Option.none(),
              scopes
            } satisfies Adapter.Tokens
          }),
        profile: (token) =>
          Effect.map(client.page(token), (page) => ({
            networkAccountId: page.id,
            username: page.username ?? page.id,
            displayName: page.name,
            avatarUrl: page.picture?.data.url ?? null
          }))
      },
      publish: (input) =>
        Effect.gen(function*() {
          const { accessToken, networkAccountId } = input.account
          const plan = Request.plan(input.post)
          switch (plan._tag) {
            case "Text":
              return yield* finish(input, yield* client.feedPost(accessToken, networkAccountId, plan.feed), undefined)
            case "Photos": {
              const photoIds = yield* Effect.forEach(
                plan.photos,
                (photo) => client.uploadPhoto(accessToken, networkAccountId, photo),
                { concurrency: 4 }
              )
              const postId = yield* client.feedPost(accessToken, networkAccountId, Request.feedWithPhotos(plan.message, photoIds))
              return yield* finish(input, postId, undefined)
            }
            case "Video":
              return yield* advance(input, yield* client.uploadVideo(accessToken, networkAccountId, plan.video))
          }
        }),
      poll: (input, handle) => {
        const videoId = Request.decodeHandle(handle)
        return videoId === undefined
          ? Effect.fail(PublishError.outcomeUnknown(network, `unrecognised processing handle "${handle}"`))
          : advance(input, videoId)
      },
      reconcile
    })
  })
