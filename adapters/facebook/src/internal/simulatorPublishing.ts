import { Simulator, type SimulatorState } from "@herald/adapter-kit"
import { Effect, Option } from "effect"
import { HttpRouter } from "effect/http"
import * as FacebookRules from "../FacebookRules.ts"
import { facebookTime, graphError, invalid, missing, pick, tokenRefused } from "./graphAnswers.ts"
import { broken, graph, type Helpers, type Photo, subscriptionsOf, type Video } from "./simulatorPage.ts"

/**
 * The Facebook simulator's publishing routes: photos (published, or kept unpublished for a feed post), feed
 * posts, videos that process over a few reads, the app's webhook subscription on the Page, the Page's posts,
 * and any node by id (a comment, a conversation, a post or a video).
 */
export const routes = (state: SimulatorState.SimulatorState, baseUrl: string, helpers: Helpers) => {
  const subscribed = subscriptionsOf(state)
  const photos = state.table<Photo>("photos", { mutable: true })
  const videos = state.table<Video>("videos", { mutable: true })
  const { authenticated, commentNode, conversationsOf, fromNode, onPage, page, pathId, postNode, publishPost } = helpers
  return [
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
  ]
}
