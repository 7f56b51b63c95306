/**
 * What a network refuses, as its simulator holds it: one table per network, each rule with the place the
 * network states it (a documentation page, or a path into its published specification), so that a
 * simulator's rules are the network's and not its author's reading of the adapter. A simulator checks each
 * request against the rules of its call (`refusal`) and answers the first one broken in the network's own
 * error shape; the adapter's README shows the table (`pnpm docs:limits`), and a test holds every rule to a
 * source.
 *
 * Where a network publishes a machine-readable specification through a package made for it (Bluesky's
 * lexicons), the simulator validates against that instead, and its table names the rules the specification
 * cannot state (a blob's size, checked by hand).
 */

/** One rule of one call. */
export interface Rule<in Input> {
  /** The rule in words, as a refusal would state it: `text of at most 280 weighted characters`. */
  readonly rule: string
  /**
   * Where the network states it: an `https://` address (with a `#fragment` where the page has one), or a
   * specification and the path in it (`xdevplatform/xdk specs/openapi.json #/components/schemas/…`).
   */
  readonly source: string
  /** The network's words for a request that breaks the rule; undefined when the request keeps it. */
  readonly check: (input: Input) => string | undefined
}

/**
 * The rules of one call (`POST /2/tweets`) over what the simulator reads of its request. A network whose
 * answer differs from rule to rule gives its rules more (`Rule & { answer }`), and `refusal` hands them back.
 */
export interface Call<in Input, R extends Rule<Input> = Rule<Input>> {
  readonly call: string
  readonly rules: ReadonlyArray<R>
}

/** A network's table: every call its simulator checks. */
export type Table = ReadonlyArray<Call<never>>

/**
 * Declares the rules of one call, typed by what the simulator reads of its request. A network whose refusals
 * differ by more than their words gives its rules more fields (`R`, say Graph's error code), which
 * `refusal` hands back with the broken rule.
 */
export const call = <Input, R extends Rule<Input> = Rule<Input>>(name: string, rules: ReadonlyArray<R>): Call<Input, R> => ({
  call: name,
  rules
})

/** The first rule of `call` the request breaks, with the network's words for it; undefined when it keeps all. */
export const refusal = <Input, R extends Rule<Input> = Rule<Input>>(
  call: { readonly rules: ReadonlyArray<R> },
  input: Input
): { readonly rule: R; readonly message: string } | undefined => {
  for (const rule of call.rules) {
    const message = rule.check(input)
    if (message !== undefined) return { rule, message }
  }
  return undefined
}

/**
 * The value at a dotted `path` of a request's JSON body as sent (undefined where the path leads nowhere):
 * for rules that look at each field as the network does, so a field of the wrong type breaks its own rule.
 */
export const at = (value: unknown, path: string): unknown =>
  path.split(".").reduce<unknown>(
    (current, key) =>
      typeof current === "object" && current !== null && !Array.isArray(current) && Object.hasOwn(current, key)
        ? (current as Record<string, unknown>)[key]
        : undefined,
    value
  )

/** A value as a refusal quotes it, cut short so that a large one does not fill the answer. */
export const show = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

/** `body` with the field at a dotted `path` set to `value` (removed when undefined): how a test breaks one rule. */
export const withField = (body: Readonly<Record<string, unknown>>, path: string, value: unknown): Record<string, unknown> => {
  const [key = "", ...rest] = path.split(".")
  const inner = body[key]
  const next = rest.length === 0
    ? value
    : withField(typeof inner === "object" && inner !== null ? inner as Record<string, unknown> : {}, rest.join("."), value)
  const { [key]: _, ...others } = body
  return next === undefined ? others : { ...others, [key]: next }
}

/** A source as a reader follows it: an address as a link, anything else as it is. */
const cite = (source: string) => /^https:\/\/\S+$/.test(source) ? `<${source}>` : source.replaceAll("|", "\\|")

/** The markdown of a network's table: one row per rule, in the order the simulator checks them. */
export const render = (table: Table): string =>
  [
    "| Call | Rule (the simulator refuses a request that breaks it, as the network does) | Stated at |",
    "| --- | --- | --- |",
    ...table.flatMap(({ call: name, rules }) =>
      rules.map((rule) => `| \`${name}\` | ${rule.rule.replaceAll("|", "\\|")} | ${cite(rule.source)} |`)
    )
  ].join("\n")
