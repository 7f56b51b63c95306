import { Effect, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { Simulator, SimulatorPage, SimulatorRules, SimulatorState } from "@herald/adapter-kit"
import * as LittleText from "./internal/littleText.ts"
import * as LinkedInRules from "./LinkedInRules.ts"
import * as Request from "./internal/request.ts"
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

/** LinkedIn's answer to a request that breaks one of its rules. */
const broken = ({ message, rule: { answer } }: { readonly message: string; readonly rule: { readonly answer: LinkedInRules.Answer } }) =>
  failure(answer.status, message, {
    code: answer.code,
    ...(answer.serviceErrorCode === undefined ? {} : { serviceErrorCode: answer.serviceErrorCode })
  })

/**
 * The request's JSON body held to the rules of its call (`LinkedInRules`), then decoded with a schema for
 * the handler: the rules' refusal, or the body. The server bounds a body's size before this reads it.
 */
const body = <A>(
  rules: LinkedInRules.Call<LinkedInRules.Body>,
  account: SimulatorState.SimulatedAccount,
  schema: Schema.Codec<A, unknown>
): Effect.Effect<{ readonly _tag: "Refused"; readonly response: HttpServerResponse.HttpServerResponse } | { readonly _tag: "Body"; readonly value: A }, never, HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.map(Effect.orElseSucceed(request.json, () => null), (json) => {
      const refused = SimulatorRules.refusal(rules, { body: json, member: Request.personUrn(account.id) })
      if (refused !== undefined) return { _tag: "Refused" as const, response: broken(refused) }
      return Option.match(Schema.decodeUnknownOption(schema)(json), {
        onNone: () => ({ _tag: "Refused" as const, response: invalid }),
        onSome: (value) => ({ _tag: "Body" as const, value })
      })
    }))

const decodeComponent = Option.liftThrowable(decodeURIComponent)

const unprocessable = (message: string) => failure(422, message, { code: "UNPROCESSABLE_ENTITY" })
const invalid = unprocessable("ERROR :: the request body does not match the schema")

// What the handlers read of the bodies, once `LinkedInRules` has held them to LinkedIn's rules.
const Attached = Schema.Struct({ id: Schema.String, altText: Schema.optionalKey(Schema.String) })

const PostRequest = Schema.Struct({
  author: Schema.String,
  commentary: Schema.String,
  visibility: Schema.String,
  content: Schema.optionalKey(Schema.Struct({
    media: Schema.optionalKey(Attached),
    multiImage: Schema.optionalKey(Schema.Struct({ images: Schema.Array(Attached) }))
  }))
})

const CommentRequest = Schema.Struct({
  actor: Schema.String,
  object: Schema.String,
  message: Schema.Struct({ text: Schema.String }),
  parentComment: Schema.optionalKey(Schema.String)
})

/** LinkedIn's default page of comments, and the most one page holds. */
const defaultCount = 10
const maxCount = 100

/** A query number that must be a whole number of at least zero; undefined when it is not. */
const wholeNumber = (value: string | undefined, fallback: number): number | undefined => {
  const number = value === undefined ? fallback : Number(value)
  return Number.isSafeInteger(number) && number >= 0 ? number : undefined
}

/**
 * A stored comment as the Comments API answers it: authors by URN, times in epoch milliseconds, the text
 * as written, the parent of a reply, and a first-level comment's count of replies.
 * https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/comments-api
 */
const wireComment = (comment: SimulatorState.SimulatedComment, replies: number) => {
  const actor = Request.personUrn(comment.author.id)
  const stamp = { actor, time: Date.parse(comment.createdAt) }
  return {
    id: comment.id,
    commentUrn: Request.commentUrn(comment.postId, comment.id),
    actor,
    created: stamp,
    lastModified: stamp,
    object: comment.postId,
    message: { text: comment.text, attributes: [] },
    ...(comment.replyTo === null
      ? { commentsSummary: { aggregatedTotalComments: replies, totalFirstLevelComments: replies, selectedComments: [] } }
      : { parentComment: Request.commentUrn(comment.postId, comment.replyTo) }),
    likesSummary: { totalLikes: 0, likedByCurrentUser: false, aggregatedTotalLikes: 0, selectedLikes: [] }
  }
}

export const make = (options: Options): Simulator.Simulator => {
  const state = Simulator.makeState(network)
  const uploads = new Uploads.Uploads(state, options.baseUrl, options.videoPartBytes ?? defaultVideoPartBytes)

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
      const refused = SimulatorRules.refusal(LinkedInRules.headers, {
        version: request.headers["linkedin-version"],
        protocol: request.headers["x-restli-protocol-version"],
        now: Date.now()
      })
      return refused === undefined ? member(handler) : Effect.succeed(broken(refused))
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

  /**
   * The path's target: a post, or a comment (`urn:li:comment:(post,id)`) for its replies. Answers the post
   * and the comment, or LinkedIn's 404 when either is unknown.
   */
  const commentTarget = (target: string) => {
    const reference = Request.parseCommentUrn(target)
    const post = state.posts.get(reference?.postUrn ?? target)
    const parent = reference === undefined ? undefined : state.comments.get(reference.commentId)
    if (post === undefined || (reference !== undefined && parent?.postId !== post.id)) {
      return { _tag: "Missing" as const, response: failure(404, `${target} not found`, { code: "NOT_FOUND" }) }
    }
    return { _tag: "Found" as const, post, parent }
  }

  /** `GET /rest/socialActions/{post or comment}/comments`: first-level comments of a post, or a comment's replies. */
  const listComments = (account: SimulatorState.SimulatedAccount) =>
    Effect.gen(function*() {
      const target = commentTarget(yield* pathParam("target"))
      if (target._tag === "Missing") return target.response
      if (target.post.accountId !== account.id) return forbidden("socialActions.comments.FINDER")
      const query = yield* Simulator.query
      const start = wholeNumber(query["start"], 0)
      const count = wholeNumber(query["count"], defaultCount)
      if (start === undefined || count === undefined) {
        return failure(400, "start and count must be whole numbers", { code: "ILLEGAL_ARGUMENT" })
      }
      const onPost = state.commentsAfter(account.id, 0).filter((comment) => comment.postId === target.post.id)
      const parentId = target.parent?.id ?? null
      const listed = onPost.filter((comment) => comment.replyTo === parentId)
      const page = Math.min(count, maxCount)
      return Simulator.json({
        paging: { start, count: page, total: listed.length, links: [] },
        elements: listed.slice(start, start + page).map((comment) =>
          wireComment(comment, onPost.filter((reply) => reply.replyTo === comment.id).length)
        )
      })
    })

  /**
   * `POST /rest/socialActions/{post or comment}/comments`: a comment on a post, or a reply to a first-level
   * comment, which names it again in `parentComment`. It goes into the post owner's inbox.
   */
  const createComment = (account: SimulatorState.SimulatedAccount) =>
    Effect.gen(function*() {
      const path = yield* pathParam("target")
      const decoded = yield* body(LinkedInRules.createComment, account, CommentRequest)
      if (decoded._tag === "Refused") return decoded.response
      const comment = decoded.value
      const target = commentTarget(path)
      if (target._tag === "Missing") return target.response
      if (comment.object !== target.post.id) {
        return failure(400, `object must be the post ${target.post.id}`, { code: "ILLEGAL_ARGUMENT" })
      }
      if (comment.parentComment !== (target.parent === undefined ? undefined : path)) {
        return failure(400, "parentComment must name the comment in the path, and only then", { code: "ILLEGAL_ARGUMENT" })
      }
      if (target.parent !== undefined && target.parent.replyTo !== null) {
        return failure(400, "Replies are two levels deep: reply to the first-level comment", { code: "ILLEGAL_ARGUMENT" })
      }
      const text = LittleText.read(comment.message.text)
      const refused = triggered(text, account.id)
      if (refused !== undefined) return refused
      const stored = state.addComment({
        accountId: target.post.accountId,
        author: { id: account.id, username: account.username },
        text,
        postId: target.post.id,
        replyTo: target.parent?.id
      })
      const created = wireComment(stored, 0)
      return HttpServerResponse.jsonUnsafe(created, {
        status: 201,
        headers: { "x-restli-id": encodeURIComponent(created.commentUrn) }
      })
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
