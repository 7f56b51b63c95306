import { assert } from "@effect/vitest"
import type * as SimulatorRules from "./SimulatorRules.ts"

/**
 * The checks a network's rules test makes of its table before it sends anything: each breaking example names
 * a rule of its call by the rule's first words, breaks that rule and no other of the call, and every rule of
 * the table has an example, so that a rule added without one fails.
 */

/** One request that breaks one rule: the call, the rule's first words, and what the simulator reads of it. */
export interface Example<Input> {
  readonly call: SimulatorRules.Call<Input>
  readonly rule: string
  readonly input: Input
}

/** The rule of `call` whose words begin with `words`. */
export const ruleOf = <Input>(call: SimulatorRules.Call<Input>, words: string) => {
  const rule = call.rules.find((each) => each.rule.startsWith(words))
  assert.isDefined(rule, `${call.call} has no rule "${words}"`)
  return rule!
}

/** The broken rule's words for the example; fails unless it breaks that rule and no other of its call. */
export const brokenAlone = <Input>(example: Example<Input>) => {
  const rule = ruleOf(example.call, example.rule)
  const message = rule.check(example.input)
  assert.isDefined(message, `${example.rule}: the example keeps the rule`)
  const others = example.call.rules.filter((each) => each !== rule && each.check(example.input) !== undefined)
  assert.deepStrictEqual(others.map((each) => each.rule), [], `${example.rule}: the example breaks other rules`)
  return message!
}

/** Fails unless every rule of the table has an example. */
export const covers = (
  table: SimulatorRules.Table,
  examples: ReadonlyArray<{ readonly call: SimulatorRules.Call<never>; readonly rule: string }>
) => {
  for (const call of table) {
    for (const rule of call.rules) {
      const covered = examples.some((example) => example.call === call && ruleOf(call, example.rule) === rule)
      assert.isTrue(covered, `${call.call}: "${rule.rule}" has no breaking example`)
    }
  }
}
