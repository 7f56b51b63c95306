import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import type { SimulatedPost, SimulatorState } from "./SimulatorState.ts"

/**
 * The page a sandbox network shows at the link it gave out for an item, so a person following a published
 * post's `url` sees the post as the network would: who posted it, its text, its media, when, each part of a
 * thread or carousel, and the comments the simulator holds. Each simulator maps its item to a `Page`; the
 * rendering is this one. Everything shown is escaped (texts are what people typed), and the page loads
 * nothing from other hosts: no scripts, no fonts, only the media the item points at.
 */

export interface Media {
  readonly kind: "image" | "video"
  /** Where the media can be fetched (the stored media or Herald's media URL); undefined when not kept. */
  readonly url: string | undefined
  /** What is shown in its place when there is no URL (`video/mp4, 1234 bytes`). */
  readonly label?: string | undefined
}

export interface Part {
  readonly text: string
  readonly media: ReadonlyArray<Media>
}

export interface Comment {
  readonly author: string
  readonly text: string
  /** ISO time. */
  readonly createdAt: string
  /** Whether it answers another comment (shown indented). */
  readonly reply: boolean
}

export interface Page {
  /** The network's name as people know it (`X`, `Instagram`). */
  readonly network: string
  readonly account: { readonly name: string; readonly handle: string }
  /** A title the network shows above the text (a video's), if any. */
  readonly title?: string | undefined
  /** The post, or each post of a thread in order; a carousel is one part with several media. */
  readonly parts: ReadonlyArray<Part>
  /** Epoch milliseconds. */
  readonly createdAt: number
  readonly comments: ReadonlyArray<Comment>
  /** A line about the item the network would show (who can see it). */
  readonly note?: string | undefined
}

const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" }

/** Text made safe for HTML content and attribute values. */
export const escape = (text: string): string => text.replace(/[&<>"']/g, (char) => entities[char]!)

/** Media by its URL's extension: videos end in a video extension, anything else is shown as an image. */
export const mediaOf = (url: string): Media =>
  /\.(mp4|mov|m4v|webm)(\?|#|$)/i.test(url) ? { kind: "video", url } : { kind: "image", url }

// Only http(s) addresses become `src`: anything else (a URN, a description) is shown as its label.
const isFetchable = (url: string | undefined): url is string => url !== undefined && /^https?:\/\//i.test(url)

const renderMedia = (media: Media) => {
  if (!isFetchable(media.url)) {
    const label = media.label ?? `A ${media.kind === "video" ? "video" : "photo"} (the sandbox keeps no copy of its bytes)`
    return `<div class="missing">${escape(label)}</div>`
  }
  const source = escape(media.url)
  return media.kind === "video"
    ? `<video controls preload="metadata" src="${source}"></video>`
    : `<img alt="" src="${source}">`
}

const renderPart = (part: Part) =>
  `<article>${part.text === "" ? "" : `<p class="text">${escape(part.text)}</p>`}${
    part.media.length === 0 ? "" : `<div class="media">${part.media.map(renderMedia).join("")}</div>`
  }</article>`

const renderComment = (comment: Comment) =>
  `<li${comment.reply ? " class=\"reply\"" : ""}><b>${escape(comment.author)}</b> <time datetime="${escape(comment.createdAt)}">${
    escape(comment.createdAt)
  }</time><p>${escape(comment.text)}</p></li>`

const style = `body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#111;background:#fafafa}
header{border-bottom:1px solid #ddd;margin-bottom:1rem}header p{margin:.25rem 0;color:#555}
article{background:#fff;border:1px solid #ddd;border-radius:8px;padding:1rem;margin-bottom:.75rem}
.text{white-space:pre-wrap;margin:0 0 .5rem}.media{display:grid;gap:.5rem}img,video{max-width:100%;border-radius:6px}
.missing{padding:2rem;background:#eee;border-radius:6px;color:#555;text-align:center}
ul{list-style:none;padding:0}li{border-top:1px solid #eee;padding:.5rem 0}li.reply{margin-left:2rem}li p{margin:.25rem 0}
time{color:#555;font-size:.875rem}footer{color:#555;font-size:.875rem;margin-top:1rem}`

const document = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
  `<title>${escape(title)}</title><style>${style}</style></head><body>${body}</body></html>`

/** The whole page of an item, as HTML. */
export const render = (page: Page): string => {
  const time = new Date(page.createdAt).toISOString()
  const header = `<header><h1>${escape(page.account.name)}</h1><p>${escape(page.account.handle)} on ${escape(page.network)} · ` +
    `<time datetime="${time}">${time}</time></p>${page.note === undefined ? "" : `<p>${escape(page.note)}</p>`}</header>`
  const title = page.title === undefined ? "" : `<h2>${escape(page.title)}</h2>`
  const comments = page.comments.length === 0
    ? ""
    : `<section><h2>Comments</h2><ul>${page.comments.map(renderComment).join("")}</ul></section>`
  const footer = `<footer>Shown by Herald's ${escape(page.network)} sandbox: nothing here reached the real network.</footer>`
  const first = page.parts[0]?.text ?? ""
  return document(
    `${page.account.name} on ${page.network}: ${page.title ?? (first.length > 60 ? `${first.slice(0, 60)}…` : first)}`,
    `<main>${header}${title}${page.parts.map(renderPart).join("")}${comments}${footer}</main>`
  )
}

const html = (body: string, status: number) =>
  HttpServerResponse.text(body, { status, contentType: "text/html; charset=utf-8" })

/** What a link to an item the sandbox does not hold shows. */
export const notFound = (network: string) =>
  html(
    document(
      `Not found on ${network}`,
      `<main><h1>This page isn't available</h1><p>Herald's ${escape(network)} sandbox holds nothing at this link.</p></main>`
    ),
    404
  )

/** A post's own fields as one part, its media by extension. */
export const partOf = (post: SimulatedPost): Part => ({ text: post.text, media: post.media.map(mediaOf) })

/** A post and the account's own replies chained under it: a thread, shown whole on its first post's page. */
export const threadOf = (state: SimulatorState, post: SimulatedPost): ReadonlyArray<SimulatedPost> => {
  const own = state.postsOf(post.accountId)
  const parts = [post]
  for (let last = post; ;) {
    const reply = own.find((candidate) => candidate.replyTo === last.id)
    if (reply === undefined || parts.includes(reply)) return parts
    parts.push(reply)
    last = reply
  }
}

/**
 * The parts of a thread's page on a network that took the media's bytes, which the sandbox does not keep:
 * each post of the thread as a part, its media as placeholders.
 */
export const threadParts = (state: SimulatorState, post: SimulatedPost): ReadonlyArray<Part> =>
  threadOf(state, post).map((part) => ({
    text: part.text,
    media: part.media.map((url) => ({ ...mediaOf(url), url: undefined }))
  }))

/**
 * A post's page with what every network shows the same way: the account, the post as one part (unless
 * `parts` are given), its time, and the comments on it in order, answers after the comment they answer.
 */
export const ofPost = (
  state: SimulatorState,
  post: SimulatedPost,
  options: {
    readonly network: string
    readonly parts?: ReadonlyArray<Part> | undefined
    readonly title?: string | undefined
    readonly note?: string | undefined
    /** How the account is written (`@name`); `@username` by default. */
    readonly handle?: ((username: string) => string) | undefined
  }
): Page => {
  const account = state.accounts.get(post.accountId)
  const username = account?.username ?? post.accountId
  const onPost = state.commentsAfter(post.accountId, 0).filter((comment) => comment.postId === post.id)
  const comments = onPost.filter((comment) => comment.replyTo === null).flatMap((top) => [
    top,
    ...onPost.filter((comment) => comment.replyTo === top.id)
  ])
  // Answers to answers (a network that nests deeper) come last rather than not at all.
  const shown = new Set(comments.map((comment) => comment.id))
  const rest = onPost.filter((comment) => !shown.has(comment.id))
  return {
    network: options.network,
    account: { name: account?.displayName ?? username, handle: options.handle?.(username) ?? `@${username}` },
    title: options.title,
    parts: options.parts ?? [partOf(post)],
    createdAt: post.createdAt,
    comments: [...comments, ...rest].map((comment) => ({
      author: comment.author.name ?? comment.author.username,
      text: comment.text,
      createdAt: comment.createdAt,
      reply: comment.replyTo !== null
    })),
    note: options.note
  }
}

// A link's path below the simulator's root (without trailing slashes) and its query; undefined for another root.
const below = (root: string, link: string) => {
  const url = new URL(link, "http://simulator")
  return url.pathname.startsWith(root)
    ? { path: url.pathname.slice(root.length).replace(/\/+$/, ""), query: url.searchParams }
    : undefined
}

/**
 * The post a request is the link of: the post whose `url` has the same path below the simulator's root (as
 * the router hands a request over, its mount prefix taken off), and whose query parameters (YouTube's `v`)
 * the request carries; more may follow (a comment's link adds its own). Hosts are not compared: every
 * process sharing the sandbox serves the links the others gave out under their own addresses.
 */
export const postAt = (state: SimulatorState, baseUrl: string, requestUrl: string): SimulatedPost | undefined => {
  const root = new URL(baseUrl).pathname.replace(/\/+$/, "")
  const wanted = below("", requestUrl)!
  for (const post of state.posts.values()) {
    const link = below(root, post.url)
    if (link === undefined || link.path !== wanted.path) continue
    if ([...link.query].every(([name, value]) => wanted.query.get(name) === value)) return post
  }
  return undefined
}

/**
 * `GET` routes that answer, at each of `paths`, the page of the post linked there (`page` maps it; undefined
 * for an item it does not show), or the 404 page.
 */
export const routes = (
  paths: ReadonlyArray<HttpRouter.PathInput>,
  options: {
    readonly network: string
    readonly state: SimulatorState
    readonly baseUrl: string
    readonly page: (post: SimulatedPost) => Page | undefined
  }
): ReadonlyArray<HttpRouter.Route<never, never>> =>
  paths.map((path) =>
    HttpRouter.route(
      "GET",
      path,
      Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
        const post = postAt(options.state, options.baseUrl, request.url)
        const page = post === undefined ? undefined : options.page(post)
        return page === undefined ? notFound(options.network) : html(render(page), 200)
      })
    )
  )
