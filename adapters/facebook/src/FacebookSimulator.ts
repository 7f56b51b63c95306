import { type Adapter, Simulator, SimulatorPage, SimulatorRules, SimulatorState } from "@herald/adapter-kit"
import { Effect, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, type HttpServerResponse } from "effect/http"
import { apiVersion } from "./FacebookConfig.ts"
import * as FacebookRules from "./FacebookRules.ts"
import { facebookTime, graphError, invalid, missing, pick, tokenRefused } from "./internal/graphAnswers.ts"

// Facebook Pages as Herald's sandbox serves it: the login dialog, the token exchanges, `me/accounts`
// with Page tokens, the Page publishing paths with the same shapes, video processing and Graph error
// bodies, and the inbox: post comments and replies, Messenger conversations and the Send API, over the
// kit's comments and messages (which the kit's control routes fill), and the app's webhook subscription
// on a Page (`subscribed_apps`). Each sandbox account stands for one Page its owner manages. Plain code
// with the wall clock, like the kit's state: it stands for a remote system. Media URLs are checked for
// form, not fetched.

const network = "facebook"
const graph = (path: string): `/${string}` => `/${apiVersion}/${path}`

interface Photo {
  readonly accountId: string
  readonly url: string
  /** Its `alt_text_custom`, null without. */
  readonly altText: string | null
  attached: boolean
}

interface Video {
  readonly accountId: string
  /** Status reads left before processing ends. */
  checksLeft: number
}

const pageTasks = ["ADVERTISE", "ANALYZE", "CREATE_CONTENT", "MESSAGING", "MODERATE", "MANAGE"]

/** What the simulator keeps of a Send API body its rules accepted (https://developers.facebook.com/docs/messenger-platform/reference/send-api). */
const SendBody = Schema.Struct({
  recipient: Schema.Struct({ id: Schema.String }),
  message: Schema.Struct({ text: Schema.optionalKey(Schema.String) })
})

/** How long after a person's message a Page may answer with a standard `RESPONSE`. */
const messagingWindowMillis = 24 * 60 * 60 * 1000

/** The app's webhook subscription on a Page: the fields last asked for, and how many times it was asked. */
export interface Subscription {
  readonly fields: ReadonlyArray<string>
  readonly calls: number
}

/** Each simulator's subscriptions (`POST /{page-id}/subscribed_apps`), by Page id. */
const subscriptionsOf = (state: SimulatorState.SimulatorState) => state.table<Subscription>("subscriptions")

/** The app's webhook subscription on a sandbox Page, if it was made. */
export const subscriptionOf = (state: SimulatorState.SimulatorState, pageId: string): Subscription | undefined =>
  subscriptionsOf(state).get(pageId)

const pageTokenRequired = graphError(400, { message: "(#210) A page access token is required to request this resource.", code: 210 })

/** Graph's answer to the first rule of `call` the request breaks (FacebookRules); undefined when it keeps all. */
const broken = <Input>(call: FacebookRules.GraphCall<Input>, input: Input) => {
  const refused = SimulatorRules.refusal(call, input)
  return refused === undefined ? undefined : graphError(400, { message: refused.message, code: 100, ...refused.rule.error })
}

export const simulator: Simulator.Make = ({ baseUrl }) => {
  const state = Simulator.makeState(network)
  const subscribed = subscriptionsOf(state)
  // Each Page's token, by Page id; kept with the state, so a Page token works after a restart and in every
  // process.
  const pageTokens = state.table<string>("pageTokens")
  const photos = state.table<Photo>("photos", { mutable: true })
  const videos = state.table<Video>("videos", { mutable: true })
  const params = Effect.zipWith(Simulator.query, Simulator.formOrJson, (query, form) => ({ ...query, ...form }))
  const pathId = Effect.map(HttpRouter.params, (path) => path["id"] ?? "")
  const authenticated = Effect.map(Simulator.accessToken, (token) => {
    const check = state.check(token)
    return { check, isPage: check._tag === "Valid" && token === pageTokens.get(check.account.id) }
  })

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

  /** Graph's answer to a sandbox trigger in a text the Page sends; undefined when it carries none. */
  const refusal = (text: string, accountId: string) => {
    switch (state.trigger(text, accountId)) {
      case "fail":
        return graphError(400, {
          message: "The action attempted has been deemed abusive or is otherwise disallowed",
          code: 368,
          error_user_title: "Content blocked",
          error_user_msg: SimulatorState.refusal(text)
        })
      case "flaky":
        return graphError(500, {
          message: "An unexpected error has occurred. Please retry your request later.",
          code: 2,
          is_transient: true
        })
      case "rate-limit":
        return graphError(400, { message: "(#32) Page request limit reached", code: 32 })
      case "revoke":
        return tokenRefused({ _tag: "Revoked" })
    }
    return undefined
  }

  /**
   * A post of the Page, on its feed, once the call's rules passed; the sandbox triggers act on the text. A
   * photo post's details keep each photo's alt text (`altTexts`, null without).
   */
  const publishPost = (
    account: SimulatorState.SimulatedAccount,
    text: string,
    media: ReadonlyArray<string>,
    options: { readonly videoId?: string; readonly altTexts?: ReadonlyArray<string | null> } = {}
  ) => {
    const refused = refusal(text, account.id)
    if (refused !== undefined) return { refused }
    const postId = options.videoId ?? `${account.id}_${state.id()}`
    const url = options.videoId === undefined
      ? `${baseUrl}/${account.id}/posts/${postId.split("_")[1]}/`
      : `${baseUrl}/${account.id}/videos/${postId}/`
    const details = options.altTexts === undefined ? {} : { altTexts: options.altTexts }
    return { post: state.record({ id: postId, accountId: account.id, text, media, replyTo: undefined, url, details }) }
  }

  /** A call that takes a valid Page token; `handle` gets the Page and the id in the path. */
  const asPage = <E, R>(
    handle: (account: SimulatorState.SimulatedAccount, id: string) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ) =>
    Effect.gen(function*() {
      const { check, isPage } = yield* authenticated
      if (check._tag !== "Valid") return tokenRefused(check)
      if (!isPage) return pageTokenRequired
      return yield* handle(check.account, yield* pathId)
    })

  /** Every Page call: a valid Page token of the Page in the path. */
  const onPage = (
    handle: (account: SimulatorState.SimulatedAccount, form: Record<string, string>) => HttpServerResponse.HttpServerResponse
  ) =>
    asPage((account, id) =>
      id === account.id ? Effect.map(params, (form) => handle(account, form)) : Effect.succeed(missing(id, "post")))

  /**
   * One page of an edge, with Graph's cursor paging (`limit`, `after`, `paging.cursors`, `paging.next` when
   * more follow); the cursors are opaque to callers, here an offset.
   */
  const page = <A>(items: ReadonlyArray<A>, form: Record<string, string>, path: string) => {
    const limit = Math.min(100, Number(form["limit"] ?? 25) || 25)
    const offset = Number(Buffer.from(form["after"] ?? "", "base64url").toString("utf8")) || 0
    const data = items.slice(offset, offset + limit)
    const cursor = (at: number) => Buffer.from(String(at)).toString("base64url")
    const cursors = { before: cursor(offset), after: cursor(offset + data.length) }
    const more = offset + data.length < items.length
    return { data, paging: more ? { cursors, next: `${baseUrl}${graph(path)}?limit=${limit}&after=${cursors.after}` } : { cursors } }
  }

  /** `from` as Graph gives it: a Page-scoped id and a name, never a username. */
  const fromNode = (person: Adapter.Person) => ({ id: person.id, name: person.name ?? person.username })

  const commentNode = (comment: SimulatorState.SimulatedComment) => {
    const parent = comment.replyTo === null ? undefined : state.comments.get(comment.replyTo)
    const parentNode = parent === undefined
      ? { id: comment.replyTo }
      : { id: parent.id, message: parent.text, from: fromNode(parent.author) }
    return {
      id: comment.id,
      message: comment.text,
      created_time: facebookTime(Date.parse(comment.createdAt)),
      from: fromNode(comment.author),
      ...(comment.replyTo === null ? {} : { parent: parentNode }),
      ...(comment.permalink === null ? {} : { permalink_url: comment.permalink })
    }
  }

  /** The Page's Messenger conversations, most recently active first, each with its messages oldest first. */
  const conversationsOf = (accountId: string) => {
    const byId = new Map<string, Array<SimulatorState.SimulatedMessage>>()
    for (const message of state.messagesAfter(accountId, 0)) {
      const list = byId.get(message.conversationId) ?? []
      list.push(message)
      byId.set(message.conversationId, list)
    }
    return [...byId.entries()]
      .map(([id, messages]) => ({ id, messages, counterpart: messages.find((message) => !message.outgoing)?.from }))
      .sort((a, b) => b.messages.at(-1)!.seq - a.messages.at(-1)!.seq)
  }

  const messageNode = (
    message: SimulatorState.SimulatedMessage,
    page: SimulatorState.SimulatedAccount,
    counterpart: Adapter.Person | undefined
  ) => {
    const pageNode = { id: page.id, name: page.displayName }
    const to = message.outgoing ? counterpart : undefined
    const attachments = Array.from({ length: message.attachments }, (_, index) => ({ id: `${message.id}_${index}`, mime_type: "image/jpeg" }))
    return {
      id: message.id,
      created_time: facebookTime(Date.parse(message.createdAt)),
      from: fromNode(message.from),
      to: { data: [to === undefined ? pageNode : fromNode(to)] },
      message: message.text,
      ...(message.attachments === 0
        ? {}
        : { attachments: { data: attachments } })
    }
  }

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
        const refused = broken(FacebookRules.photos, form)
        if (refused !== undefined) return refused
        const altText = form["alt_text_custom"] ?? null
        if (form["published"] === "false") {
          const id = state.id()
          photos.set(id, { accountId: account.id, url: form["url"]!, altText, attached: false })
          return Simulator.json({ id })
        }
        const outcome = publishPost(account, form["caption"] ?? form["message"] ?? "", [form["url"]!], { altTexts: [altText] })
        return outcome.post === undefined ? outcome.refused : Simulator.json({ id: state.id(), post_id: outcome.post.id })
      })),
      HttpRouter.route("POST", graph(":id/feed"), onPage((account, form) => {
        const refused = broken(FacebookRules.feed, form)
        if (refused !== undefined) return refused
        const message = form["message"] ?? ""
        const attached = Option.getOrElse(FacebookRules.attachedMedia(form["attached_media"]), () => [])
        const attachedPhotos = attached.map((item) => photos.get(item.media_fbid))
        if (attachedPhotos.some((photo) => photo === undefined || photo.accountId !== account.id || photo.attached)) {
          return invalid("(#100) attached_media names a photo that is not an unpublished photo of this Page")
        }
        const outcome = publishPost(account, message, attachedPhotos.map((photo) => photo!.url), {
          altTexts: attachedPhotos.map((photo) => photo!.altText)
        })
        if (outcome.post === undefined) return outcome.refused
        for (const photo of attachedPhotos) photo!.attached = true
        return Simulator.json({ id: outcome.post.id })
      })),
      HttpRouter.route("POST", graph(":id/videos"), onPage((account, form) => {
        const refused = broken(FacebookRules.videos, form)
        if (refused !== undefined) return refused
        const id = state.id()
        const outcome = publishPost(account, form["description"] ?? "", [form["file_url"]!], { videoId: id })
        if (outcome.post === undefined) return outcome.refused
        videos.set(id, { accountId: account.id, checksLeft: 2 })
        return Simulator.json({ id })
      })),
      // Installs the app on the Page for webhook fields (idempotent: the fields asked last are kept). A
      // sandbox Page whose username holds `nosub` refuses it, as Meta does without `pages_manage_metadata`.
      HttpRouter.route("POST", graph(":id/subscribed_apps"), onPage((account, form) => {
        const refused = broken(FacebookRules.subscribedApps, form)
        if (refused !== undefined) return refused
        const fields = form["subscribed_fields"]!.split(",").map((field) => field.trim()).filter((field) => field !== "")
        if (account.username.includes("nosub")) {
          return graphError(403, { message: "(#200) Requires pages_manage_metadata permission to manage the object", code: 200 })
        }
        subscribed.set(account.id, { fields, calls: (subscribed.get(account.id)?.calls ?? 0) + 1 })
        return Simulator.json({ success: true })
      })),
      HttpRouter.route("GET", graph(":id/posts"), onPage((account, form) => {
        const answer = page(state.postsOf(account.id).filter((post) => post.replyTo === undefined), form, `${account.id}/posts`)
        return Simulator.json({ ...answer, data: answer.data.map((post) => pick(form["fields"], postNode(post))) })
      })),
      HttpRouter.route("GET", graph(":id"), Effect.gen(function*() {
        const { check } = yield* authenticated
        if (check._tag !== "Valid") return tokenRefused(check)
        const id = yield* pathId
        const fields = (yield* Simulator.query)["fields"]
        const comment = state.comments.get(id)
        if (comment !== undefined && comment.accountId === check.account.id) return Simulator.json(pick(fields, commentNode(comment)))
        if (state.conversationAccount(id) === check.account.id) {
          const conversation = conversationsOf(check.account.id).find((entry) => entry.id === id)!
          const { displayName, id: pageId, username } = check.account
          const people = [conversation.counterpart, { id: pageId, username, name: displayName }]
          return Simulator.json(pick(fields, {
            id,
            updated_time: facebookTime(Date.parse(conversation.messages.at(-1)!.createdAt)),
            participants: {
              data: people.flatMap((person) => person === undefined ? [] : [{ ...fromNode(person), email: `${person.id}@facebook.com` }])
            }
          }))
        }
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
      // A comment on one of the Page's posts, or a reply to a comment on one (the first comment and inbox
      // replies); both are the Page's own comments.
      HttpRouter.route("POST", graph(":id/comments"), asPage((account, target) =>
        Effect.map(params, (form) => {
          const message = form["message"] ?? ""
          const post = state.posts.get(target)
          const parent = state.comments.get(target)
          const onPost = post !== undefined && post.accountId === account.id && post.replyTo === undefined
          if (!onPost && (parent === undefined || parent.accountId !== account.id)) return missing(target, "post")
          const refused = broken(FacebookRules.comments, form) ?? refusal(message, account.id)
          if (refused !== undefined) return refused
          const comment = state.addComment({
            accountId: account.id,
            author: { id: account.id, username: account.username, name: account.displayName },
            text: message,
            postId: onPost ? target : parent!.postId,
            replyTo: onPost ? undefined : target
          })
          return Simulator.json({ id: comment.id })
        }))),
      // A post's comments, or a comment's replies: `filter=stream` lists replies too, `toplevel` (the
      // default) only comments on the post; `order` is `chronological` unless `reverse_chronological`.
      HttpRouter.route("GET", graph(":id/comments"), asPage((account, target) =>
        Effect.map(params, (form) => {
          const post = state.posts.get(target)
          const parent = state.comments.get(target)
          const onPost = post !== undefined && post.accountId === account.id
          if (!onPost && (parent === undefined || parent.accountId !== account.id)) return missing(target, "get")
          const all = state.commentsAfter(account.id, 0).filter((comment) =>
            onPost
              ? comment.postId === target && (form["filter"] === "stream" || comment.replyTo === null)
              : comment.replyTo === target
          )
          const ordered = form["order"] === "reverse_chronological" ? [...all].reverse() : all
          const answer = page(ordered, form, `${target}/comments`)
          return Simulator.json({ ...answer, data: answer.data.map((comment) => pick(form["fields"], commentNode(comment))) })
        }))),
      HttpRouter.route("GET", graph(":id/conversations"), onPage((account, form) => {
        if (form["platform"] !== undefined && form["platform"] !== "messenger") return Simulator.json({ data: [] })
        const conversations = conversationsOf(account.id).map((conversation) => ({
          id: conversation.id,
          updated_time: facebookTime(Date.parse(conversation.messages.at(-1)!.createdAt))
        }))
        const answer = page(conversations, form, `${account.id}/conversations`)
        return Simulator.json({ ...answer, data: answer.data.map((conversation) => pick(form["fields"], conversation)) })
      })),
      // A conversation's messages, newest first.
      HttpRouter.route("GET", graph(":id/messages"), asPage((account, id) =>
        Effect.map(params, (form) => {
          const conversation = conversationsOf(account.id).find((entry) => entry.id === id)
          if (conversation === undefined) return missing(id, "get")
          const answer = page([...conversation.messages].reverse(), form, `${id}/messages`)
          return Simulator.json({
            ...answer,
            data: answer.data.map((message) => pick(form["fields"], messageNode(message, account, conversation.counterpart)))
          })
        }))),
      // The Send API: a JSON body naming the person by their Page-scoped id, inside the 24-hour window.
      HttpRouter.route("POST", graph(":id/messages"), asPage((account, id) =>
        Effect.gen(function*() {
          if (id !== account.id) return missing(id, "post")
          const request = yield* HttpServerRequest.HttpServerRequest
          const json = yield* Effect.orElseSucceed(request.json, () => null)
          const refusedBody = broken(FacebookRules.messages, json)
          if (refusedBody !== undefined) return refusedBody
          const body = Schema.decodeUnknownOption(SendBody)(json)
          if (Option.isNone(body)) return invalid("(#100) The parameter recipient and message are required")
          const { message, recipient } = body.value
          const text = message.text ?? ""
          const conversation = conversationsOf(account.id).find((entry) => entry.counterpart?.id === recipient.id)
          if (conversation === undefined) return invalid("(#100) No matching user found", 2018001)
          const lastHeard = conversation.messages.findLast((entry) => !entry.outgoing)!
          if (Date.now() - Date.parse(lastHeard.createdAt) > messagingWindowMillis) {
            return graphError(400, {
              message: "(#10) This message is sent outside of allowed window.",
              code: 10,
              error_subcode: 2018278
            })
          }
          const refused = refusal(text, account.id)
          if (refused !== undefined) return refused
          const sent = state.addMessage({
            accountId: account.id,
            from: { id: account.id, username: account.username, name: account.displayName },
            text,
            conversationId: conversation.id,
            outgoing: true
          })
          return Simulator.json({ recipient_id: recipient.id, message_id: sent.id })
        }))),
      // The permalinks posts and videos were given (`/{page-id}/posts/{id}/`, `/{page-id}/videos/{id}/`).
      ...SimulatorPage.routes(["/:pageId/posts/:id", "/:pageId/videos/:id"], {
        network: "Facebook",
        state,
        baseUrl,
        page: (post) => SimulatorPage.ofPost(state, post, { network: "Facebook", handle: (username) => username })
      }),
      ...Simulator.controlRoutes(state)
    ]
  }
}
