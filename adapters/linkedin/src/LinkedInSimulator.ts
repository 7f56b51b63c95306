import { Effect, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { Simulator, type SimulatorState } from "@herald/adapter-kit"
import * as LittleText from "./internal/littleText.ts"
import * as Request from "./internal/request.ts"
import * as Uploads from "./internal/simulatorUploads.ts"

// LinkedIn's API as Herald's sandbox serves it, under the simulator's root: OAuth (`/oauth/v2/*`), OpenID
// userinfo (`/v2/userinfo`), the versioned REST API (`/rest/*`) with its headers and error bodies, and the
// upload addresses it hands out (`/dms-uploads/*`), as the real `www.linkedin.com/dms-uploads` ones.

const network = "linkedin"

/** LinkedIn splits video uploads into parts of 4 MiB. A test can ask for smaller parts. */
export const defaultVideoPartBytes = 4 * 1024 * 1024

export interface Options extends Simulator.Options {
  readonly videoPartBytes?: number
}

/** LinkedIn's error body. */
const failure = (status: number, message: string, fields: Record<string, unknown> = {}) =>
  Simulator.json({ status, message, ...fields }, status)

const refuse = (check: SimulatorState.TokenCheck) =>
  check._tag === "Expired"
    ? failure(401, "The token used in the request has expired", { serviceErrorCode: 65602, code: "EXPIRED_ACCESS_TOKEN" })
    : check._tag === "Revoked"
    ? failure(401, "The token used in the request has been revoked by the user", {
      serviceErrorCode: 65601,
      code: "REVOKED_ACCESS_TOKEN"
    })
    : failure(401, "Invalid access token", { serviceErrorCode: 65600, code: "INVALID_ACCESS_TOKEN" })

/** The request's JSON body decoded with a schema; none when it does not fit. */
const body = <A>(schema: Schema.Codec<A, any>) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.map(Effect.orElseSucceed(request.json, () => null), Schema.decodeUnknownOption(schema)))

const decodeComponent = Option.liftThrowable(decodeURIComponent)

const unprocessable = (message: string) => failure(422, message, { code: "UNPROCESSABLE_ENTITY" })
const invalid = unprocessable("ERROR :: the request body does not match the schema")

const PostRequest = Schema.Struct({
  author: Schema.String,
  commentary: Schema.String,
  visibility: Schema.Literals(["PUBLIC", "CONNECTIONS", "LOGGED_IN"]),
  distribution: Schema.Struct({ feedDistribution: Schema.String }),
  lifecycleState: Schema.Literal("PUBLISHED"),
  content: Schema.optionalKey(Schema.Struct({
    media: Schema.optionalKey(Schema.Struct({ id: Schema.String })),
    multiImage: Schema.optionalKey(Schema.Struct({ images: Schema.Array(Schema.Struct({ id: Schema.String })) }))
  }))
})

const CommentRequest = Schema.Struct({
  actor: Schema.String,
  object: Schema.String,
  message: Schema.Struct({ text: Schema.String })
})

export const make = (options: Options): Simulator.Simulator => {
  const state = Simulator.makeState(network)
  const uploads = new Uploads.Uploads(options.baseUrl, options.videoPartBytes ?? defaultVideoPartBytes)

  /** Runs a handler for the member whose bearer token the request carries. */
  const member = <E, R>(
    handler: (account: SimulatorState.SimulatedAccount) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ) =>
    Effect.flatMap(Simulator.accessToken, (token) => {
      const check = state.check(token)
      return check._tag === "Valid" ? handler(check.account) : Effect.succeed(refuse(check))
    })

  /** A versioned REST call: the member, and the headers every `/rest` call needs. */
  const rest = <E, R>(
    handler: (account: SimulatorState.SimulatedAccount) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ) =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const version = request.headers["linkedin-version"]
      if (version === undefined) {
        return Effect.succeed(failure(400, "A version must be present. Please specify a version by adding the LinkedIn-Version header.", { code: "VERSION_MISSING" }))
      }
      if (!/^\d{6}(\.\d{2})?$/.test(version)) {
        return Effect.succeed(failure(426, `Requested version ${version} is not active`, { code: "NONEXISTENT_VERSION" }))
      }
      if (request.headers["x-restli-protocol-version"] !== "2.0.0") {
        return Effect.succeed(failure(400, "X-Restli-Protocol-Version 2.0.0 is required", { code: "ILLEGAL_ARGUMENT" }))
      }
      return member(handler)
    })

  const action = Effect.map(Simulator.query, (query) => query["action"])
  const pathParam = (name: string) =>
    Effect.map(HttpRouter.params, (params) => {
      const value = params[name] ?? ""
      return Option.getOrElse(decodeComponent(value), () => value)
    })
  const owns = (account: SimulatorState.SimulatedAccount, urn: string) => urn === Request.personUrn(account.id)
  const forbidden = (what: string) =>
    failure(403, `Not enough permissions to access: ${what}`, { serviceErrorCode: 100, code: "ACCESS_DENIED" })

  const createPost = (account: SimulatorState.SimulatedAccount) =>
    Effect.gen(function*() {
      const decoded = yield* body(PostRequest)
      if (Option.isNone(decoded)) return invalid
      const post = decoded.value
      if (!owns(account, post.author)) return forbidden("partnerApiPostsExternal.CREATE")
      // What readers will see: LinkedIn cuts the text at an unescaped reserved character.
      const text = LittleText.read(post.commentary)
      if (Array.from(post.commentary).length > 3_000) {
        return unprocessable("ERROR :: /commentary :: length of commentary exceeds 3000")
      }
      switch (state.trigger(text, account.id)) {
        case "fail":
          return unprocessable("This content can't be shared because it goes against LinkedIn's Professional Community Policies")
        case "flaky":
          return failure(503, "Service temporarily unavailable, try again later")
        case "revoke":
          return refuse({ _tag: "Revoked" })
      }
      const media = post.content?.multiImage !== undefined
        ? post.content.multiImage.images.map((image) => image.id)
        : post.content?.media !== undefined
        ? [post.content.media.id]
        : []
      if (post.content?.multiImage !== undefined && (media.length < 2 || media.length > 20)) {
        return unprocessable("ERROR :: /content/multiImage/images :: a multiImage post takes 2 to 20 images")
      }
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
        details: { commentary: post.commentary, visibility: post.visibility }
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
          lifecycleState: "PUBLISHED",
          createdAt: post.createdAt
        })),
        paging: { start: 0, count, links: [] }
      })
    })

  const createComment = (account: SimulatorState.SimulatedAccount) =>
    Effect.gen(function*() {
      const target = yield* pathParam("target")
      const decoded = yield* body(CommentRequest)
      if (Option.isNone(decoded)) return invalid
      const comment = decoded.value
      if (!owns(account, comment.actor)) return forbidden("socialActions.comments.CREATE")
      if (comment.object !== target || !state.posts.has(target)) {
        return failure(404, `Post ${target} not found`, { code: "NOT_FOUND" })
      }
      const id = `urn:li:comment:(${target},${state.id()})`
      const text = LittleText.read(comment.message.text)
      state.record({
        id,
        accountId: account.id,
        text,
        media: [],
        replyTo: target,
        url: `${Request.permalink(options.baseUrl, target)}?commentUrn=${encodeURIComponent(id)}`,
        details: { message: comment.message.text }
      })
      return HttpServerResponse.jsonUnsafe(
        { id, actor: comment.actor, object: target, message: comment.message },
        { status: 201, headers: { "x-restli-id": encodeURIComponent(id) } }
      )
    })

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
          ? state.refresh(form["refresh_token"] ?? "")
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
      HttpRouter.route("POST", "/rest/socialActions/:target/comments", rest(createComment)),
      HttpRouter.route("POST", "/rest/images", rest((account) =>
        Effect.gen(function*() {
          if ((yield* action) !== "initializeUpload") return failure(400, "Unknown action", { code: "ILLEGAL_ARGUMENT" })
          const decoded = yield* body(Uploads.InitializeImage)
          if (Option.isNone(decoded)) return invalid
          if (!owns(account, decoded.value.initializeUploadRequest.owner)) return forbidden("images.ACTION-initializeUpload")
          return Simulator.json({ value: uploads.initializeImage(account.id) })
        }))),
      HttpRouter.route("POST", "/rest/videos", rest((account) =>
        Effect.gen(function*() {
          const which = yield* action
          if (which === "initializeUpload") {
            const decoded = yield* body(Uploads.InitializeVideo)
            if (Option.isNone(decoded)) return invalid
            const request = decoded.value.initializeUploadRequest
            if (!owns(account, request.owner)) return forbidden("videos.ACTION-initializeUpload")
            return Simulator.json({ value: uploads.initializeVideo(account.id, request.fileSizeBytes) })
          }
          if (which === "finalizeUpload") {
            const decoded = yield* body(Uploads.FinalizeVideo)
            if (Option.isNone(decoded)) return invalid
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
      }))
    ]
  }
}

/** The simulator the sandbox serves, with LinkedIn's own part size. */
export const simulator: Simulator.Make = (options) => make(options)
