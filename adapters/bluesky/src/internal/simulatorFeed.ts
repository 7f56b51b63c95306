import { Simulator, type SimulatorState } from "@herald/adapter-kit"
import { Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import { cidOf } from "./pds.ts"
import { collection, didOf, type Found, invalid, refuse, rkeyOf, uriOf } from "./simulatorXrpc.ts"

/**
 * What the Bluesky simulator's app view reads: posts and people's replies by `at://` URI as strong refs with
 * their records (`app.bsky.feed.getPosts`), and the account's notifications (`listNotifications`).
 */
export const make = ({ baseUrl, state }: { readonly baseUrl: string; readonly state: SimulatorState.SimulatorState }) => {
  const authenticated = Simulator.authenticated(state, refuse)

  const permalink = (handle: string, uri: string) => `${baseUrl}/profile/${handle}/post/${rkeyOf(uri)}`

  /** A post or a comment by its URI, as a strong ref with its author and record. */
  const lookup = (uri: string): Found | undefined => {
    const post = state.posts.get(uri)
    if (post !== undefined) {
      const account = state.accounts.get(post.accountId)
      return {
        uri,
        cid: String(post.details["cid"]),
        author: { did: didOf(post.accountId), handle: account?.username ?? "" },
        record: post.details["record"] as Record<string, unknown>
      }
    }
    const comment = state.comments.get(rkeyOf(uri))
    if (comment === undefined || uriOf(didOf(comment.author.id), comment.id) !== uri) return undefined
    return { uri, cid: cidOf("dag-cbor", uri), author: { did: didOf(comment.author.id), handle: comment.author.username }, record: commentRecord(comment) }
  }

  /** A comment's `app.bsky.feed.post` record: a reply in the thread of the post it is on. */
  const commentRecord = (comment: SimulatorState.SimulatedComment): Record<string, unknown> => {
    const root = lookup(comment.postId)
    const parentUri = comment.replyTo === null ? comment.postId : commentUri(comment.replyTo)
    return {
      $type: collection,
      text: comment.text,
      createdAt: comment.createdAt,
      reply: {
        root: { uri: comment.postId, cid: root?.cid ?? cidOf("dag-cbor", comment.postId) },
        parent: { uri: parentUri, cid: state.posts.has(parentUri) ? String(state.posts.get(parentUri)!.details["cid"]) : cidOf("dag-cbor", parentUri) }
      }
    }
  }

  const commentUri = (id: string) => {
    const comment = state.comments.get(id)
    return comment === undefined ? id : uriOf(didOf(comment.author.id), comment.id)
  }

  const getPosts = authenticated(() =>
    Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
      const uris = new URL(request.url, "http://simulator").searchParams.getAll("uris")
      if (uris.length > 25) return invalid("uris must not have more than 25 elements")
      // The app view leaves out posts it cannot find.
      return Simulator.json({ posts: uris.flatMap((uri) => lookup(uri) ?? []).map((post) => ({ ...post, indexedAt: post.record["createdAt"] })) })
    }))

  /** Whether a post's record mentions the account (a `#mention` facet with its DID). */
  const mentions = (post: SimulatorState.SimulatedPost, did: string) => {
    const facets = (post.details["record"] as { facets?: ReadonlyArray<{ features?: ReadonlyArray<Record<string, unknown>> }> })?.facets
    return (facets ?? []).some((facet) =>
      (facet.features ?? []).some((feature) => feature["$type"] === "app.bsky.richtext.facet#mention" && feature["did"] === did)
    )
  }

  /**
   * People's replies to the account (the state's comments) and other accounts' posts that mention it, newest
   * first. Both are ordered by a number from the clock (a comment's `seq`, a post's `createdAt`); `cursor` is
   * the one to read below.
   */
  const listNotifications = authenticated((account) =>
    Effect.map(Simulator.query, (query) => {
      const limit = Math.min(100, Math.max(1, Number(query["limit"] ?? 50) || 50))
      const below = query["cursor"] === undefined ? Number.POSITIVE_INFINITY : Number(query["cursor"])
      const did = didOf(account.id)
      const replies = state.commentsAfter(account.id, 0)
        .filter((comment) => comment.author.id !== did)
        .map((comment) => {
          const uri = uriOf(didOf(comment.author.id), comment.id)
          return {
            at: comment.seq,
            notification: {
              uri,
              cid: cidOf("dag-cbor", uri),
              author: { did: didOf(comment.author.id), handle: comment.author.username, displayName: comment.author.name ?? undefined },
              reason: "reply",
              reasonSubject: comment.replyTo === null ? comment.postId : commentUri(comment.replyTo),
              record: commentRecord(comment),
              isRead: false,
              indexedAt: comment.createdAt,
              labels: []
            }
          }
        })
      const mentioned = [...state.posts.values()]
        .filter((post) => post.accountId !== account.id && mentions(post, did))
        .map((post) => ({
          at: post.createdAt,
          notification: {
            uri: post.id,
            cid: String(post.details["cid"]),
            author: { did: didOf(post.accountId), handle: state.accounts.get(post.accountId)?.username ?? "" },
            reason: "mention",
            record: post.details["record"],
            isRead: false,
            indexedAt: new Date(post.createdAt).toISOString(),
            labels: []
          }
        }))
      const all = [...replies, ...mentioned].filter((entry) => entry.at < below).sort((a, b) => b.at - a.at)
      const page = all.slice(0, limit)
      return Simulator.json({
        notifications: page.map((entry) => entry.notification),
        ...(all.length > limit ? { cursor: String(page[page.length - 1]!.at) } : {})
      })
    }))

  return { permalink, getPosts, listNotifications }
}
