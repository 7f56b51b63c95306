import { assert, describe, it } from "@effect/vitest"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"

// Issue 16, point 2: no network is named outside its adapter. The core, the contract, the storage, the MCP
// server and the apps read networks from the installed adapters; only the composition root's list of
// installed packages (apps/server/src/Packages.ts) names them, and migrations up to 0024 keep the history of
// the columns they once had. Comments count too: they go stale the same way.

const root = fileURLToPath(new URL("../../../", import.meta.url))
const folders = [
  "packages/domain/src",
  "packages/core/src",
  "packages/api/src",
  "packages/db/src",
  "packages/mcp/src",
  "apps/server/src",
  "apps/cli/src",
  "apps/console/src"
]
const allowed = (path: string) =>
  path === "apps/server/src/Packages.ts" ||
  (/^packages\/db\/src\/migrations\/(\d{4})_/.test(path) && Number(path.match(/migrations\/(\d{4})_/)![1]) <= 24)

const packagesList = readFileSync(join(root, "apps/server/src/Packages.ts"), "utf8")
/** The installed keys (`network: "x"`), and Mastodon, being added beside them. */
const keys = [...new Set([...[...packagesList.matchAll(/network: "([a-z0-9-]+)"/g)].map((match) => match[1]!), "mastodon"])]

const caseless = (word: string) => [...word].map((letter) => `[${letter.toLowerCase()}${letter.toUpperCase()}]`).join("")

/**
 * How each key shows up in code and prose: as a word in any case and as the start of a camelCase name
 * (`youtubeTitle`, `TikTokSettings`); a key that is also an English word or a letter (`x`, `threads`) only
 * as a string literal or a camelCase prefix (`"x"`, `xThread`, `"threads"`), not as the first letter of an
 * acronym (`XMLHttpRequest`).
 */
const patternOf = (key: string) =>
  key.length <= 1 || key === "threads"
    ? new RegExp(`["'\`]${key}["'\`]|(?<![A-Za-z0-9])${caseless(key)}(?=[A-Z](?![A-Z]))`)
    : new RegExp(`(?<![A-Za-z0-9])${caseless(key)}(?![a-z0-9])`)

const filesUnder = (folder: string): Array<string> =>
  readdirSync(folder).flatMap((name) => {
    const path = join(folder, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })

/** Every `file:line: text` that names a network outside the allowed files. */
export const hits = (): Array<string> => {
  const patterns = keys.map((key) => ({ key, pattern: patternOf(key) }))
  const found: Array<string> = []
  for (const folder of folders) {
    for (const file of filesUnder(join(root, folder))) {
      const path = relative(root, file)
      if (allowed(path) || !/\.(ts|tsx|js|css|html|md|json)$/.test(path)) continue
      readFileSync(file, "utf8").split("\n").forEach((line, index) => {
        for (const { key, pattern } of patterns) {
          if (pattern.test(line)) found.push(`${path}:${index + 1}: ${key}: ${line.trim().slice(0, 120)}`)
        }
      })
    }
  }
  return found
}

describe("network names", () => {
  it("reads the installed networks from the composition root's list", () => {
    assert.includeMembers(keys, ["x", "threads", "youtube", "bluesky", "mastodon"])
  })

  it("finds a name as the test means it: words, literals and camelCase prefixes, not look-alikes", () => {
    const named = (line: string) => keys.filter((key) => patternOf(key).test(line))
    assert.deepStrictEqual(named(`if (network === "x") return post.xThread`), ["x"])
    assert.deepStrictEqual(named(`// YouTube: the video's title (youtubeTitle)`), ["youtube"])
    assert.deepStrictEqual(named(`const settings: TikTokSettings = {}`), ["tiktok"])
    assert.deepStrictEqual(named(`platform: "threads"`), ["threads"])
    assert.deepStrictEqual(named(`HERALD_MASTODON_CLIENT_ID`), ["mastodon"])
    assert.deepStrictEqual(named(`follow-ups as a thread of replies; the next x is max(x, 1); threads of replies`), [])
    assert.deepStrictEqual(named(`const request = new XMLHttpRequest()`), [])
    assert.deepStrictEqual(named(`post.XThread ?? post.xA`), ["x"])
  })

  it("names no network in domain, core, api, db, mcp or the apps, outside the installed-packages list", () => {
    const found = hits()
    assert.deepStrictEqual(found, [], `${found.length} mentions:\n${found.join("\n")}`)
  })
})
