import { Effect, Option } from "effect"
import { type Limits, TextCounter } from "@herald/adapter-kit"
import type { Networks } from "../Networks.ts"
import type { CreateInput } from "../Posts.ts"
import type { makeCheck } from "./postCheck.ts"
import { type Problem, versionFor } from "./postRules.ts"
import * as ServerLimits from "./serverLimits.ts"

/**
 * A create request checked and not saved (`POST /api/v1/posts/validate`, decision 0041): the problems
 * create would answer, and each network's text count and version, so that a client shows what the server
 * decides instead of counting for itself.
 */

/** How long a network finds the text, by its own counter, and the most it takes. */
export interface TextCount {
  readonly used: number
  readonly max: number
  readonly counter: Limits.TextCounter
}

/** The post as one network's adapter would be sent it, media by id. */
export interface VersionSummary {
  readonly text: string
  readonly thread: ReadonlyArray<string>
  readonly format: string
  readonly title: string | null
  readonly thumbnail: string | null
  readonly firstComment: string | null
  readonly media: ReadonlyArray<string>
}

export interface NetworkCheck {
  readonly network: string
  /** The request's accounts on this network, in the request's order. */
  readonly accountIds: ReadonlyArray<string>
  readonly text: TextCount
  readonly version: VersionSummary
}

export interface Validation {
  readonly valid: boolean
  readonly problems: ReadonlyArray<Problem>
  readonly networks: ReadonlyArray<NetworkCheck>
}

export const makeValidate = (check: ReturnType<typeof makeCheck>, networks: Networks["Service"]) =>
  Effect.fn("Posts.validate")(function*(workspaceId: string, input: CreateInput) {
    const { accountIds, accounts, draftPost, problems } = yield* check(workspaceId, input, true)
    // In the order the request names the accounts: the first account of each network places it.
    const platforms = [...new Set(accountIds.flatMap((id) => accounts.filter((account) => account.id === id).map((account) => account.platform)))]
    const checks = yield* Effect.forEach(platforms, (platform) =>
      Effect.gen(function*() {
        const found = yield* Effect.option(networks.get(platform))
        if (Option.isNone(found)) return []
        const adapter = found.value
        const onNetwork = accountIds.filter((id) => accounts.some((account) => account.id === id && account.platform === platform))
        const version = versionFor(adapter, draftPost)
        // A network whose limits differ per server: the smallest of its accounts' servers, which is the one
        // the problems hold the text to.
        const servers = [...new Set(accounts.filter((account) => account.platform === platform).map((account) => account.server))]
        const limits = yield* Effect.forEach(servers, (server) => ServerLimits.limitsOf(adapter, server))
        const forms = limits.map((each) => Object.hasOwn(each.forms, version.format) ? each.forms[version.format]! : each.forms.post)
        const counter = forms[0]!.text.counter
        const check: NetworkCheck = {
          network: platform,
          accountIds: onNetwork,
          text: {
            used: TextCounter.measure(version.text, forms[0]!.text, version.settings),
            max: Math.min(...forms.map((form) => form.text.max)),
            counter
          },
          version: {
            text: version.text,
            thread: version.thread,
            format: version.format,
            title: version.title,
            thumbnail: version.thumbnail?.id ?? null,
            firstComment: version.firstComment,
            media: version.media.map((item) => item.id)
          }
        }
        return [check]
      }))
    return { valid: problems.length === 0, problems, networks: checks.flat() } satisfies Validation
  })
