import { Simulator, type SimulatorState } from "@herald/adapter-kit"
import { Effect, Option, Schema } from "effect"
import { HttpRouter } from "effect/http"
import { apiVersion } from "./FacebookConfig.ts"
import { facebookTime, graphError, invalid, isPublicUrl, missing, pick, tokenRefused } from "./internal/graphAnswers.ts"

// Facebook Pages as Herald's sandbox serves it: the login dialog, the token exchanges, `me/accounts`
// with Page tokens, and the Page publishing paths with the same shapes, video processing and Graph error
// bodies. Each sandbox account stands for one Page its owner manages. Plain code with the wall clock,
// like the kit's state: it stands for a remote system. Media URLs are checked for form, not fetched.

const network = "facebook"
const graph = (path: string): `/${string}` => `/${apiVersion}/${path}`

interface Photo {
  readonly accountId: string
  readonly url: string
  attached: boolean
}

interface Video {
  readonly accountId: string
  /** Status reads left before processing ends. */
  checksLeft: number
}

const AttachedMedia = Schema.fromJsonString(Schema.Array(Schema.Struct({ media_fbid: Schema.String })))

const pageTasks = ["ADVERTISE", "ANALYZE", "CREATE_CONTENT", "MESSAGING", "MODERATE", "MANAGE"]

const pageTokenRequired = graphError(400, { message: "(#210) A page access token is required to request this resource.", code: 210 })

export const simulator: Simulator.Make = ({ baseUrl }) => {
  const state = Simulator.makeState(network)
  const pageTokens = new Map<string, string>()
  const photos = new Map<string, Photo>()
  const videos = new Map<string, Video>()
  const params = Effect.zipWith(Simulator.query, Simulator.formOrJson, (query, form) => ({ ...query, ...form }))
  const pathId = Effect.map(HttpRouter.params, (path) => path["id"] ?? "")
  const authenticated = Effect.map(Simulator.accessToken, (token) => ({
    check: state.check(token),
    isPage: token !== undefined && [...pageTokens.values()].includes(token)
  }))

  /** The Page token of an account's Page; like Facebook's, it does not expire. */
  const pageTokenOf = (accountId: string) => {
    const existing = pageTokens.get(accountId)
    if (existing !== undefined && state.check(existing)._tag === "Valid") return existing
    const grant = state.grant(accountId)
    grant.expiresAt = Number.MAX_SAFE_INTEGER
    pageTokens.set(accountId, grant.accessToken)
    return grant.accessToken
  }

  const postNode = (post: SimulatorState.SimulatedPost) => ({
    id: post.id,
    message: post.text,
    permalink_url: post.url,
    created_time: facebookTime(post.createdAt)
  })

  /** Publishes on the Page's feed; the sandbox triggers act on the text. */
  const publishPost = (account: SimulatorState.SimulatedAccount, text: string, media: ReadonlyArray<string>, id?: string) => {
    switch (state.trigger(text, account.id)) {
      case "fail":
        return {
          refused: graphError(400, {
            message: "The action attempted has been deemed abusive or is otherwise disallowed",
            code: 368,
            error_user_title: "Content blocked",
            error_user_msg: "This content goes against the Community Standards (the sandbox rejects #sandbox-fail)."
          })
        }
      case "flaky":
        return {
          refused: graphError(500, {
            message: "An unexpected error has occurred. Please retry your request later.",
            code: 2,
            is_transient: true
          })
        }
      case "revoke":
        return { refused: tokenRefused({ _tag: "Revoked" }) }
    }
    const postId = id ?? `${account.id}_${state.id()}`
    const url = id === undefined
      ? `${baseUrl}/${account.id}/posts/${postId.split("_")[1]}/`
      : `${baseUrl}/${account.id}/videos/${postId}/`
    return { post: state.record({ id: postId, accountId: account.id, text, media, replyTo: undefined, url, details: {} }) }
  }

  /** Every Page call: a valid Page token of the Page in the path. */
  const onPage = <A>(handle: (account: SimulatorState.SimulatedAccount, form: Record<string, string>) => A) =>
    Effect.gen(function*() {
      const { check, isPage } = yield* authenticated
      if (check._tag !== "Valid") return tokenRefused(check)
      if (!isPage) return pageTokenRequired
      const id = yield* pathId
      if (id !== check.account.id) return missing(id, "post")
      return handle(check.account, yield* params)
    })

  const tokenAnswer = (grant: SimulatorState.Grant) =>
    Simulator.json({
      access_token: grant.accessToken,
      token_type: "bearer",
      expires_in: Math.max(0, Math.round((grant.expiresAt - Date.now()) / 1000))
    })

  return {
    network,
    state,
    routes: [
      HttpRouter.route("GET", graph("dialog/oauth"), Simulator.authorize(state)),
      HttpRouter.route("GET", graph("oauth/access_token"), Effect.map(Simulator.query, (query) => {
        if (query["client_id"] === undefined || query["client_secret"] === undefined) {
          return invalid("Missing client_id or client_secret parameter.")
        }
        if (query["grant_type"] === "fb_exchange_token") {
          const check = state.check(query["fb_exchange_token"])
          if (check._tag !== "Valid") return tokenRefused(check)
          return tokenAnswer(state.grant(check.account.id))
        }
        const grant = Simulator.redeem(state, { code: query["code"], redirectUri: query["redirect_uri"] })
        return grant === undefined
          ? invalid("This authorization code has been used or has expired.", 36009)
          : tokenAnswer(grant)
      })),
      HttpRouter.route("GET", graph("me/accounts"), Effect.gen(function*() {
        const { check, isPage } = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        if (isPage) return invalid("(#100) Tried accessing nonexisting field (accounts) on node type (Page)")
        const query = yield* Simulator.query
        const { account } = check
        const page = { id: account.id, name: account.displayName, access_token: pageTokenOf(account.id), category: "Brand", tasks: pageTasks }
        return Simulator.json({ data: [pick(query["fields"], page)], paging: { cursors: {} } })
      })),
      HttpRouter.route("GET", graph("me"), Effect.gen(function*() {
        const { check, isPage } = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        const query = yield* Simulator.query
        const { account } = check
        const node = isPage
          ? { id: account.id, name: account.displayName, username: account.username }
          : { id: `1000${account.id}`, name: account.displayName }
        return Simulator.json(pick(query["fields"], node))
      })),
      HttpRouter.route("POST", graph(":id/photos"), onPage((account, form) => {
        if (!isPublicUrl(form["url"])) return invalid("(#324) Missing or invalid image file", undefined)
        if (form["published"] === "false") {
          const id = state.id()
          photos.set(id, { accountId: account.id, url: form["url"]!, attached: false })
          return Simulator.json({ id })
        }
        const outcome = publishPost(account, form["caption"] ?? form["message"] ?? "", [form["url"]!])
        return outcome.post === undefined ? outcome.refused : Simulator.json({ id: state.id(), post_id: outcome.post.id })
      })),
      HttpRouter.route("POST", graph(":id/feed"), onPage((account, form) => {
        const message = form["message"] ?? ""
        const attached = form["attached_media"] === undefined
          ? Option.some([])
          : Schema.decodeUnknownOption(AttachedMedia)(form["attached_media"])
        if (Option.isNone(attached)) return invalid("(#100) param attached_media must be an array of {\"media_fbid\"}")
        const attachedPhotos = attached.value.map((item) => photos.get(item.media_fbid))
        if (attachedPhotos.some((photo) => photo === undefined || photo.accountId !== account.id || photo.attached)) {
          return invalid("(#100) attached_media names a photo that is not an unpublished photo of this Page")
        }
        if (attachedPhotos.length > 10) return invalid("(#100) A post can have at most 10 attached photos here")
        if (message.trim() === "" && attachedPhotos.length === 0) return invalid("(#100) Missing message or attachment")
        const outcome = publishPost(account, message, attachedPhotos.map((photo) => photo!.url))
        if (outcome.post === undefined) return outcome.refused
        for (const photo of attachedPhotos) photo!.attached = true
        return Simulator.json({ id: outcome.post.id })
      })),
      HttpRouter.route("POST", graph(":id/videos"), onPage((account, form) => {
        if (!isPublicUrl(form["file_url"])) return graphError(400, { message: "(#351) There was a problem with your video file", code: 351 })
        const id = state.id()
        const outcome = publishPost(account, form["description"] ?? "", [form["file_url"]!], id)
        if (outcome.post === undefined) return outcome.refused
        videos.set(id, { accountId: account.id, checksLeft: 2 })
        return Simulator.json({ id })
      })),
      HttpRouter.route("GET", graph(":id/posts"), onPage((account, form) => {
        const limit = Math.min(100, Number(form["limit"] ?? 25) || 25)
        const posts = state.postsOf(account.id).filter((post) => post.replyTo === undefined).slice(0, limit)
        return Simulator.json({ data: posts.map((post) => pick(form["fields"], postNode(post))), paging: { cursors: {} } })
      })),
      HttpRouter.route("GET", graph(":id"), Effect.gen(function*() {
        const { check } = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        const id = yield* pathId
        const fields = (yield* Simulator.query)["fields"]
        const post = state.posts.get(id)
        if (post === undefined || post.accountId !== check.account.id) return missing(id, "get")
        const video = videos.get(id)
        if (video === undefined) return Simulator.json(pick(fields, postNode(post)))
        // Each read moves processing along; a video's permalink_url is a path, as Facebook gives it.
        video.checksLeft = Math.max(0, video.checksLeft - 1)
        return Simulator.json(pick(fields, {
          id,
          description: post.text,
          permalink_url: post.url.slice(baseUrl.length),
          status: { video_status: video.checksLeft === 0 ? "ready" : "processing", processing_progress: video.checksLeft === 0 ? 100 : 50 },
          created_time: facebookTime(post.createdAt)
        }))
      })),
      HttpRouter.route("POST", graph(":id/comments"), Effect.gen(function*() {
        const { check, isPage } = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        if (!isPage) return pageTokenRequired
        const target = yield* pathId
        const message = (yield* params)["message"] ?? ""
        const post = state.posts.get(target)
        if (post === undefined || post.accountId !== check.account.id || post.replyTo !== undefined) return missing(target, "post")
        if (message.trim() === "") return invalid("(#100) Missing message or attachment")
        const id = `${target}_${state.id()}`
        state.record({ id, accountId: check.account.id, text: message, media: [], replyTo: target, url: post.url, details: { kind: "comment" } })
        return Simulator.json({ id })
      }))
    ]
  }
}
