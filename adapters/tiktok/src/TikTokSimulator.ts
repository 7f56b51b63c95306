import { Clock, Effect, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { Simulator, SimulatorPage, SimulatorRules, SimulatorState } from "@herald/adapter-kit"
import * as TikTokRules from "./TikTokRules.ts"

// TikTok's Login Kit v2 and Content Posting API as Herald's sandbox serves them: the same paths, the
// `{ data, error: { code, message, log_id } }` envelope, `publish_id`s that move from PROCESSING_DOWNLOAD to
// PUBLISH_COMPLETE (or FAILED) over a couple of polls, int64 post ids, and TikTok's own error codes.
// https://developers.tiktok.com/doc/content-posting-api-reference-direct-post

const network = "tiktok"

/** TikTok's limit on `init` calls: 6 per minute per access token. */
const initsPerMinute = 6
/**
 * The privacy levels creator_info/query offers a public account, which the sandbox's accounts are:
 * FOLLOWER_OF_CREATOR is for private accounts only.
 * https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info (read 2026-12-03)
 */
const privacyLevels = ["PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "SELF_ONLY"]

const PostInfo = Schema.Struct({
  title: Schema.optionalKey(Schema.String),
  description: Schema.optionalKey(Schema.String),
  privacy_level: Schema.optionalKey(Schema.String),
  disable_comment: Schema.optionalKey(Schema.Boolean),
  disable_duet: Schema.optionalKey(Schema.Boolean),
  disable_stitch: Schema.optionalKey(Schema.Boolean),
  brand_content_toggle: Schema.optionalKey(Schema.Boolean),
  brand_organic_toggle: Schema.optionalKey(Schema.Boolean)
})
const InitBody = Schema.Struct({
  media_type: Schema.optionalKey(Schema.String),
  post_mode: Schema.optionalKey(Schema.String),
  post_info: PostInfo,
  source_info: Schema.Struct({
    source: Schema.String,
    video_url: Schema.optionalKey(Schema.String),
    photo_images: Schema.optionalKey(Schema.Array(Schema.String))
  })
})
type InitBody = typeof InitBody.Type
const StatusBody = Schema.Struct({ publish_id: Schema.String })

interface Pending {
  readonly accountId: string
  readonly kind: "video" | "photo"
  readonly body: InitBody
  readonly failReason: string | undefined
  /** What the status answer's `error.message` says beside `fail_reason`. */
  readonly failMessage?: string | undefined
  polls: number
  postId: string | undefined
}

const logId = () => `2026${Math.random().toString(16).slice(2, 18).toUpperCase()}`
const ok = (data: unknown, message = "") => Simulator.json({ data, error: { code: "ok", message, log_id: logId() } })
const apiError = (status: number, code: string, message: string) =>
  Simulator.json({ data: {}, error: { code, message, log_id: logId() } }, status)
const tokenInvalid = () =>
  apiError(401, "access_token_invalid", "The access token is invalid or not found in the request.")

export const simulator: Simulator.Make = ({ baseUrl }) => {
  const state = Simulator.makeState(network)
  const pending = state.table<Pending>("pending", { mutable: true })
  const initTimes = state.table<Array<number>>("initTimes", { mutable: true })

  // Every API call needs a valid bearer token; TikTok answers expired and revoked tokens alike.
  const authenticated = <E, R>(
    handler: (check: Extract<SimulatorState.TokenCheck, { _tag: "Valid" }>, token: string) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ) =>
    Effect.flatMap(Simulator.accessToken, (token) => {
      const check = state.check(token)
      return check._tag === "Valid" && token !== undefined ? handler(check, token) : Effect.succeed(tokenInvalid())
    })

  /** The request's JSON body as sent (null when it is not JSON); the server bounds its size first. */
  const rawBody = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => Effect.orElseSucceed(request.json, () => null))
  const jsonBody = <A>(schema: Schema.Decoder<A>) => Effect.map(rawBody, (body) => Schema.decodeUnknownOption(schema)(body))

  /**
   * True when the user made a 7th `init` within a minute. Counted per user rather than per token, so a
   * token renewed mid-minute does not reset it; read from the `Clock`, so a test can run minutes in seconds.
   */
  const overRateLimit = (accountId: string, now: number) => {
    const recent = (initTimes.get(accountId) ?? []).filter((time) => now - time < 60_000)
    recent.push(now)
    initTimes.set(accountId, recent)
    return recent.length > initsPerMinute
  }

  const init = (kind: "video" | "photo") =>
    authenticated((check) =>
      Effect.map(Effect.zip(rawBody, Clock.currentTimeMillis), ([json, now]) => {
        if (overRateLimit(check.account.id, now)) {
          return apiError(429, "rate_limit_exceeded", "API rate limit was exceeded, please try again later.")
        }
        const refused = SimulatorRules.refusal(kind === "video" ? TikTokRules.videoInit : TikTokRules.photoInit, {
          body: json,
          privacyLevelOptions: privacyLevels
        })
        if (refused !== undefined) return apiError(refused.rule.answer.status, refused.rule.answer.code, refused.message)
        const decoded = Schema.decodeUnknownOption(InitBody)(json)
        if (Option.isNone(decoded)) return apiError(400, "invalid_param", "The request body is not valid.")
        const body = decoded.value
        const info = body.post_info
        // The sandbox serves no upload address: a video comes by its URL (TikTok takes FILE_UPLOAD too).
        if (body.source_info.source !== "PULL_FROM_URL") {
          return apiError(400, "invalid_param", "The sandbox takes source PULL_FROM_URL only.")
        }
        const caption = kind === "video" ? info.title ?? "" : info.description ?? info.title ?? ""
        let failReason: string | undefined
        let failMessage: string | undefined
        switch (state.trigger(caption, check.account.id)) {
          case "flaky":
            return apiError(500, "internal_error", "Something went wrong. Please try again later.")
          case "rate-limit":
            return apiError(429, "rate_limit_exceeded", "API rate limit was exceeded, please try again later.")
          case "revoke":
            return tokenInvalid()
          case "fail":
            // TikTok refuses content after accepting the init: the status turns FAILED.
            failReason = "spam_risk_text"
            failMessage = SimulatorState.refusal(caption)
        }
        const publishId = `${kind === "video" ? "v" : "p"}_pub_url~v2-1.${state.id()}`
        pending.set(publishId, { accountId: check.account.id, kind, body, failReason, failMessage, polls: 0, postId: undefined })
        return ok({ publish_id: publishId })
      })
    )

  const status = authenticated((check) =>
    Effect.map(jsonBody(StatusBody), (decoded) => {
      const entry = Option.isSome(decoded) ? pending.get(decoded.value.publish_id) : undefined
      if (entry === undefined || entry.accountId !== check.account.id) {
        return apiError(400, "invalid_publish_id", "The publish_id does not exist or belongs to another user.")
      }
      entry.polls++
      // TikTok pulls the media first; the post settles on the second poll.
      if (entry.polls < 2) return ok({ status: "PROCESSING_DOWNLOAD", uploaded_bytes: 0 })
      if (entry.failReason !== undefined) return ok({ status: "FAILED", fail_reason: entry.failReason }, entry.failMessage)
      // An upload (post_mode MEDIA_UPLOAD) waits in the creator's inbox for them to finish it in the app.
      if (entry.body.post_mode === "MEDIA_UPLOAD") return ok({ status: "SEND_TO_USER_INBOX" })
      const info = entry.body.post_info
      const isPublic = info.privacy_level !== "SELF_ONLY"
      if (entry.postId === undefined) {
        const postId = state.id()
        const profile = `${baseUrl}/@${check.account.username}`
        state.record({
          id: postId,
          accountId: entry.accountId,
          text: entry.kind === "video" ? info.title ?? "" : info.description ?? info.title ?? "",
          media: entry.kind === "video" ? [entry.body.source_info.video_url ?? ""] : entry.body.source_info.photo_images ?? [],
          replyTo: undefined,
          url: isPublic ? `${profile}/${entry.kind}/${postId}` : profile,
          details: { kind: entry.kind, privacy: info.privacy_level, title: info.title, postInfo: info }
        })
        entry.postId = postId
      }
      // Post ids are int64 numbers on the wire (too long for a JavaScript number): written out by hand.
      const ids = isPublic ? `[${entry.postId}]` : "[]"
      const text = JSON.stringify({
        data: { status: "PUBLISH_COMPLETE", publicaly_available_post_id: "IDS" },
        error: { code: "ok", message: "", log_id: logId() }
      }).replace(`"IDS"`, ids)
      return HttpServerResponse.text(text, { contentType: "application/json" })
    })
  )

  return {
    network,
    state,
    routes: [
      // The sandbox's control routes, as on every simulator: TikTok's API gives Herald no inbox, so items
      // injected here are kept but never read (they show that the sandbox takes them, nothing more).
      ...Simulator.controlRoutes(state),
      // The links posts were given: `/@{username}/video/{id}`, `/@{username}/photo/{id}`, or the profile
      // (`/@{username}`) for a post only its account sees.
      ...SimulatorPage.routes(["/:handle/video/:id", "/:handle/photo/:id", "/:handle"], {
        network: "TikTok",
        state,
        baseUrl,
        page: (post) =>
          SimulatorPage.ofPost(state, post, {
            network: "TikTok",
            title: post.details["kind"] === "photo" && typeof post.details["title"] === "string" ? post.details["title"] : undefined,
            note: post.details["privacy"] === "SELF_ONLY" ? "Only the account can see this post." : undefined
          })
      }),
      // The consent screen takes `client_key` (not `client_id`) and comma-separated scopes.
      HttpRouter.route("GET", "/v2/auth/authorize/", Effect.map(Simulator.query, (params) => {
        const redirectUri = params["redirect_uri"]
        if (params["client_key"] === undefined || redirectUri === undefined || params["response_type"] !== "code") {
          return Simulator.json({ error: "invalid_request", error_description: "client_key, redirect_uri and response_type=code are required" }, 400)
        }
        const account = state.consent(params["sandbox_username"])
        const target = new URL(redirectUri)
        target.searchParams.set("code", state.issueCode(account.id, redirectUri, undefined))
        target.searchParams.set("scopes", params["scope"] ?? "")
        if (params["state"] !== undefined) target.searchParams.set("state", params["state"])
        return HttpServerResponse.redirect(target.toString(), { status: 302 })
      })),
      HttpRouter.route("POST", "/v2/oauth/token/", Effect.map(Simulator.formOrJson, (form) => {
        if (form["client_key"] === undefined || form["client_secret"] === undefined) {
          return Simulator.json({ error: "invalid_client", error_description: "Client key or secret is missing.", log_id: logId() }, 401)
        }
        const grant = form["grant_type"] === "refresh_token"
          ? state.refresh(form["refresh_token"] ?? "")
          : form["grant_type"] === "authorization_code"
          ? Simulator.redeem(state, { code: form["code"], redirectUri: form["redirect_uri"] })
          : undefined
        if (grant === undefined) {
          return Simulator.json({ error: "invalid_grant", error_description: "Authorization code or refresh token is expired or invalid.", log_id: logId() }, 400)
        }
        return Simulator.json({
          open_id: grant.accountId,
          scope: "user.info.basic,user.info.profile,video.publish",
          access_token: grant.accessToken,
          expires_in: Math.round((grant.expiresAt - Date.now()) / 1000),
          refresh_token: grant.refreshToken,
          refresh_expires_in: 31_536_000,
          token_type: "Bearer"
        })
      })),
      HttpRouter.route("GET", "/v2/user/info/", authenticated((check) =>
        Effect.map(Simulator.query, (params) => {
          const user: Record<string, string> = {
            open_id: check.account.id,
            union_id: `union_${check.account.id}`,
            avatar_url: `${baseUrl}/avatars/${check.account.id}.jpeg`,
            display_name: check.account.displayName,
            username: check.account.username
          }
          // TikTok returns only the fields asked for.
          const fields = (params["fields"] ?? "").split(",")
          return ok({ user: Object.fromEntries(Object.entries(user).filter(([field]) => fields.includes(field))) })
        }))),
      HttpRouter.route("POST", "/v2/post/publish/creator_info/query/", authenticated((check) =>
        Effect.succeed(ok({
          creator_avatar_url: `${baseUrl}/avatars/${check.account.id}.jpeg`,
          creator_username: check.account.username,
          creator_nickname: check.account.displayName,
          privacy_level_options: privacyLevels,
          comment_disabled: false,
          duet_disabled: false,
          stitch_disabled: false,
          max_video_post_duration_sec: 600
        })))),
      HttpRouter.route("POST", "/v2/post/publish/video/init/", init("video")),
      HttpRouter.route("POST", "/v2/post/publish/content/init/", init("photo")),
      HttpRouter.route("POST", "/v2/post/publish/status/fetch/", status)
    ]
  }
}
