import { SimulatorRules } from "@herald/adapter-kit"

/**
 * What YouTube's rules share (`YouTubeRules` re-exports the types): Google's answer to a broken rule, the
 * rule and call types that carry it, the reference pages, and the checks of `part`, list filters and media
 * types that every method's rules use.
 */

export interface Answer {
  readonly status: number
  readonly reason: string
  readonly domain: string
  /** The `error.status` Google adds: INVALID_ARGUMENT, PERMISSION_DENIED, … */
  readonly statusText: string
}

/** A rule with Google's answer to a request that breaks it. */
export type Rule<Input> = SimulatorRules.Rule<Input> & { readonly answer: Answer }

export type Call<Input> = SimulatorRules.Call<Input, Rule<Input>>

export const call = <Input>(name: string, rules: ReadonlyArray<Rule<Input>>): Call<Input> => SimulatorRules.call(name, rules)

export const docs = "https://developers.google.com/youtube/v3/docs"
export const resumable = "https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol"

export const badRequest = (reason: string, domain = "youtube.video"): Answer => ({ status: 400, reason, domain, statusText: "INVALID_ARGUMENT" })
export const tooLarge: Answer = { status: 413, reason: "uploadTooLarge", domain: "global", statusText: "FAILED_PRECONDITION" }

/** A request's query, as every call's rules read it. */
export interface Query {
  readonly query: Readonly<Record<string, string | undefined>>
}

/** `part` is required, and each of its comma-separated names is one the method lists. */
export const parts = <Input extends Query>(method: string, names: ReadonlyArray<string>): ReadonlyArray<Rule<Input>> => [
  {
    rule: "`part` is given",
    source: `${docs}/${method}#parameters`,
    answer: badRequest("required", "global"),
    check: ({ query }) => (query["part"] ?? "") === "" ? "Required parameter: part" : undefined
  },
  {
    rule: `each \`part\` is one of ${names.join(", ")}`,
    source: `${docs}/${method}#parameters`,
    answer: badRequest("unknownPart", "youtube.part"),
    check: ({ query }) => {
      const unknown = (query["part"] ?? "").split(",").find((part) => part !== "" && !names.includes(part.trim()))
      return unknown === undefined ? undefined : `'${unknown}'`
    }
  }
]

/** A list call needs one of its filters. */
export const filter = <Input extends Query>(method: string, names: ReadonlyArray<string>): Rule<Input> => ({
  rule: `one of the filters ${names.join(", ")} is given`,
  source: `${docs}/${method}#parameters`,
  answer: badRequest("missingRequiredParameter", "youtube.parameter"),
  check: ({ query }) =>
    names.some((name) => query[name] !== undefined) ? undefined : `No filter selected. Expected one of: ${names.join(", ")}`
})

/** A media type without its parameters (`image/png; charset=binary` is `image/png`). */
export const mediaType = (value: string | undefined) => (value ?? "").split(";")[0]!.trim().toLowerCase()

export const unsupported = (type: string, accepted: ReadonlyArray<string>) =>
  `Media type '${type}' is not supported. Valid media types: [${accepted.join(", ")}]`

export const isObject = (value: unknown) => typeof value === "object" && value !== null && !Array.isArray(value)
export const isString = (value: unknown): value is string => typeof value === "string"

/** The parts of a video resource, which videos.insert and videos.list both name. */
export const videoParts = [
  "contentDetails",
  "fileDetails",
  "id",
  "liveStreamingDetails",
  "localizations",
  "paidProductPlacementDetails",
  "player",
  "processingDetails",
  "recordingDetails",
  "snippet",
  "statistics",
  "status",
  "suggestions",
  "topicDetails"
]
