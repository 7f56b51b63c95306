import { Schema } from "effect"

/**
 * The version of a network's API an adapter calls, as dated, sourced data: `GET /api/v1/networks` publishes
 * it, the server warns at start-up when its sunset is near, and a test fails before the network stops
 * serving it (issue 31: Facebook's adapter called Graph v20.0 two months after Meta retired it).
 */
export const ApiVersion = Schema.Struct({
  /** The version as the network names it in a call: `v26.0`, `202611`, `2`. */
  version: Schema.String.annotate({ description: "The version of the network's API this adapter calls, as the network names it" }),
  /** The first day the network no longer serves it (`YYYY-MM-DD`), or null when the network has set none. */
  sunset: Schema.NullOr(Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/))).annotate({
    description: "The day the network stops serving this version (YYYY-MM-DD); null when the network has announced none"
  }),
  /** The network's page that states the version and its sunset, or the policy that says there is none. */
  source: Schema.String.annotate({ description: "The network's page these dates come from" }),
  /** The day that page was read (`YYYY-MM-DD`). */
  checked: Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/)).annotate({
    description: "The day the source was read (YYYY-MM-DD)"
  })
}).annotate({ identifier: "ApiVersion", description: "The network API version this server's adapter calls, with its sunset" })
export type ApiVersion = typeof ApiVersion.Type

const dayMs = 24 * 60 * 60 * 1000

/** Whole days from `now` to the sunset (0 on the day itself, negative after it); null without a sunset. */
export const daysLeft = (api: ApiVersion, now: Date): number | null => {
  if (api.sunset === null) return null
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  return Math.round((Date.parse(`${api.sunset}T00:00:00Z`) - today) / dayMs)
}

/**
 * What to say about a version within `withinDays` of its sunset, or past it; undefined when it is further
 * off or has none. `name` is the network's name for people.
 */
export const warning = (name: string, api: ApiVersion, now: Date, withinDays: number): string | undefined => {
  const left = daysLeft(api, now)
  if (left === null || left > withinDays) return undefined
  const what = `${name} API ${api.version}`
  return left <= 0
    ? `${what} was retired on ${api.sunset} (${api.source}): calls to it may fail; update Herald`
    : `${what} is retired on ${api.sunset}, in ${left} day${left === 1 ? "" : "s"} (${api.source}): update Herald before then`
}
