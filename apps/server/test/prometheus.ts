import { Effect } from "effect"
import { baseUrl, request } from "./harness.ts"

// Reading `GET /metrics` as Prometheus would: the text exposition parsed into samples.

export interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/
const labelPair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g

/** Every sample of an exposition; comment lines (`# HELP`, `# TYPE`) are skipped. */
export const parse = (text: string): ReadonlyArray<Sample> =>
  text.split("\n").flatMap((line) => {
    const match = sampleLine.exec(line)
    if (match === null) return []
    const labels: Record<string, string> = {}
    for (const [, name, value] of (match[2] ?? "").matchAll(labelPair)) labels[name!] = value!.replace(/\\(.)/g, "$1")
    return [{ name: match[1]!, labels, value: Number(match[3] === "+Inf" ? Infinity : match[3]) }]
  })

/** The value of the one sample with this name whose labels include `labels`, if there is one. */
export const valueOf = (samples: ReadonlyArray<Sample>, name: string, labels: Record<string, string> = {}) =>
  samples.find((sample) =>
    sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value)
  )?.value

/** `GET /metrics` of the test server with `token` as the bearer token. */
export const scrape = (token: string) =>
  Effect.flatMap(baseUrl, (base) => request(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } }))

/** The samples `GET /metrics` answers; fails the test when it does not answer 200. */
export const samples = (token: string) =>
  Effect.flatMap(scrape(token), (answer) =>
    answer.status === 200
      ? Effect.succeed(parse(answer.text))
      : Effect.die(new Error(`GET /metrics answered ${answer.status}: ${answer.text}`)))
