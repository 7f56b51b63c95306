import type { paths } from "@herald/client/api"
import type { Network } from "../accounts/connect.ts"
import { setOptions } from "./networkOptions.ts"
import type { Post } from "./postQuery.ts"

type CreateBody = paths["/api/v1/posts"]["post"]["requestBody"]["content"]["application/json"]

/**
 * A new draft with the post's content, accounts, media, per-network text, first comment and each network's
 * options as set (put where that network's options sit in a request), without a time.
 */
export const duplicateBody = (post: Post, networks: ReadonlyArray<Network>): CreateBody => {
  const topLevel: Record<string, unknown> = {}
  const platformOptions: Record<string, Record<string, unknown>> = {}
  for (const network of networks) {
    const set = setOptions(post, network)
    if (Object.keys(set).length === 0) continue
    if (network.options?.placement === "top") Object.assign(topLevel, set)
    else platformOptions[network.key] = set
  }
  return {
    draft: true,
    content: post.content,
    accountIds: post.targets.map((target) => target.accountId),
    mediaIds: post.media.map((item) => item.id),
    platformContent: post.platformContent,
    firstComment: post.firstComment,
    ...topLevel,
    ...(Object.keys(platformOptions).length === 0 ? {} : { platformOptions })
  } as CreateBody
}
