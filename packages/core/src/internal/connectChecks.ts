import { Schema } from "effect"
import type { Connect } from "@herald/adapter-kit"

// What a person sends to connect an account, checked before anything is stored or any network is asked: the
// connect method's fields, the account's server address and the console path to come back to, with the
// errors they give. Apart from `Connections`, which re-exports them, as pure rules with no service behind.

/**
 * What a person sent to connect an account does not fit the network's connect method: a field it does not
 * ask, one it needs and lacks, a server address that is none. `field` names it.
 */
export class InvalidConnect extends Schema.TaggedError<InvalidConnect>()("InvalidConnect", {
  field: Schema.String,
  message: Schema.String
}) {}

/**
 * The account's server as stored: `https://` added when no scheme is given, no trailing slash, no query;
 * a path is kept (a sandbox simulator lives under one).
 */
export const normalizeServer = (input: string): string | undefined => {
  const trimmed = input.trim()
  if (trimmed === "") return undefined
  const url = URL.parse(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`)
  if (url === null) return undefined
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username !== "" || url.password !== "") return undefined
  if (url.search !== "" || url.hash !== "") return undefined
  return `${url.protocol}//${url.host.toLowerCase()}${url.pathname.replace(/\/+$/, "")}`
}

/** The fields a connect method takes, checked against what was sent: unknown and missing ones refused. */
export const checkFields = (
  platform: string,
  connect: Connect.Connect,
  given: Readonly<Record<string, string | undefined>>
): InvalidConnect | Record<string, string> => {
  const known = new Set(connect.fields.map((field) => field.name))
  for (const name of Object.keys(given)) {
    if (!known.has(name) && given[name] !== undefined) {
      const asked = connect.fields.map((field) => field.name)
      return new InvalidConnect({
        field: name,
        message: `${platform} does not ask for "${name}"` +
          (asked.length === 0 ? " (it asks for nothing)" : ` (it asks for ${asked.map((n) => `"${n}"`).join(", ")})`)
      })
    }
  }
  const fields: Record<string, string> = {}
  for (const field of connect.fields) {
    const value = given[field.name]
    if (value === undefined || value.trim() === "") {
      if (field.required) return new InvalidConnect({ field: field.name, message: `${platform} needs "${field.name}" (${field.label})` })
      continue
    }
    fields[field.name] = value
  }
  return fields
}

/** `returnTo` is not a console path: refused, so the callback can never send a person elsewhere. */
export class InvalidReturnTo extends Schema.TaggedError<InvalidReturnTo>()("InvalidReturnTo", {
  returnTo: Schema.String
}) {
  override get message() {
    return "returnTo must be a path under /app/ (such as /app/accounts), without a host, query or fragment"
  }
}

// Path segments of letters, digits and `-_.~`, none starting with a dot (so no `..`), under `/app/`: no
// host, no scheme, no `//`, no backslash, no percent-encoding for a browser to reinterpret.
const segment = "[A-Za-z0-9_~-][A-Za-z0-9._~-]*"
const consolePath = new RegExp(`^/app/(?:${segment}(?:/${segment})*/?)?$`)

/** Whether `path` may be a `returnTo`: a path under the console's `/app/`. */
export const isReturnPath = (path: string): boolean => path.length <= 200 && consolePath.test(path)

// The console page to come back to travels in the `state` itself, after the random part and a dot (not
// in base64url's alphabet): the network hands the state back untouched, so the callback knows where to
// send the person even when the flow failed, and a forged state can name only a console path.
export const withReturnTo = (state: string, returnTo: string | undefined) =>
  returnTo === undefined ? state : `${state}.${Buffer.from(returnTo).toString("base64url")}`

/** The console path a callback's `state` asks to come back to, if any (and only a valid one). */
export const returnTo = (state: string | undefined): string | undefined => {
  const dot = state?.lastIndexOf(".") ?? -1
  if (state === undefined || dot < 0) return undefined
  const path = Buffer.from(state.slice(dot + 1), "base64url").toString("utf8")
  return isReturnPath(path) ? path : undefined
}
