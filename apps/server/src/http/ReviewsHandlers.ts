import { Effect } from "effect"
import * as HandlerGroup from "./HandlerGroup.ts"
import { Authorization, HeraldApi, PostsApi } from "@herald/api"
import { Networks, Reviews } from "@herald/core"
import { PostStatus } from "@herald/domain"
import { answered } from "./ErrorRendering.ts"
import { escape, page } from "../internal/page.ts"

const workspace = Effect.map(Effect.service(Authorization.CurrentPrincipal), (principal) => principal.workspaceId)
/** Who asks, as the review rules see them: the member and role (null for a workspace key). */
const asking = Effect.map(Effect.service(Authorization.CurrentPrincipal), (principal) => ({
  workspaceId: principal.workspaceId,
  actor: { memberId: principal.memberId, role: principal.role }
}))

export const layer = (api: HeraldApi.HeraldApi) => HandlerGroup.group(
  api,
  "reviews",
  Effect.fnUntraced(function*(handlers) {
    const reviews = yield* Reviews.Reviews
    return handlers
      .handle("createProfile", ({ payload }) =>
        Effect.flatMap(asking, ({ actor, workspaceId }) => reviews.createProfile(workspaceId, payload, actor)).pipe(
          Effect.map((data) => ({ data })),
          answered
        ))
      .handle("profiles", () =>
        Effect.flatMap(workspace, (workspaceId) => reviews.profiles(workspaceId)).pipe(Effect.map((data) => ({ data })), Effect.orDie))
      .handle("deleteProfile", ({ params }) =>
        Effect.flatMap(asking, ({ actor, workspaceId }) => reviews.deleteProfile(workspaceId, params.id, actor)).pipe(
          Effect.as({ data: new PostsApi.Deleted({ id: params.id, deleted: true }) }),
          answered
        ))
      .handle("createLink", ({ params, payload }) =>
        Effect.flatMap(asking, ({ actor, workspaceId }) => reviews.createLink(workspaceId, params.id, payload, actor)).pipe(
          Effect.map((data) => ({ data })),
          answered
        ))
  })
)

/**
 * The post as each of its networks will show it: the text that network gets, and the title and thread its
 * adapter makes of the post's options, the media.
 */
const renderingWith = (networks: Networks.Networks["Service"]) => (opened: Reviews.Opened, token: string, said?: string) => {
  const { post, profile } = opened
  const keys = [...new Set(post.targets.map((target) => target.platform))]
  const versions = keys.map((network) => {
    const text = post.platformContent[network] ?? post.content
    const who = post.targets.filter((target) => target.platform === network).map((target) => `@${target.username}`).join(", ")
    const options = networks.all.find((adapter) => adapter.network === network)?.options
    const parts = options === undefined ? {} : options.version({ ...options.defaults, ...post.options[network] }, () => undefined)
    const follow = parts.thread ?? []
    const thread = follow.length > 0 ? `<ol>${follow.map((entry) => `<li>${escape(entry)}</li>`).join("")}</ol>` : ""
    const title = parts.title == null ? "" : `<p><strong>${escape(parts.title)}</strong></p>`
    return `<section style="border:1px solid #ccc;border-radius:8px;padding:1rem;margin:1rem 0">` +
      `<h2 style="margin-top:0">${escape(network)} <small>${escape(who)}</small></h2>${title}` +
      `<p style="white-space:pre-wrap">${escape(text)}</p>${thread}` +
      post.media.map((item) =>
        item.previewUrl === null
          ? `<p><a href="${escape(item.url)}">video</a></p>`
          : `<img src="${escape(item.previewUrl)}" alt="" style="max-width:100%;max-height:16rem">`
      ).join("") +
      `</section>`
  }).join("")
  const when = post.scheduledAt === null ? "no time set" : `scheduled for ${post.scheduledAt}`
  const form = post.status === PostStatus.awaiting_approval
    ? `<form method="post" action="/review/${escape(token)}">` +
      `<p><label>Note (needed to ask for changes)<br><textarea name="note" rows="3" style="width:100%"></textarea></label></p>` +
      `<button name="action" value="approve">Approve</button> ` +
      `<button name="action" value="request-changes">Request changes</button></form>`
    : `<p>This post is ${escape(post.status.replace("_", " "))}: nothing to decide.</p>`
  return page(
    `Review for ${profile.name}`,
    `${said === undefined ? "" : `${said} `}A post ${when}; the link works until ${opened.expiresAt.toISOString()}.`,
    versions + form
  )
}

export const pagesLayer = (api: HeraldApi.HeraldApi) => HandlerGroup.group(
  api,
  "reviewPages",
  Effect.fnUntraced(function*(handlers) {
    const reviews = yield* Reviews.Reviews
    const rendering = renderingWith(yield* Networks.Networks)
    const refused = (error: { readonly message: string }) => Effect.fail(page("Review not available", error.message))
    return handlers
      .handle("show", ({ params }) =>
        reviews.open(params.token).pipe(
          Effect.map((opened) => rendering(opened, params.token)),
          Effect.catch(refused)
        ))
      .handle("decide", ({ params, payload }) =>
        reviews.decide(params.token, payload).pipe(
          Effect.map((opened) =>
            rendering(
              opened,
              params.token,
              payload.action === "approve" ? "Approved: thank you." : "Sent back with your note: thank you."
            )
          ),
          // Every refusal (the link's, the note's, the post's) is a page saying why: each error's message is its reason's.
          Effect.catch(refused)
        ))
  })
)
