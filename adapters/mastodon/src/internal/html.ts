/**
 * Mastodon sends a status's text as HTML (`content`, https://docs.joinmastodon.org/spec/activitypub/#sanitization):
 * paragraphs, line breaks, links whose shown text is split into invisible and ellipsis spans, mentions and
 * hashtags as links. Herald's inbox and its look-ups by text want it as plain text.
 */

const entities: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: " " }

const decode = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith("#x") || name.startsWith("#X")) return String.fromCodePoint(Number.parseInt(name.slice(2), 16))
    if (name.startsWith("#")) return String.fromCodePoint(Number.parseInt(name.slice(1), 10))
    return entities[name.toLowerCase()] ?? whole
  })

/** The text a person reads: paragraphs apart by a blank line, `<br>` a line break, every tag gone, entities decoded. */
export const toText = (html: string): string =>
  decode(
    html
      .replace(/<br\s*\/?>/gi, "\n")
      .replace(/<\/p>\s*<p[^>]*>/gi, "\n\n")
      .replace(/<[^>]*>/g, "")
  ).trim()

/** Two texts are the same status text when they read the same, whitespace aside (the instance reformats it). */
export const sameText = (a: string, b: string): boolean => a.replace(/\s+/g, " ").trim() === b.replace(/\s+/g, " ").trim()

/** Text as a stock instance renders it in `content`: escaped, links made links, paragraphs and line breaks. */
export const toHtml = (text: string): string => {
  const escape = (part: string) =>
    part.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[char]!)
  const linked = (part: string) =>
    escape(part).replace(/https?:\/\/[^\s<]+/g, (url) => {
      const shown = url.replace(/^https?:\/\//, "")
      const scheme = url.slice(0, url.length - shown.length)
      return `<a href="${url}" rel="nofollow noopener" target="_blank"><span class="invisible">${scheme}</span>` +
        `<span class="ellipsis">${shown.slice(0, 30)}</span><span class="invisible">${shown.slice(30)}</span></a>`
    })
  return text.split(/\n{2,}/).map((paragraph) => `<p>${paragraph.split("\n").map(linked).join("<br />")}</p>`).join("")
}
