import { Simulator, type SimulatorState } from "@herald/adapter-kit"
import { Effect } from "effect"
import { HttpRouter } from "effect/http"
import { randomBytes } from "node:crypto"
import { apiVersion } from "./InstagramConfig.ts"
import { graphError, instagramTime, invalid, isPublicUrl, missing, pick, tokenRefused } from "./internal/graphAnswers.ts"
import { scopes } from "./InstagramAdapter.ts"

// Instagram as Herald's sandbox serves it: the Instagram Login token endpoints and the Graph paths the
// adapter calls, with the same shapes, container processing and Graph error bodies. Plain code with the
// wall clock, like the kit's state: it stands for a remote system. Media URLs are checked for form, not
// fetched.

const network = "instagram"
const graph = (path: string): `/${string}` => `/${apiVersion}/${path}`

type ContainerKind = "IMAGE" | "REELS" | "STORIES" | "CAROUSEL" | "VIDEO"

interface Container {
  readonly id: string
  readonly accountId: string
  readonly kind: ContainerKind
  readonly caption: string
  readonly mediaUrls: ReadonlyArray<string>
  readonly carouselItem: boolean
  readonly createdAt: number
  /** Status reads left before processing ends: Instagram needs a moment, and longer for videos. */
  checksLeft: number
  status: "IN_PROGRESS" | "FINISHED" | "PUBLISHED"
}

const containerLifetimeMillis = 24 * 60 * 60 * 1000
/** Long-lived tokens last 60 days in Instagram; the sandbox keeps the state's own lifetime. */
const secondsLeft = (grant: SimulatorState.Grant) => Math.max(0, Math.round((grant.expiresAt - Date.now()) / 1000))

export const simulator: Simulator.Make = ({ baseUrl }) => {
  const state = Simulator.makeState(network)
  const containers = new Map<string, Container>()
  // Instagram Login has no refresh tokens; the kit's state does, so each token remembers its grant's.
  const refreshTokenOf = new Map<string, string>()
  const shortLived = new Set<string>()
  const remember = (grant: SimulatorState.Grant) => {
    refreshTokenOf.set(grant.accessToken, grant.refreshToken)
    return grant
  }
  const params = Effect.zipWith(Simulator.query, Simulator.formOrJson, (query, form) => ({ ...query, ...form }))
  const authenticated = Effect.map(Simulator.accessToken, (token) => state.check(token))
  const pathId = Effect.map(HttpRouter.params, (path) => path["id"] ?? "")

  const mediaNode = (post: SimulatorState.SimulatedPost) => ({
    id: post.id,
    caption: post.text,
    permalink: post.url,
    media_type: post.details["media_type"],
    media_product_type: post.details["media_product_type"],
    timestamp: instagramTime(post.createdAt)
  })

  const permalinkFor = (kind: ContainerKind, username: string, id: string) => {
    const shortcode = randomBytes(8).toString("base64url").slice(0, 11)
    if (kind === "STORIES") return `${baseUrl}/stories/${username}/${id}/`
    return kind === "REELS" ? `${baseUrl}/reel/${shortcode}/` : `${baseUrl}/p/${shortcode}/`
  }

  /** Validates a container request; answers the container or the Graph error Instagram gives. */
  const createContainer = (accountId: string, form: Record<string, string>) => {
    const mediaType = form["media_type"] ?? "IMAGE"
    const carouselItem = form["is_carousel_item"] === "true"
    const caption = form["caption"] ?? ""
    if ([...caption].length > 2_200) {
      return invalid("The caption is too long. Captions are limited to 2,200 characters.", 2207010)
    }
    const make = (kind: ContainerKind, mediaUrls: ReadonlyArray<string>, checksLeft: number) => {
      const container: Container = {
        id: state.id(),
        accountId,
        kind,
        caption,
        mediaUrls,
        carouselItem,
        createdAt: Date.now(),
        checksLeft,
        status: "IN_PROGRESS"
      }
      containers.set(container.id, container)
      return Simulator.json({ id: container.id })
    }
    const url = mediaType === "IMAGE" ? form["image_url"] : form["video_url"] ?? form["image_url"]
    switch (mediaType) {
      case "IMAGE":
      case "REELS":
      case "STORIES":
      case "VIDEO": {
        if (mediaType === "VIDEO" && !carouselItem) {
          return invalid("The VIDEO media type is only for carousel items; publish single videos as REELS.")
        }
        if ((mediaType === "REELS" || mediaType === "VIDEO") && form["video_url"] === undefined) {
          return invalid("The parameter video_url is required.")
        }
        if (!isPublicUrl(url)) {
          return graphError(400, {
            message: "Media download has failed. The media URI doesn't meet our requirements.",
            code: 9004,
            error_subcode: 2207052,
            error_user_title: "Media download failed",
            error_user_msg: "The media could not be fetched from the URI. Make sure it is public."
          })
        }
        return make(mediaType, [url!], form["video_url"] === undefined ? 2 : 3)
      }
      case "CAROUSEL": {
        const children = (form["children"] ?? "").split(",").filter((id) => id !== "").map((id) => containers.get(id))
        const usable = children.every((child) =>
          child !== undefined && child.accountId === accountId && child.carouselItem && child.status === "FINISHED"
        )
        if (children.length < 2 || children.length > 10 || !usable) {
          return invalid("The carousel needs 2 to 10 finished carousel items of this account.", 2207028)
        }
        return make("CAROUSEL", children.flatMap((child) => child!.mediaUrls), 2)
      }
      default:
        return invalid(`The media_type ${mediaType} is not supported.`, 2207023)
    }
  }

  /** `media_publish`: where the sandbox triggers answer, since the caption is known by then. */
  const publish = (account: SimulatorState.SimulatedAccount, creationId: string) => {
    const container = containers.get(creationId)
    if (container === undefined || container.accountId !== account.id || container.carouselItem) {
      return missing(creationId, "post")
    }
    if (Date.now() - container.createdAt > containerLifetimeMillis) {
      return graphError(400, { message: "The media container has expired.", code: 100, error_subcode: 2207008 })
    }
    if (container.status !== "FINISHED") {
      return graphError(400, {
        message: container.status === "PUBLISHED" ? "The media has already been published." : "Media ID is not available",
        code: 9007,
        error_subcode: container.status === "PUBLISHED" ? 2207006 : 2207027,
        error_user_msg: "The media is not ready for publishing, please wait for a moment"
      })
    }
    switch (state.trigger(container.caption, account.id)) {
      case "fail":
        return graphError(400, {
          message: "Media upload has failed with error code 2207051",
          code: 9,
          error_subcode: 2207051,
          error_user_title: "Action is blocked",
          error_user_msg: "We restrict certain activity to protect our community (the sandbox rejects #sandbox-fail)."
        })
      case "flaky":
        return graphError(500, {
          message: "An unexpected error has occurred. Please retry your request later.",
          code: 2,
          is_transient: true
        })
      case "revoke":
        return tokenRefused({ _tag: "Revoked" })
    }
    container.status = "PUBLISHED"
    const id = state.id()
    state.record({
      id,
      accountId: account.id,
      text: container.caption,
      media: container.mediaUrls,
      replyTo: undefined,
      url: permalinkFor(container.kind, account.username, id),
      details: {
        media_type: container.kind === "REELS" ? "VIDEO" : container.kind === "STORIES" ? "STORY" : container.kind === "CAROUSEL" ? "CAROUSEL_ALBUM" : "IMAGE",
        media_product_type: container.kind === "REELS" ? "REELS" : container.kind === "STORIES" ? "STORY" : "FEED",
        container: container.id
      }
    })
    return Simulator.json({ id })
  }

  /** A container's status (each read moves processing along) or a published media's fields. */
  const node = (account: SimulatorState.SimulatedAccount, id: string, fields: string | undefined) => {
    const container = containers.get(id)
    if (container !== undefined && container.accountId === account.id) {
      if (container.status === "IN_PROGRESS" && --container.checksLeft <= 0) container.status = "FINISHED"
      const expired = container.status !== "PUBLISHED" && Date.now() - container.createdAt > containerLifetimeMillis
      const statusCode = expired ? "EXPIRED" : container.status
      return Simulator.json(pick(fields, {
        id,
        status_code: statusCode,
        status: statusCode === "IN_PROGRESS" ? "In Progress" : statusCode === "FINISHED" ? "Finished" : statusCode === "EXPIRED" ? "Expired" : "Published"
      }))
    }
    const post = state.posts.get(id)
    if (post === undefined || post.accountId !== account.id || post.replyTo !== undefined) return missing(id, "get")
    return Simulator.json(pick(fields, mediaNode(post)))
  }

  return {
    network,
    state,
    routes: [
      HttpRouter.route("GET", "/oauth/authorize", Simulator.authorize(state)),
      HttpRouter.route("POST", "/oauth/access_token", Effect.map(Simulator.formOrJson, (form) => {
        const grant = form["client_secret"] === undefined || form["grant_type"] !== "authorization_code"
          ? undefined
          : Simulator.redeem(state, { code: form["code"], redirectUri: form["redirect_uri"] })
        if (grant === undefined) {
          return Simulator.json({ error_type: "OAuthException", code: 400, error_message: "Invalid authorization code" }, 400)
        }
        shortLived.add(remember(grant).accessToken)
        return Simulator.json({
          data: [{ access_token: grant.accessToken, user_id: grant.accountId, permissions: scopes.join(",") }]
        })
      })),
      HttpRouter.route("GET", "/access_token", Effect.map(Effect.zip(Simulator.query, authenticated), ([query, check]) => {
        if (query["grant_type"] !== "ig_exchange_token" || query["client_secret"] === undefined) {
          return invalid("Unsupported grant_type or missing client_secret")
        }
        if (check._tag !== "Valid") return tokenRefused(check)
        if (!shortLived.has(check.grant.accessToken)) return invalid("The access token is already long-lived.")
        const grant = state.refresh(refreshTokenOf.get(check.grant.accessToken) ?? "")
        if (grant === undefined) return tokenRefused({ _tag: "Revoked" })
        remember(grant)
        return Simulator.json({ access_token: grant.accessToken, token_type: "bearer", expires_in: secondsLeft(grant) })
      })),
      // Instagram refuses to refresh an expired token; the sandbox allows it so that a test can expire a
      // token and refresh it without waiting a day, as the conformance suite does.
      HttpRouter.route("GET", "/refresh_access_token", Effect.map(Effect.zip(Simulator.query, Simulator.accessToken), ([query, token]) => {
        if (query["grant_type"] !== "ig_refresh_token") return invalid("Unsupported grant_type")
        const refreshToken = token === undefined ? undefined : refreshTokenOf.get(token)
        if (token === undefined || refreshToken === undefined) return tokenRefused({ _tag: "Unknown" })
        if (shortLived.has(token)) return invalid("Short-lived tokens cannot be refreshed; exchange them first.")
        const grant = state.refresh(refreshToken)
        if (grant === undefined) return tokenRefused({ _tag: "Revoked" })
        remember(grant)
        return Simulator.json({ access_token: grant.accessToken, token_type: "bearer", expires_in: secondsLeft(grant) })
      })),
      HttpRouter.route("GET", graph("me"), Effect.gen(function*() {
        const check = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        const query = yield* Simulator.query
        const { account } = check
        return Simulator.json(pick(query["fields"], {
          id: account.id,
          user_id: account.id,
          username: account.username,
          name: account.displayName,
          account_type: "BUSINESS"
        }))
      })),
      HttpRouter.route("GET", graph("me/media"), Effect.gen(function*() {
        const check = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        const query = yield* Simulator.query
        const limit = Math.min(100, Number(query["limit"] ?? 25) || 25)
        const media = state.postsOf(check.account.id)
          .filter((post) => post.replyTo === undefined && post.details["media_product_type"] !== "STORY")
          .slice(0, limit)
        return Simulator.json({ data: media.map((post) => pick(query["fields"], mediaNode(post))), paging: { cursors: {} } })
      })),
      HttpRouter.route("GET", graph(":id"), Effect.gen(function*() {
        const check = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        const query = yield* Simulator.query
        return node(check.account, yield* pathId, query["fields"])
      })),
      HttpRouter.route("POST", graph(":id/media"), Effect.gen(function*() {
        const check = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        const id = yield* pathId
        if (id !== check.account.id) return missing(id, "post")
        return createContainer(check.account.id, yield* params)
      })),
      HttpRouter.route("POST", graph(":id/media_publish"), Effect.gen(function*() {
        const check = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        const id = yield* pathId
        if (id !== check.account.id) return missing(id, "post")
        return publish(check.account, (yield* params)["creation_id"] ?? "")
      })),
      HttpRouter.route("POST", graph(":id/comments"), Effect.gen(function*() {
        const check = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        const mediaId = yield* pathId
        const message = (yield* params)["message"] ?? ""
        const media = state.posts.get(mediaId)
        if (media === undefined || media.replyTo !== undefined) return missing(mediaId, "post")
        if (media.details["media_product_type"] === "STORY") return invalid("Stories cannot be commented on.")
        if (message.trim() === "") return invalid("The parameter message is required.")
        const id = state.id()
        state.record({ id, accountId: check.account.id, text: message, media: [], replyTo: mediaId, url: media.url, details: { kind: "comment" } })
        return Simulator.json({ id })
      }))
    ]
  }
}
