import { Schema } from "effect"

// Herald's one rule for text it stores or forwards: no NUL (PostgreSQL refuses U+0000 in `text`) and no
// unpaired UTF-16 surrogate (PostgreSQL refuses them in `jsonb`, and no network accepts them). Text from a
// client that breaks the rule is refused as `invalid`, naming the field; text from a network is repaired
// with `sanitize`, because refusing it would lose what someone wrote.

/** The character that replaces NUL and unpaired surrogates in text Herald repairs. */
export const replacement = "\uFFFD"

const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, "0")}`

/** Why `text` breaks the text rule, or `undefined` when it is fine. */
export const problem = (text: string): string | undefined => {
  const nul = text.indexOf("\u0000")
  if (nul !== -1) return `must not contain the NUL character (U+0000, at position ${nul})`
  if (text.isWellFormed()) return undefined
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        index++
        continue
      }
      return `must not contain an unpaired surrogate (${hex(code)}, at position ${index})`
    }
    if (code >= 0xdc00 && code <= 0xdfff) {
      return `must not contain an unpaired surrogate (${hex(code)}, at position ${index})`
    }
  }
  return undefined
}

/** `text` with every NUL and unpaired surrogate replaced by U+FFFD: for text that comes from a network. */
export const sanitize = (text: string): string =>
  (text.includes("\u0000") ? text.replaceAll("\u0000", replacement) : text).toWellFormed()

/** A Schema check for any string schema: `Schema.String.check(SafeText.isSafeText())`. */
export const isSafeText = (annotations?: Schema.Annotations.Filter) =>
  Schema.makeFilter<string>((text) => problem(text) ?? true, {
    expected: "text without NUL or unpaired surrogates",
    ...annotations
  })

/** A string that follows the text rule. */
export const SafeString = Schema.String.check(isSafeText())

/** Where a decoded value (JSON body, query, arguments) first breaks the text rule: its path and the problem. */
export interface Found {
  readonly path: ReadonlyArray<string | number>
  readonly problem: string
}

interface Step {
  readonly segment: string | number
  readonly parent: Step | undefined
}

const pathOf = (base: ReadonlyArray<string | number>, step: Step | undefined) => {
  const segments: Array<string | number> = []
  for (let at = step; at !== undefined; at = at.parent) segments.push(at.segment)
  return [...base, ...segments.reverse()]
}

/**
 * The first string in `value` (nested objects, arrays, and object keys too) that breaks the text rule.
 * A bad key is reported at the path of its object, naming the key as best it can. Walks with its own stack,
 * so a deeply nested body cannot exhaust the call stack.
 */
export const find = (value: unknown, path: ReadonlyArray<string | number> = []): Found | undefined => {
  const stack: Array<readonly [unknown, Step | undefined]> = [[value, undefined]]
  while (stack.length > 0) {
    const [current, at] = stack.pop()!
    if (typeof current === "string") {
      const found = problem(current)
      if (found !== undefined) return { path: pathOf(path, at), problem: found }
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) stack.push([current[index], { segment: index, parent: at }])
    } else if (typeof current === "object" && current !== null) {
      const entries = Object.entries(current)
      for (const [key] of entries) {
        const keyProblem = problem(key)
        if (keyProblem !== undefined) {
          return { path: pathOf(path, { segment: sanitize(key), parent: at }), problem: `has a field name that ${keyProblem}` }
        }
      }
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, entry] = entries[index]!
        stack.push([entry, { segment: key, parent: at }])
      }
    }
  }
  return undefined
}
