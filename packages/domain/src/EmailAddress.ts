import * as Bounded from "./Bounded.ts"

/**
 * The e-mail address rule of invitations and review profiles: one `@` with something before it, a domain with
 * a dot inside it, no white space, at most 254 characters (RFC 5321's path limit). Checked length first and
 * without a regular expression that can backtrack: `/^[^\s@]+@[^\s@]+\.[^\s@]+$/` took seconds on a long
 * address of dots (issue 28), and every check here is one pass.
 */

export const maxLength = 254

/** Why `text` (trimmed and lower-cased by the caller) is not an address; undefined when it is one. */
export const problem = (text: string): string | undefined => {
  if (text.length > maxLength) return `is longer than ${maxLength} characters`
  const at = text.indexOf("@")
  const domain = text.slice(at + 1)
  const fine = at > 0 && at === text.lastIndexOf("@") && !/\s/.test(text) && domain.slice(1, -1).includes(".")
  return fine ? undefined : "is not an e-mail address"
}

/** How an address is shown in a message: a long one is cut, so a refusal never echoes megabytes back. */
export const quoted = (text: string): string => Bounded.quoted(text)
