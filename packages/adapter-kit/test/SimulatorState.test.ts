import { assert, describe, it } from "@effect/vitest"
import { SimulatorState } from "../src/SimulatorState.ts"

describe("SimulatorState", () => {
  it("honours tokens another instance of the same network issued (another process, or before a restart)", () => {
    const first = new SimulatorState("example")
    const account = first.consent("dora")
    const grant = first.grant(account.id)
    const second = new SimulatorState("example")
    const check = second.check(grant.accessToken)
    assert.strictEqual(check._tag, "Valid")
    assert.strictEqual(check._tag === "Valid" ? check.account.username : "", "dora")
    assert.isDefined(second.refresh(grant.refreshToken))
    // Another network's simulator does not accept them, nor does anyone accept a forged one.
    assert.strictEqual(new SimulatorState("other").check(grant.accessToken)._tag, "Unknown")
    assert.strictEqual(second.check(grant.accessToken.slice(0, -2) + "xx")._tag, "Unknown")
  })

  it("refuses revoked grants, and a new consent grants again", () => {
    const state = new SimulatorState("example")
    const account = state.consent("eve")
    const grant = state.grant(account.id)
    state.revoke(account.id)
    assert.strictEqual(state.check(grant.accessToken)._tag, "Revoked")
    assert.isUndefined(state.refresh(grant.refreshToken))
    const code = state.issueCode(account.id, "http://callback", undefined)
    const again = state.redeemCode(code, "http://callback", () => true)
    assert.strictEqual(state.check(again!.accessToken)._tag, "Valid")
  })

  it("lets a test expire an account's tokens", () => {
    const state = new SimulatorState("example")
    const account = state.consent("finn")
    const grant = state.grant(account.id)
    state.expire(account.id)
    assert.strictEqual(state.check(grant.accessToken)._tag, "Expired")
  })
})
