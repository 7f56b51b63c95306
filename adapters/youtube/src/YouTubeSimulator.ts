import { Effect, Option, Schema } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { Simulator, SimulatorPage } from "@herald/adapter-kit"
import * as Comments from "./internal/simulatorComments.ts"
import {
  access,
  ChannelChange,
  controlError,
  googleError,
  type LongUploadsStatus,
  oauthError,
  request
} from "./internal/simulatorGoogle.ts"
import * as Uploads from "./internal/simulatorUploads.ts"
import * as YouTubeRules from "./YouTubeRules.ts"

// Google OAuth and the YouTube Data API v3 as Herald's sandbox serves them: PKCE consent with
// `access_type=offline`, non-rotating refresh tokens, resumable upload sessions (`Location`, 308 probes),
// thumbnails, `processingDetails` that move from `processing` to `succeeded` over a couple of polls, the
// uploads playlist, comment threads and replies over the kit's inbox state (no direct messages: YouTube
// has none), and Google's error bodies. Channel ids are the sandbox account ids (the kit's state keys
// accounts by them). Each channel has a `longUploadsStatus`, `eligible` (not verified) until
// `POST /_control/channel` changes it, as a new channel is: a video longer than 15 minutes, read from the
// uploaded file's movie header, is rejected after processing with `length` unless it is `allowed`.
// https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol
// https://developers.google.com/youtube/v3/docs/commentThreads/list

const network = "youtube"

export const simulator: Simulator.Make = ({ baseUrl }) => {
  const state = Simulator.makeState(network)
  const offlineCodes = state.table<true>("offlineCodes")
  const longUploads = state.table<LongUploadsStatus>("longUploads")
  const longUploadsOf = (accountId: string): LongUploadsStatus => longUploads.get(accountId) ?? "eligible"

  const { listing } = access(state)
  const { sendBytes, setThumbnail, startUpload, videoStatus } = Uploads.make({ baseUrl, longUploadsOf, state })
  const { commentThreads, insertComment, listComments } = Comments.make({ baseUrl, state })

  // The sandbox knows the signed-in channel only: another filter finds none.
  const channels = listing(YouTubeRules.listChannels, (check, params) => {
    const parts = (params["part"] ?? "").split(",")
    const { account } = check
    if (params["mine"] !== "true" && !(params["id"] ?? "").split(",").includes(account.id)) {
      return Simulator.json({ kind: "youtube#channelListResponse", items: [] })
    }
    const channel = {
      kind: "youtube#channel",
      id: account.id,
      ...(parts.includes("snippet") && {
        snippet: {
          title: account.displayName,
          customUrl: `@${account.username}`,
          thumbnails: { default: { url: `${baseUrl}/avatars/${account.id}.jpg` } }
        }
      }),
      ...(parts.includes("contentDetails") && { contentDetails: { relatedPlaylists: { uploads: `UU${account.id}` } } }),
      ...(parts.includes("status") && {
        status: { privacyStatus: "public", isLinked: true, longUploadsStatus: longUploadsOf(account.id) }
      })
    }
    return Simulator.json({ kind: "youtube#channelListResponse", items: [channel] })
  })

  /**
   * Sets a channel's `longUploadsStatus` (`allowed` stands for a verified channel), which no Data API call
   * changes: on YouTube the person verifies the channel (https://www.youtube.com/verify).
   */
  const changeChannel = Effect.gen(function*() {
    const body = yield* Effect.flatMap(request, (incoming) => Effect.orElseSucceed(incoming.json, () => null))
    const change = Schema.decodeUnknownOption(ChannelChange)(body)
    if (Option.isNone(change)) {
      return controlError(400, "invalid", "The JSON body needs username and longUploadsStatus (allowed, disallowed, eligible or longUploadsUnspecified)")
    }
    const account = state.accountByUsername(change.value.username)
    if (account === undefined || !(yield* Simulator.Reachable)(account)) {
      return controlError(404, "not_found", `No ${network} sandbox account is called ${change.value.username}`)
    }
    longUploads.set(account.id, change.value.longUploadsStatus)
    return Simulator.json({ username: account.username, longUploadsStatus: change.value.longUploadsStatus })
  })

  /** Where the refusal of a long video sends the person; the sandbox's channels are verified by a control call. */
  const verifyPage = HttpServerResponse.text(
    "Herald's YouTube sandbox: a sandbox channel uploads videos over 15 minutes once it is verified, with " +
      "POST /sandbox/youtube/_control/channel {\"username\": \"<channel>\", \"longUploadsStatus\": \"allowed\"} " +
      "(see docs/adapters/sandbox.md). A real channel is verified at https://www.youtube.com/verify.\n"
  )

  const playlistItems = listing(YouTubeRules.listPlaylistItems, (check, params) => {
    if (params["playlistId"] !== `UU${check.account.id}`) {
      return googleError(404, "playlistNotFound", "The playlist identified with the request's playlistId parameter cannot be found.", "NOT_FOUND")
    }
    const items = state.postsOf(check.account.id).slice(0, Number(params["maxResults"] ?? "5")).map((post) => ({
      kind: "youtube#playlistItem",
      snippet: {
        title: post.details["title"],
        description: post.text,
        resourceId: { kind: "youtube#video", videoId: post.id }
      }
    }))
    return Simulator.json({ kind: "youtube#playlistItemListResponse", items })
  })

  const authorize = Effect.map(Simulator.query, (params) => {
    const redirectUri = params["redirect_uri"]
    if (params["client_id"] === undefined || redirectUri === undefined || params["response_type"] !== "code") {
      return oauthError("invalid_request", "Missing required parameter: client_id, redirect_uri or response_type")
    }
    if (params["code_challenge"] !== undefined && params["code_challenge_method"] !== "S256") {
      return oauthError("invalid_request", "code_challenge_method must be S256")
    }
    const account = state.consent(params["sandbox_username"])
    const code = state.issueCode(account.id, redirectUri, params["code_challenge"])
    if (params["access_type"] === "offline") offlineCodes.set(code, true)
    const target = new URL(redirectUri)
    target.searchParams.set("code", code)
    target.searchParams.set("scope", params["scope"] ?? "")
    if (params["state"] !== undefined) target.searchParams.set("state", params["state"])
    return HttpServerResponse.redirect(target.toString(), { status: 302 })
  })

  const token = Effect.map(Simulator.formOrJson, (form) => {
    if (form["client_id"] === undefined || form["client_secret"] === undefined) {
      return Simulator.json({ error: "invalid_client", error_description: "The OAuth client was not found." }, 401)
    }
    const scope = [
      "https://www.googleapis.com/auth/youtube.upload",
      "https://www.googleapis.com/auth/youtube.readonly",
      "https://www.googleapis.com/auth/youtube.force-ssl"
    ].join(" ")
    if (form["grant_type"] === "refresh_token") {
      // Google keeps one refresh token per grant, good until revoked, and answers none on refresh:
      // https://developers.google.com/identity/protocols/oauth2/web-server#offline
      const grant = state.refresh(form["refresh_token"] ?? "", { reuse: true })
      if (grant === undefined) return oauthError("invalid_grant", "Token has been expired or revoked.")
      return Simulator.json({ access_token: grant.accessToken, expires_in: 3599, scope, token_type: "Bearer" })
    }
    const code = form["code"] ?? ""
    const grant = form["grant_type"] === "authorization_code"
      ? Simulator.redeem(state, { code, redirectUri: form["redirect_uri"], verifier: form["code_verifier"] })
      : undefined
    if (grant === undefined) return oauthError("invalid_grant", "Bad Request")
    const offline = offlineCodes.delete(code)
    return Simulator.json({
      access_token: grant.accessToken,
      expires_in: Math.round((grant.expiresAt - Date.now()) / 1000),
      ...(offline && { refresh_token: grant.refreshToken }),
      scope,
      token_type: "Bearer"
    })
  })

  return {
    network,
    state,
    routes: [
      HttpRouter.route("GET", "/o/oauth2/v2/auth", authorize),
      HttpRouter.route("POST", "/token", token),
      HttpRouter.route("GET", "/youtube/v3/channels", channels),
      HttpRouter.route("GET", "/youtube/v3/videos", videoStatus),
      HttpRouter.route("GET", "/youtube/v3/playlistItems", playlistItems),
      HttpRouter.route("POST", "/upload/youtube/v3/videos", startUpload),
      HttpRouter.route("PUT", "/upload/youtube/v3/videos", sendBytes),
      HttpRouter.route("POST", "/upload/youtube/v3/thumbnails/set", setThumbnail),
      HttpRouter.route("GET", "/youtube/v3/commentThreads", commentThreads),
      HttpRouter.route("POST", "/_control/channel", changeChannel),
      HttpRouter.route("GET", "/verify", Effect.succeed(verifyPage)),
      HttpRouter.route("GET", "/youtube/v3/comments", listComments),
      HttpRouter.route("POST", "/youtube/v3/comments", insertComment),
      // The link each video was given (`/watch?v={id}`). YouTube took the video's bytes, which the sandbox
      // does not keep: the page says what was uploaded.
      ...SimulatorPage.routes(["/watch"], {
        network: "YouTube",
        state,
        baseUrl,
        page: (post) =>
          SimulatorPage.ofPost(state, post, {
            network: "YouTube",
            handle: (username) => username,
            title: typeof post.details["title"] === "string" ? post.details["title"] : undefined,
            parts: [{ text: post.text, media: post.media.map((label) => ({ kind: "video", url: undefined, label: `Video (${label})` })) }],
            note: typeof post.details["privacy"] === "string" ? `Visibility: ${post.details["privacy"]}` : undefined
          })
      }),
      ...Simulator.controlRoutes(state)
    ]
  }
}
