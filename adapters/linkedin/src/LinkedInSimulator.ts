import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { Simulator, SimulatorPage, SimulatorRules, SimulatorState } from "@herald/adapter-kit"
import * as LittleText from "./internal/littleText.ts"
import * as LinkedInRules from "./LinkedInRules.ts"
import * as Request from "./internal/request.ts"
import * as Comments from "./internal/simulatorComments.ts"
import { body, broken, failure, forbidden, pathParam, PostRequest, refuse, unprocessable } from "./internal/simulatorRest.ts"
import * as Uploads from "./internal/simulatorUploads.ts"

// LinkedIn's API as Herald's sandbox serves it, under the simulator's root: OAuth (`/oauth/v2/*`), OpenID
// userinfo (`/v2/userinfo`), the versioned REST API (`/rest/*`) with its headers and error bodies, and the
// upload addresses it hands out (`/dms-uploads/*`), as the real `www.linkedin.com/dms-uploads` ones. Comments
// live in the kit's inbox state, read and written through the Comments API (`/rest/socialActions/*`); there
// is no messaging API, as for LinkedIn apps that are not approved partners.

const network = "linkedin"

/** LinkedIn splits video uploads into parts of 4 MiB. A test can ask for smaller parts. */
export const defaultVideoPartBytes = 4 * 1024 * 1024

export interface Options extends Simulator.Options {
  readonly videoPartBytes?: number
}

export const make = (options: Options): Simulator.Simulator => {
  const state = Simulator.makeState(network)
  const uploads = new Uploads.Uploads(state, options.baseUrl, options.videoPartBytes ?? defaultVideoPartBytes)

  /** Runs a handler for the member whose bearer token the request carries. */
  const member = Simulator.authenticated(state, refuse)

  /** A versioned REST call: the member, and the headers every `/rest` call needs. */
  const rest = <E, R>(
    handler: (account: SimulatorState.SimulatedAccount) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ) =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const refused = SimulatorRules.refusal(LinkedInRules.headers, {
        version: request.headers["linkedin-version"],
        protocol: request.headers["x-restli-protocol-version"],
        now: Date.now()
      })
      return refused === undefined ? member(handler) : Effect.succeed(broken(refused))
    })

  const action = Effect.map(Simulator.query, (query) => query["action"])
  const owns = (account: SimulatorState.SimulatedAccount, urn: string) => urn === Request.personUrn(account.id)

  /** LinkedIn's answer to a sandbox trigger in a post's or a comment's text; undefined when it has none. */
  const triggered = (text: string, accountId: string) => {
    switch (state.trigger(text, accountId)) {
      case "fail":
        return unprocessable(SimulatorState.refusal(text))
      case "flaky":
        return failure(503, "Service temporarily unavailable, try again later")
      case "rate-limit":
        return failure(429, "Resource level throttle APPLICATION DAY limit for calls to this resource is reached.")
      case "revoke":
        return refuse({ _tag: "Revoked" })
    }
    return undefined
  }

  const createPost = (account: SimulatorState.SimulatedAccount) =>
    Effect.gen(function*() {
      const decoded = yield* body(LinkedInRules.createPost, account, PostRequest)
      if (decoded._tag === "Refused") return decoded.response
      const post = decoded.value
      // What readers will see: LinkedIn cuts the text at an unescaped reserved character.
      const text = LittleText.read(post.commentary)
      const refused = triggered(text, account.id)
      if (refused !== undefined) return refused
      const media = post.content?.multiImage !== undefined
        ? post.content.multiImage.images.map((image) => image.id)
        : post.content?.media !== undefined
        ? [post.content.media.id]
        : []
      const unusable = media.find((urn) => !uploads.usable(urn, account.id, post.content?.multiImage !== undefined))
      if (unusable !== undefined) {
        return unprocessable(`ERROR :: /content :: ${unusable} is not uploaded, not processed, or not yours`)
      }
      const duplicate = state.postsWithText(account.id, text).find((earlier) =>
        earlier.replyTo === undefined && text !== "" &&
        earlier.media.join() === media.join()
      )
      if (duplicate !== undefined) {
        return failure(422, `Content is a duplicate of ${duplicate.id}`, { code: "DUPLICATE_POST" })
      }
      const id = `urn:li:share:${state.id()}`
      state.record({
        id,
        accountId: account.id,
        text,
        media,
        replyTo: undefined,
        url: Request.permalink(options.baseUrl, id),
        details: { commentary: post.commentary, visibility: post.visibility, content: post.content }
      })
      return HttpServerResponse.empty({ status: 201, headers: { "x-restli-id": id } })
    })

  const postsByAuthor = (account: SimulatorState.SimulatedAccount) =>
    Effect.gen(function*() {
      const query = yield* Simulator.query
      if (query["q"] !== "author" || query["author"] === undefined) {
        return failure(400, "The finder needs q=author and an author", { code: "ILLEGAL_ARGUMENT" })
      }
      if (!owns(account, query["author"])) return forbidden("partnerApiPostsExternal.FINDER-author")
      const count = Math.min(Number(query["count"] ?? "10") || 10, 100)
      const posts = state.postsOf(account.id).filter((post) => post.replyTo === undefined)
      return Simulator.json({
        elements: posts.slice(0, count).map((post) => ({
          id: post.id,
          author: query["author"],
          commentary: post.details["commentary"],
          visibility: post.details["visibility"],
          ...(post.details["content"] === undefined ? {} : { content: post.details["content"] }),
          lifecycleState: "PUBLISHED",
          createdAt: post.createdAt
        })),
        paging: { start: 0, count, links: [] }
      })
    })

  const { createComment, listComments } = Comments.make({ state, triggered })

  return {
    network,
    state,
    routes: [
      HttpRouter.route("GET", "/oauth/v2/authorization", Effect.flatMap(Simulator.query, (query) =>
        query["response_type"] === "code" && query["scope"] !== undefined
          ? Simulator.authorize(state)
          : Effect.succeed(Simulator.json({
            error: "invalid_request",
            error_description: "response_type=code and scope are required"
          }, 400)))),
      HttpRouter.route("POST", "/oauth/v2/accessToken", Effect.map(Simulator.formOrJson, (form) => {
        if (form["client_id"] === undefined || form["client_secret"] === undefined) {
          return Simulator.json({ error: "invalid_client", error_description: "Client authentication failed" }, 401)
        }
        const grant = form["grant_type"] === "refresh_token"
          // LinkedIn keeps the refresh token of the first authorization (its lifetime fixed from then), so
          // it serves every refresh: https://learn.microsoft.com/en-us/linkedin/shared/authentication/programmatic-refresh-tokens
          ? state.refresh(form["refresh_token"] ?? "", { reuse: true })
          : form["grant_type"] === "authorization_code"
          ? Simulator.redeem(state, { code: form["code"], redirectUri: form["redirect_uri"] })
          : undefined
        if (grant === undefined) {
          return Simulator.json({
            error: "invalid_grant",
            error_description: "The provided authorization grant or refresh token is invalid, expired or revoked"
          }, 400)
        }
        // As for an approved partner app: LinkedIn gives refresh tokens only to those.
        return Simulator.json({
          access_token: grant.accessToken,
          expires_in: Math.round(state.accessTokenMillis / 1_000),
          refresh_token: grant.refreshToken,
          refresh_token_expires_in: 365 * 24 * 60 * 60,
          scope: "openid,profile,w_member_social",
          token_type: "Bearer"
        })
      })),
      HttpRouter.route("GET", "/v2/userinfo", member((account) =>
        Effect.succeed(Simulator.json({
          sub: account.id,
          // The sandbox account's username stands for the member's name.
          name: account.username,
          given_name: account.username,
          family_name: "",
          picture: `${options.baseUrl}/media/avatars/${account.id}.jpg`,
          locale: { country: "US", language: "en" }
        })))),
      HttpRouter.route("POST", "/rest/posts", rest(createPost)),
      HttpRouter.route("GET", "/rest/posts", rest(postsByAuthor)),
      HttpRouter.route("GET", "/rest/socialActions/:target/comments", rest(listComments)),
      HttpRouter.route("POST", "/rest/socialActions/:target/comments", rest(createComment)),
      HttpRouter.route("POST", "/rest/images", rest((account) =>
        Effect.gen(function*() {
          if ((yield* action) !== "initializeUpload") return failure(400, "Unknown action", { code: "ILLEGAL_ARGUMENT" })
          const decoded = yield* body(LinkedInRules.initializeImage, account, Uploads.InitializeImage)
          if (decoded._tag === "Refused") return decoded.response
          return Simulator.json({ value: uploads.initializeImage(account.id) })
        }))),
      HttpRouter.route("POST", "/rest/videos", rest((account) =>
        Effect.gen(function*() {
          const which = yield* action
          if (which === "initializeUpload") {
            const decoded = yield* body(LinkedInRules.initializeVideo, account, Uploads.InitializeVideo)
            if (decoded._tag === "Refused") return decoded.response
            const request = decoded.value.initializeUploadRequest
            // The sandbox's own bound, so that a video's parts are counted before they are laid out.
            if (request.fileSizeBytes > Uploads.maxVideoBytes) {
              return failure(400, `The sandbox takes videos of up to ${Uploads.maxVideoBytes} bytes`, { code: "ILLEGAL_ARGUMENT" })
            }
            return Simulator.json({ value: uploads.initializeVideo(account.id, request.fileSizeBytes) })
          }
          if (which === "finalizeUpload") {
            const decoded = yield* body(LinkedInRules.finalizeVideo, account, Uploads.FinalizeVideo)
            if (decoded._tag === "Refused") return decoded.response
            const problem = uploads.finalizeVideo(account.id, decoded.value.finalizeUploadRequest)
            return problem === undefined
              ? HttpServerResponse.empty({ status: 200 })
              : failure(400, problem, { code: "ILLEGAL_ARGUMENT" })
          }
          return failure(400, "Unknown action", { code: "ILLEGAL_ARGUMENT" })
        }))),
      HttpRouter.route("GET", "/rest/videos/:urn", rest((account) =>
        Effect.map(pathParam("urn"), (urn) => {
          const video = uploads.checkVideo(urn, account.id)
          return video === undefined ? failure(404, `Video ${urn} not found`, { code: "NOT_FOUND" }) : Simulator.json(video)
        }))),
      HttpRouter.route("PUT", "/dms-uploads/:uploadId", Effect.gen(function*() {
        const uploadId = yield* pathParam("uploadId")
        const request = yield* HttpServerRequest.HttpServerRequest
        const bytes = yield* Effect.orElseSucceed(request.arrayBuffer, () => new ArrayBuffer(0))
        const check = state.check(yield* Simulator.accessToken)
        const answer = uploads.receive(uploadId, bytes.byteLength, check._tag === "Valid" ? check.account.id : undefined)
        return answer._tag === "Refused"
          ? failure(answer.status, answer.message)
          : HttpServerResponse.empty({ status: answer.status, headers: answer.etag === undefined ? {} : { etag: answer.etag } })
      })),
      // The permalink each post was given (`/feed/update/{urn}/`). Uploads are kept as URNs, not bytes.
      ...SimulatorPage.routes(["/feed/update/:urn"], {
        network: "LinkedIn",
        state,
        baseUrl: options.baseUrl,
        page: (post) =>
          SimulatorPage.ofPost(state, post, {
            network: "LinkedIn",
            handle: (username) => username,
            parts: [{
              text: post.text,
              media: post.media.map((urn) => ({ kind: urn.includes(":video:") ? "video" : "image", url: undefined }))
            }]
          })
      }),
      ...Simulator.controlRoutes(state)
    ]
  }
}

/** The simulator the sandbox serves, with LinkedIn's own part size. */
export const simulator: Simulator.Make = (options) => make(options)
