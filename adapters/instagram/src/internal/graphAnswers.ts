import { Simulator, type SimulatorState } from "@herald/adapter-kit"
import { randomBytes } from "node:crypto"

// The Graph API's answers as the simulator gives them: error bodies, field selection, time format.

/** A Graph error answer, as https://developers.facebook.com/docs/graph-api/guides/error-handling shows it. */
export const graphError = (
  status: number,
  error: { message: string; code: number; error_subcode?: number; is_transient?: boolean; error_user_title?: string; error_user_msg?: string }
) =>
  Simulator.json({
    error: { type: "OAuthException", is_transient: false, ...error, fbtrace_id: randomBytes(9).toString("base64url") }
  }, status)

export const tokenRefused = (check: SimulatorState.TokenCheck) =>
  check._tag === "Expired"
    ? graphError(400, {
      message: "Error validating access token: Session has expired. The current time is later than the expiry time.",
      code: 190,
      error_subcode: 463
    })
    : check._tag === "Revoked"
    ? graphError(400, {
      message: "Error validating access token: The user has not authorized application.",
      code: 190,
      error_subcode: 458
    })
    : graphError(400, { message: "Invalid OAuth access token - Cannot parse access token", code: 190 })

export const missing = (id: string, method: string) =>
  graphError(400, {
    message: `Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    code: 100,
    error_subcode: 33
  })

export const invalid = (message: string, subcode?: number) =>
  graphError(400, subcode === undefined ? { message, code: 100 } : { message, code: 100, error_subcode: subcode })

/** A node's edge (its comments' replies, a conversation's messages): listed as `{ data }` with the fields asked for. */
export class Edge {
  readonly nodes: ReadonlyArray<Readonly<Record<string, unknown>>>
  constructor(nodes: ReadonlyArray<Readonly<Record<string, unknown>>>) {
    this.nodes = nodes
  }
}

/**
 * `a,b{c,d},e` as `[name, nested fields]` pairs: Graph field expansion
 * (https://developers.facebook.com/docs/graph-api/guides/field-expansion), with `.limit(n)` ignored.
 */
const fieldList = (fields: string): ReadonlyArray<readonly [string, string | undefined]> => {
  const parts: Array<readonly [string, string | undefined]> = []
  let depth = 0
  let start = 0
  for (let index = 0; index <= fields.length; index++) {
    const char = fields[index]
    if (char === "{") depth++
    else if (char === "}") depth--
    else if ((char === "," || char === undefined) && depth === 0) {
      const part = fields.slice(start, index).trim()
      start = index + 1
      const brace = part.indexOf("{")
      const name = (brace < 0 ? part : part.slice(0, brace)).replace(/\.limit\(\d+\)$/, "")
      if (name !== "") parts.push([name, brace < 0 ? undefined : part.slice(brace + 1, -1)])
    }
  }
  return parts
}

/** Only the fields asked for, plus `id`, as the Graph API answers; edges list their nodes the same way. */
export const pick = (fields: string | undefined, node: Readonly<Record<string, unknown>>): Record<string, unknown> =>
  Object.fromEntries(
    [["id", undefined] as const, ...fieldList(fields ?? "")].filter(([field]) => field in node).map(([field, nested]) => {
      const value = node[field]
      return [field, value instanceof Edge ? { data: value.nodes.map((entry) => pick(nested, entry)) } : value]
    })
  )

export const isPublicUrl = (value: string | undefined) => value !== undefined && /^https?:\/\/[^\s]+$/.test(value)

export const instagramTime = (millis: number) => new Date(millis).toISOString().replace(/\.\d{3}Z$/, "+0000")
