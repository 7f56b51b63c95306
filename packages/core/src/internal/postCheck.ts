import { Clock, Effect, Option } from "effect"
import type { SqlClient } from "effect/sql"
import type { PostVersion } from "@herald/adapter-kit"
import { columns, mediaItem, type MediaRow } from "./mediaItems.ts"
import type { Networks } from "../Networks.ts"
import type * as PostShape from "../PostShape.ts"
import type { CreateInput } from "../Posts.ts"
import { type Draft, networkProblems, type Problem, scheduledTime } from "./postRules.ts"
import * as ServerLimits from "./serverLimits.ts"

/** The most accounts one post goes to, and media it carries: far past any network's, bounded before work. */
const maxAccountIds = 100
const maxMediaIds = 100

/** The media ids option fields name (a thumbnail), each with where it sits. */
export const mediaFieldsOf = (shape: PostShape.PostShape, options: PostShape.Document) =>
  shape.declared.flatMap(({ network, options: declaration }) =>
    (declaration.mediaFields ?? []).flatMap((field) => {
      const id = options[network]?.[field]
      return typeof id === "string" ? [{ network, field, id }] : []
    })
  )

/**
 * Every rule of a post request, shared by create and update: timing, times, accounts and media of the
 * workspace, platform keys, and each network's limits through its adapter. Collects every problem.
 */
export const makeCheck = (
  sql: SqlClient.SqlClient,
  networks: Networks["Service"],
  baseUrl: string,
  shape: PostShape.PostShape
) => {
  const mediaItems = (workspaceId: string, ids: ReadonlyArray<string>) =>
    ids.length === 0
      ? Effect.succeed(new Map<string, PostVersion.MediaItem>())
      : Effect.map(
        sql<MediaRow>`SELECT ${sql.literal(columns("media"))} FROM media
          WHERE workspace_id = ${workspaceId} AND ${sql.in("id", ids)}`,
        (rows) => new Map(rows.map((row) => [row.id, mediaItem(baseUrl, row)]))
      )

  // Every rule of a post request, shared by create and update. `timeChanged` is false when an update
  // leaves a scheduled time as it was, which may by now lie in the past.
  const check = Effect.fnUntraced(function*(workspaceId: string, input: CreateInput, timeChanged: boolean) {
    const problems: Array<Problem> = []
    const now = yield* Clock.currentTimeMillis
    const timings = [input.scheduledAt !== undefined, input.publishNow === true, input.queued === true, input.draft === true]
      .filter(Boolean).length
    if (timings !== 1) {
      problems.push({
        field: "scheduledAt",
        message: timings === 0
          ? "Say when: send exactly one of scheduledAt, publishNow: true, queued: true or draft: true"
          : "Send exactly one of scheduledAt, publishNow: true, queued: true or draft: true, not several"
      })
    }
    const draft = input.draft === true
    let scheduledAt: Date | null = input.publishNow === true ? new Date(now) : null
    if (input.scheduledAt !== undefined) {
      const parsed = scheduledTime(input.scheduledAt, timeChanged ? now : Number.NEGATIVE_INFINITY)
      if ("at" in parsed) scheduledAt = parsed.at
      else problems.push(parsed)
    }
    // Counted before any other work on them (issue 28: 40,000 ids were a 500, and the repeat check is quadratic).
    const tooManyAccounts = input.accountIds.length > maxAccountIds
    if (tooManyAccounts) {
      problems.push({ field: "accountIds", message: `accountIds has ${input.accountIds.length} ids; a post goes to at most ${maxAccountIds} accounts` })
    }
    const accountIds = tooManyAccounts ? [] : input.accountIds
    if (!tooManyAccounts && accountIds.length === 0) problems.push({ field: "accountIds", message: "accountIds needs at least one account" })
    const duplicates = accountIds.filter((id, index) => accountIds.indexOf(id) !== index)
    if (duplicates.length > 0) problems.push({ field: "accountIds", message: `accountIds repeats ${[...new Set(duplicates)].join(", ")}` })
    const accounts = accountIds.length === 0 ? [] : yield* sql<{
      readonly id: string
      readonly platform: string
      readonly username: string
      readonly status: string
      readonly server: string | null
    }>`SELECT id, platform, username, status, server FROM accounts WHERE workspace_id = ${workspaceId} AND ${sql.in("id", accountIds)}`
    for (const id of new Set(accountIds)) {
      const account = accounts.find((entry) => entry.id === id)
      if (account === undefined || account.status === "disconnected") {
        problems.push({ field: "accountIds", message: `Account ${id} is not an account of this workspace` })
      } else if (!draft && account.status !== "connected") {
        problems.push({ field: "accountIds", message: `Account ${id} (@${account.username} on ${account.platform}) needs reconnecting first` })
      }
    }
    const tooManyMedia = (input.mediaIds ?? []).length > maxMediaIds
    if (tooManyMedia) {
      problems.push({ field: "mediaIds", message: `mediaIds has ${input.mediaIds!.length} ids; a post carries at most ${maxMediaIds} media` })
    }
    const mediaIds = tooManyMedia ? [] : input.mediaIds ?? []
    const options = input.options ?? {}
    const optionMedia = mediaFieldsOf(shape, options)
    const media = yield* mediaItems(workspaceId, [...mediaIds, ...optionMedia.map((entry) => entry.id)])
    for (const id of mediaIds) if (!media.has(id)) problems.push({ field: "mediaIds", message: `Media ${id} does not exist` })
    for (const entry of optionMedia) {
      if (!media.has(entry.id)) {
        problems.push({ field: shape.requestField(entry.network, entry.field), message: `Media ${entry.id} does not exist` })
      }
    }
    const platformContent = input.platformContent ?? {}
    for (const key of Object.keys(platformContent)) {
      if (Option.isNone(yield* Effect.option(networks.get(key)))) {
        problems.push({ field: "platformContent", message: `platformContent has "${key}", which is not a network here` })
      }
    }
    const draftPost: Draft = {
      content: input.content ?? "",
      platformContent,
      options,
      firstComment: input.firstComment ?? null,
      media: mediaIds.flatMap((id) => { const item = media.get(id); return item === undefined ? [] : [item] }),
      optionMedia: media
    }
    const platforms = [...new Set(accounts.map((account) => account.platform))]
    const adapters = yield* Effect.forEach(platforms, (platform) => Effect.option(networks.get(platform)))
    // Per server where a network's limits differ per server; the same problem from two servers is said once.
    const checkers = yield* ServerLimits.forAccounts(adapters.flatMap((adapter) => Option.isSome(adapter) ? [adapter.value] : []), accounts)
    const said = new Set<string>()
    problems.push(...networkProblems(checkers, draftPost, shape).filter((problem) => {
      const key = JSON.stringify([problem.field, problem.message])
      return said.has(key) ? false : (said.add(key), true)
    }))
    return { problems, now, draft, scheduledAt, accounts, accountIds, mediaIds, draftPost, platformContent }
  })

  return check
}
