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

/** The rules of one call (`POST /2/tweets`) over what the simulator reads of its request. */
export interface Call<in Input> {
  readonly call: string
  readonly rules: ReadonlyArray<Rule<Input>>
}

/** A network's table: every call its simulator checks. */
export type Table = ReadonlyArray<Call<never>>

/**
 * Declares the rules of one call, typed by what the simulator reads of its request. A network whose refusals
 * differ by more than their words gives its rules more fields (`R`, say Graph's error code), which
 * `refusal` hands back with the broken rule.
 */
export const call = <Input, R extends Rule<Input> = Rule<Input>>(
  name: string,
  rules: ReadonlyArray<R>
): Call<Input> & { readonly rules: ReadonlyArray<R> } => ({ call: name, rules })

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

/** A source as a reader follows it: an address as a link, anything else as it is. */
const cite = (source: string) => /^https:\/\/\S+$/.test(source) ? `<${source}>` : source.replaceAll("|", "\\|")

/** The markdown of a network's table: one row per rule, in the order the simulator checks them. */
export const render = (table: Table): string =>
  [
    "| Call | The simulator refuses, as the network does | Stated at |",
    "| --- | --- | --- |",
    ...table.flatMap(({ call: name, rules }) =>
      rules.map((rule) => `| \`${name}\` | ${rule.rule.replaceAll("|", "\\|")} | ${cite(rule.source)} |`)
    )
  ].join("\n")
