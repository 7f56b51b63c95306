import { Simulator, type SimulatorState } from "@herald/adapter-kit"
import { randomBytes } from "node:crypto"
import * as InstagramRules from "../InstagramRules.ts"
import { graphError, invalid, missing, pick } from "./graphAnswers.ts"
import { broken, type Container, type ContainerKind, containerLifetimeMillis, type Nodes } from "./simulatorNodes.ts"

/**
 * The Instagram simulator's containers: made from a call's fields (a photo, a reel, a story, a carousel of
 * finished items), processed over a few status reads, and published as media with their permalinks; and
 * what `GET /{id}` answers for a container, a media or a conversation.
 */
export const make = (state: SimulatorState.SimulatorState, baseUrl: string, nodes: Nodes) => {
  const containers = state.table<Container>("containers", { mutable: true })
  const { conversationNode, conversationsOf, mediaNode, triggered } = nodes

  const permalinkFor = (kind: ContainerKind, username: string, id: string) => {
    const shortcode = randomBytes(8).toString("base64url").slice(0, 11)
    if (kind === "STORIES") return `${baseUrl}/stories/${username}/${id}/`
    return kind === "REELS" ? `${baseUrl}/reel/${shortcode}/` : `${baseUrl}/p/${shortcode}/`
  }

  /** Makes a container once the call's rules passed; answers it, or the Graph error Instagram gives. */
  const createContainer = (accountId: string, form: Record<string, string>) => {
    const refused = broken(InstagramRules.media, form)
    if (refused !== undefined) return refused
    const mediaType = InstagramRules.mediaTypeOf(form) ?? "IMAGE"
    const carouselItem = form["is_carousel_item"] === "true"
    const caption = form["caption"] ?? ""
    const altText = form["alt_text"]
    const make = (
      kind: ContainerKind,
      mediaUrls: ReadonlyArray<string>,
      checksLeft: number,
      altTexts: ReadonlyArray<string | null> = [altText ?? null]
    ) => {
      const container: Container = {
        id: state.id(),
        accountId,
        kind,
        caption,
        mediaUrls,
        carouselItem,
        altTexts,
        createdAt: Date.now(),
        checksLeft,
        status: "IN_PROGRESS"
      }
      containers.set(container.id, container)
      return Simulator.json({ id: container.id })
    }
    if (mediaType !== "CAROUSEL") {
      return make(mediaType, [form["video_url"] ?? form["image_url"]!], form["video_url"] === undefined ? 2 : 3)
    }
    const children = InstagramRules.list(form["children"]).map((id) => containers.get(id))
    const usable = children.every((child) =>
      child !== undefined && child.accountId === accountId && child.carouselItem && child.status === "FINISHED"
    )
    if (!usable) return invalid("The carousel needs 2 to 10 finished carousel items of this account.", 2207028)
    return make("CAROUSEL", children.flatMap((child) => child!.mediaUrls), 2, children.flatMap((child) => child!.altTexts))
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
    const refused = triggered(container.caption, account.id)
    if (refused !== undefined) return refused
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
        container: container.id,
        altTexts: container.altTexts
      }
    })
    return Simulator.json({ id })
  }

  /** A container's status (each read moves processing along), a published media's fields, or a conversation. */
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
    if (post !== undefined && post.accountId === account.id && post.replyTo === undefined) {
      return Simulator.json(pick(fields, mediaNode(post)))
    }
    const messages = state.conversationAccount(id) === account.id ? conversationsOf(account.id).get(id) : undefined
    return messages === undefined ? missing(id, "get") : Simulator.json(pick(fields, conversationNode(account, id, messages)))
  }

  return { createContainer, publish, node }
}
