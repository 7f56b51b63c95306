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

  it("refuses a refresh token that was already used, in any instance; the one the grant gave works once", () => {
    const first = new SimulatorState("example")
    const account = first.consent("gus")
    const grant = first.grant(account.id)
    const renewed = first.refresh(grant.refreshToken)
    assert.isDefined(renewed)
    assert.notStrictEqual(renewed!.refreshToken, grant.refreshToken)
    assert.isUndefined(first.refresh(grant.refreshToken))
    // Another process sharing the store refuses it too.
    const second = new SimulatorState("example")
    second.load(first.takeChanges().map((change, index) => ({ ...change, version: index + 1, origin: first.origin })))
    assert.isUndefined(second.refresh(grant.refreshToken))
    assert.isDefined(second.refresh(renewed!.refreshToken))
    assert.isUndefined(second.refresh(renewed!.refreshToken))
  })

  it("honours a kept refresh token every time for a network that documents reuse, and the grant carries it", () => {
    const state = new SimulatorState("example")
    const account = state.consent("hal")
    const grant = state.grant(account.id)
    const once = state.refresh(grant.refreshToken, { reuse: true })
    const twice = state.refresh(grant.refreshToken, { reuse: true })
    assert.strictEqual(once!.refreshToken, grant.refreshToken)
    assert.strictEqual(twice!.refreshToken, grant.refreshToken)
    assert.strictEqual(state.check(twice!.accessToken)._tag, "Valid")
    state.revoke(account.id)
    assert.isUndefined(state.refresh(grant.refreshToken, { reuse: true }))
  })

  it("lets a test expire an account's tokens", () => {
    const state = new SimulatorState("example")
    const account = state.consent("finn")
    const grant = state.grant(account.id)
    state.expire(account.id)
    assert.strictEqual(state.check(grant.accessToken)._tag, "Expired")
  })

  it("puts a comment on the account's newest post, or on none when it has no post", () => {
    const state = new SimulatorState("example")
    const account = state.consent("gail")
    const bare = state.addComment({ accountId: account.id, author: { username: "hal" }, text: "first!" })
    assert.strictEqual(bare.postId, "none")
    assert.isNull(bare.permalink)
    for (const id of ["p1", "p2"]) {
      state.record({ id, accountId: account.id, text: id, media: [], replyTo: undefined, url: `http://n/${id}`, details: {} })
    }
    const onNewest = state.addComment({ accountId: account.id, author: { username: "hal", name: "Hal" }, text: "nice" })
    assert.strictEqual(onNewest.postId, "p2")
    assert.strictEqual(onNewest.permalink, `http://n/p2#comment-${onNewest.id}`)
    assert.deepStrictEqual(onNewest.author, { id: bare.author.id, username: "hal", name: "Hal" })
    const onOlder = state.addComment({
      accountId: account.id,
      author: { username: "gail" },
      text: "thanks",
      postId: "p1",
      replyTo: onNewest.id
    })
    assert.strictEqual(onOlder.permalink, `http://n/p1#comment-${onOlder.id}`)
    assert.strictEqual(onOlder.replyTo, onNewest.id)
    // The account itself writes as itself.
    assert.deepStrictEqual(onOlder.author, { id: account.id, username: "gail", name: account.displayName })
    assert.strictEqual(state.accountByUsername("gail"), account)
    assert.isUndefined(state.accountByUsername("hal"))
  })

  it("orders comments and messages by one sequence, read per account after a cursor", () => {
    const state = new SimulatorState("example")
    const ivy = state.consent("ivy")
    const jay = state.consent("jay")
    const first = state.addMessage({ accountId: ivy.id, from: { username: "kai" }, text: "hi", attachments: 1 })
    const cursor = state.sequence
    assert.strictEqual(cursor, first.seq)
    const comment = state.addComment({ accountId: ivy.id, author: { username: "kai" }, text: "hey" })
    const second = state.addMessage({ accountId: ivy.id, from: { username: "kai" }, text: "there?" })
    const other = state.addMessage({ accountId: ivy.id, from: { username: "lou" }, text: "yo" })
    state.addMessage({ accountId: jay.id, from: { username: "kai" }, text: "not ivy's" })
    assert.isAbove(second.seq, comment.seq)
    assert.strictEqual(second.conversationId, first.conversationId)
    assert.notStrictEqual(other.conversationId, first.conversationId)
    assert.strictEqual(state.conversationAccount(first.conversationId), ivy.id)
    assert.deepStrictEqual(state.commentsAfter(ivy.id, cursor).map((item) => item.id), [comment.id])
    assert.deepStrictEqual(state.messagesAfter(ivy.id, cursor).map((item) => item.id), [second.id, other.id])
    assert.deepStrictEqual(state.messagesAfter(ivy.id, state.sequence), [])
    assert.deepStrictEqual([first.attachments, second.attachments, second.outgoing], [1, 0, false])
  })
})
