import { Simulator, type SimulatorState } from "@herald/adapter-kit"
import { Effect, Option, Schema } from "effect"
import * as YouTubeRules from "../YouTubeRules.ts"
import {
  access,
  authError,
  googleError,
  jsonBody,
  pageOffset,
  pageToken,
  rateLimited,
  refusal,
  Reply,
  repliesInThread,
  toSeconds
} from "./simulatorGoogle.ts"

/**
 * The YouTube simulator's comments (https://developers.google.com/youtube/v3/docs/commentThreads/list): the
 * state's comments as threads of one level of replies, `commentThreads.list`, `comments.list` and a reply
 * through `comments.insert`.
 */
export const make = ({ baseUrl, state }: { readonly baseUrl: string; readonly state: SimulatorState.SimulatorState }) => {
  const { authenticated, listing } = access(state)

  /** The top-level comment a comment belongs to (YouTube has one level of replies). */
  const rootOf = (comment: SimulatorState.SimulatedComment): SimulatorState.SimulatedComment => {
    let current = comment
    for (let parent = current.replyTo; parent !== null;) {
      const found = state.comments.get(parent)
      if (found === undefined) break
      current = found
      parent = found.replyTo
    }
    return current
  }

  const commentResource = (comment: SimulatorState.SimulatedComment) => {
    const root = rootOf(comment)
    return {
      kind: "youtube#comment",
      etag: `etag-${comment.id}`,
      id: comment.id,
      snippet: {
        channelId: comment.accountId,
        textDisplay: comment.text,
        textOriginal: comment.text,
        ...(root.id !== comment.id && { parentId: root.id }),
        authorDisplayName: `@${comment.author.username}`,
        authorProfileImageUrl: `${baseUrl}/avatars/${comment.author.id}.jpg`,
        authorChannelUrl: `${baseUrl}/@${comment.author.username}`,
        authorChannelId: { value: comment.author.id },
        canRate: true,
        viewerRating: "none",
        likeCount: 0,
        publishedAt: toSeconds(comment.createdAt),
        updatedAt: toSeconds(comment.createdAt)
      }
    }
  }

  /** A channel's comments as threads, newest top-level comment first, each with its replies oldest first. */
  const threadsOf = (accountId: string) => {
    const threads = new Map<string, { top: SimulatorState.SimulatedComment; replies: Array<SimulatorState.SimulatedComment> }>()
    const replies: Array<SimulatorState.SimulatedComment> = []
    for (const comment of state.commentsAfter(accountId, 0)) {
      if (rootOf(comment) === comment) threads.set(comment.id, { top: comment, replies: [] })
      else replies.push(comment)
    }
    for (const reply of replies) threads.get(rootOf(reply).id)?.replies.push(reply)
    return [...threads.values()].reverse()
  }

  const threadResource = (thread: ReturnType<typeof threadsOf>[number], parts: ReadonlyArray<string>) => {
    // A comment on no video stands for one about the channel itself, which has no `videoId`.
    const videoId = state.posts.has(thread.top.postId) ? thread.top.postId : undefined
    return {
      kind: "youtube#commentThread",
      etag: `etag-${thread.top.id}`,
      id: thread.top.id,
      ...(parts.includes("snippet") && {
        snippet: {
          channelId: thread.top.accountId,
          ...(videoId !== undefined && { videoId }),
          topLevelComment: commentResource(thread.top),
          canReply: true,
          totalReplyCount: thread.replies.length,
          isPublic: true
        }
      }),
      ...(parts.includes("replies") && thread.replies.length > 0 && {
        replies: { comments: thread.replies.slice(0, repliesInThread).map(commentResource) }
      })
    }
  }

  /** One page of a listing, as Google pages them (`maxResults` up to 100, 20 by default). */
  const page = <A>(kind: string, items: ReadonlyArray<A>, params: Record<string, string>) => {
    const offset = pageOffset(params["pageToken"])
    if (offset === undefined) return googleError(400, "invalidPageToken", "The request specifies an invalid page token.", "INVALID_ARGUMENT")
    const size = Math.min(Math.max(Number(params["maxResults"] ?? "20") || 20, 1), 100)
    const slice = items.slice(offset, offset + size)
    return Simulator.json({
      kind,
      etag: `etag-${offset}`,
      ...(offset + size < items.length && { nextPageToken: pageToken(offset + size) }),
      pageInfo: { totalResults: items.length, resultsPerPage: size },
      items: slice
    })
  }

  // Any channel's public threads can be read; `videoId` narrows them to one video.
  const commentThreads = listing(YouTubeRules.listCommentThreads, (_, params) => {
    const parts = (params["part"] ?? "").split(",")
    const channelId = params["allThreadsRelatedToChannelId"]
    const videoId = params["videoId"]
    const owner = channelId ?? (videoId === undefined ? undefined : state.posts.get(videoId)?.accountId)
    if (owner === undefined || !state.accounts.has(owner)) {
      return channelId === undefined
        ? googleError(404, "videoNotFound", "The video identified by the videoId parameter could not be found.", "NOT_FOUND")
        : googleError(404, "channelNotFound", "The channel could not be found.", "NOT_FOUND")
    }
    const threads = threadsOf(owner).filter((thread) => videoId === undefined || thread.top.postId === videoId)
    return page("youtube#commentThreadListResponse", threads.map((thread) => threadResource(thread, parts)), params)
  })

  const listComments = listing(YouTubeRules.listComments, (_, params) => {
    const parent = state.comments.get(params["parentId"] ?? "")
    if (params["parentId"] !== undefined) {
      if (parent === undefined) return googleError(404, "commentNotFound", "The specified comment could not be found.", "NOT_FOUND")
      const replies = state.commentsAfter(parent.accountId, 0).filter((comment) => comment !== parent && rootOf(comment) === parent)
      return page("youtube#commentListResponse", replies.map(commentResource), params)
    }
    const ids = (params["id"] ?? "").split(",")
    const items = ids.flatMap((id) => {
      const found = state.comments.get(id)
      return found === undefined ? [] : [commentResource(found)]
    })
    return Simulator.json({ kind: "youtube#commentListResponse", items, pageInfo: { totalResults: items.length, resultsPerPage: items.length } })
  })

  // A reply is a comment by the signed-in channel, stored in the inbox of the channel whose video it is on.
  const insertComment = authenticated((check) =>
    Effect.gen(function*() {
      const body = yield* jsonBody
      const refused = refusal(YouTubeRules.insertComment, { query: yield* Simulator.query, body })
      if (refused !== undefined) return refused
      const reply = Schema.decodeUnknownOption(Reply)(body)
      if (Option.isNone(reply)) return googleError(400, "invalidCommentMetadata", "The request metadata is invalid.", "INVALID_ARGUMENT")
      const { parentId, textOriginal: text } = reply.value.snippet
      const parent = state.comments.get(parentId)
      if (parent === undefined) return googleError(404, "commentNotFound", "The specified parent comment could not be found.", "NOT_FOUND")
      if (parent.replyTo !== null) {
        return googleError(400, "operationNotSupported", "Replies can only be made to top-level comments.", "INVALID_ARGUMENT")
      }
      switch (state.trigger(text, check.account.id)) {
        case "fail":
          return googleError(403, "forbidden", "The comment could not be created due to insufficient permissions.", "PERMISSION_DENIED")
        case "flaky":
          return googleError(503, "backendError", "Backend Error", "UNAVAILABLE")
        case "rate-limit":
          return rateLimited()
        case "revoke":
          return authError()
      }
      const stored = state.addComment({
        accountId: parent.accountId,
        author: { username: check.account.username },
        text,
        postId: parent.postId,
        replyTo: parent.id
      })
      return Simulator.json(commentResource(stored))
    })
  )

  return { commentThreads, listComments, insertComment }
}
