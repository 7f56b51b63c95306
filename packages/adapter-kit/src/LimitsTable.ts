import type { ApiVersion } from "./ApiVersion.ts"
import type { FormLimits, Limits, TextCounter } from "./Limits.ts"
import * as SimulatorRules from "./SimulatorRules.ts"

// The limits section of an adapter's README, written from its limits data so the two cannot drift
// (`pnpm docs:limits` rewrites the section between `<!-- limits:start -->` and `<!-- limits:end -->`,
// and a test fails when a README is out of date).

const counted: Record<TextCounter, string> = {
  "characters": "characters",
  "x-weighted": "characters, counted as X counts them (URLs 23, CJK and emoji 2)",
  "utf8-bytes": "bytes of UTF-8",
  "graphemes": "graphemes (characters as a person sees them: an emoji with its modifiers is one)",
  "mastodon": "characters as Mastodon counts them (graphemes; every link 23, a remote mention only as @user)",
  "utf16-units": "UTF-16 code units (an emoji is 2)",
  "emoji-bytes": "characters, each emoji counted as its UTF-8 bytes (a face is 4)"
}

/** `1,000,000 bytes (1 MB)`, MB being 1,000,000 bytes and MiB 1,048,576, whichever the figure is a whole number of. */
const size = (bytes: number) => {
  const whole = (unit: number, name: string) => bytes % unit === 0 ? ` (${bytes / unit} ${name})` : undefined
  const readable = whole(1024 ** 3, "GiB") ?? whole(1e9, "GB") ?? whole(1024 ** 2, "MiB") ?? whole(1e6, "MB") ?? ""
  return `${bytes.toLocaleString("en-US")} bytes${readable}`
}

const duration = (millis: number) =>
  millis % 60_000 === 0 && millis >= 60_000 ? `${millis / 60_000} min` : `${millis / 1000} s`

const rows = (form: FormLimits): Array<readonly [string, string]> => {
  const result: Array<readonly [string, string]> = []
  result.push([
    "Text",
    form.text.ignored === true ? "accepted but not shown by the network (not sent)" : `up to ${form.text.max} ${counted[form.text.counter]}`
  ])
  const countsWith = form.text.countsWith
  if (countsWith !== undefined) {
    result.push(["Counted with the text", `the ${countsWith.name} (\`${countsWith.setting}\`), in ${counted[countsWith.counter]}`])
  }
  if (form.text.maxBytes !== undefined) result.push(["Text size", `up to ${size(form.text.maxBytes)} of UTF-8`])
  if (form.text.forbidden !== undefined) result.push(["Text may not contain", form.text.forbidden.map((character) => `\`${character}\``).join(", ")])
  if (form.text.maxLinks !== undefined) result.push(["Links", `at most ${form.text.maxLinks}`])
  if (form.textOrMedia === true) result.push(["Text or media", "required"])
  const media = form.media
  const kinds = [
    media.maxPhotos > 0 ? `up to ${media.maxPhotos} photo${media.maxPhotos === 1 ? "" : "s"}` : "no photos",
    media.maxVideos > 0 ? `up to ${media.maxVideos} video${media.maxVideos === 1 ? "" : "s"}` : "no videos"
  ].join(", ")
  result.push([
    "Media",
    `${media.minItems === 0 ? "optional" : `at least ${media.minItems}`}, at most ${media.maxItems} in all (${kinds})` +
    (media.mixing ? "; photos and videos may be mixed" : "; photos and videos cannot be mixed")
  ])
  if (media.photoAspectRatio !== undefined) {
    result.push(["Photo aspect ratio", `${media.photoAspectRatio.min} to ${media.photoAspectRatio.max} (width ÷ height)`])
  }
  if (media.videoDurationMs !== undefined) {
    const { max, min } = media.videoDurationMs
    result.push(["Video length", min === 0 ? `up to ${duration(max)}` : `${duration(min)} to ${duration(max)}`])
  }
  if (media.videoTypes !== undefined) result.push(["Video types", media.videoTypes.map((type) => `\`${type}\``).join(", ")])
  if (media.maxPhotoBytes !== undefined) {
    result.push(["Photo file size", `up to ${size(media.maxPhotoBytes)}; a larger photo is sent as a copy fitted to it`])
  }
  if (media.maxVideoBytes !== undefined) result.push(["Video file size", `up to ${size(media.maxVideoBytes)}`])
  result.push([
    "Alt text",
    media.altText === undefined ? "not supported (not sent)" : `sent, up to ${media.altText.max} characters`
  ])
  if (form.thread !== undefined) {
    result.push(["Thread", `up to ${form.thread.maxPosts} posts in all, each up to ${form.thread.maxLength}; follow-ups are text only`])
  }
  if (form.title !== undefined) {
    result.push([
      "Title",
      `${form.title.required ? "required" : "optional"}, up to ${form.title.max} characters` +
      (form.title.forbidden === undefined ? "" : `, without ${form.title.forbidden.map((character) => `\`${character}\``).join(" or ")}`)
    ])
  }
  result.push(["Thumbnail", form.thumbnail === true ? "accepted (a photo)" : "not supported"])
  result.push(["First comment", form.firstComment === true ? "accepted" : "not supported"])
  return result
}

/**
 * A network's limits as plain lines, one per form of post (`Form post: Text up to 280 characters; ...`):
 * the MCP tools put them in their descriptions, where a table would be noise.
 */
export const summary = (limits: Limits): ReadonlyArray<string> =>
  Object.entries(limits.forms).map(([format, form]) =>
    `form ${format}${format === "post" ? " (default)" : ""}: ` +
    rows(form).map(([rule, limit]) => `${rule}: ${limit.replace(/`/g, "")}`).join("; ")
  )

/** The markdown of a network's limits: one table per form of post. */
export const render = (limits: Limits): string =>
  Object.entries(limits.forms).map(([format, form]) =>
    [
      `Form \`${format}\`${format === "post" ? " (the default)" : ""}:`,
      "",
      "| Rule | Limit |",
      "| --- | --- |",
      ...rows(form).map(([rule, limit]) => `| ${rule} | ${limit} |`)
    ].join("\n")
  ).join("\n\n")

const start = "<!-- limits:start -->"
const end = "<!-- limits:end -->"

/** The line on the API version an adapter calls: `API version: v26.0, served until a day not yet announced ([source](…), read …).` */
export const version = (api: ApiVersion): string =>
  `API version: \`${api.version}\`, served ${api.sunset === null ? "with no sunset announced" : `until ${api.sunset}`} ` +
  `([source](${api.source}), read ${api.checked}).`

/**
 * The README with its limits section replaced by the API version line, `render(limits)` and, where the
 * simulator keeps a table of the network's rules (`SimulatorRules`), that table.
 */
export const rewrite = (
  readme: string,
  limits: Limits,
  api: ApiVersion,
  source: string,
  rules?: { readonly source: string; readonly table: SimulatorRules.Table }
): string => {
  const from = readme.indexOf(start)
  const to = readme.indexOf(end)
  if (from === -1 || to === -1 || to < from) return readme
  const simulator = rules === undefined
    ? ""
    : `\nThe rules the sandbox's simulator holds each request to, as the network states them (from \`${rules.source}\`):\n\n` +
      `${SimulatorRules.render(rules.table)}\n`
  return `${readme.slice(0, from + start.length)}\n_Generated from \`${source}\` by \`pnpm docs:limits\`._\n\n` +
    `${version(api)}\n\n${render(limits)}\n${simulator}${readme.slice(to)}`
}
