import { createHmac } from "node:crypto"
import { readFileSync } from "node:fs"
import { assert, describe, it } from "vitest"
import {
  signWebhook,
  verifyWebhook,
  Webhooks,
  WebhookVerificationError,
  type WebhookVerificationReason
} from "../src/index.ts"

// Expected signatures are computed here with node:crypto, independently of the code under test.
const hmacHex = (secret: string, timestamp: number, body: string | Uint8Array): string =>
  createHmac("sha256", secret)
    .update(Buffer.concat([Buffer.from(`${timestamp}.`, "utf8"), Buffer.from(body)]))
    .digest("hex")

const secret = "whsec_Ue8pQz2RkT5wLm9Yv3Nc6Hb1Xd4Fg7Ja"
const oldSecret = "whsec_Oa1Ld2Se3Cr4Et5Ro6Ta7Te8Dd9Aw0Ay"
const t = 1_767_225_600
const now = new Date(t * 1000)
const envelope = {
  id: "2f0c8e7a-1b3d-4c5e-8f90-a1b2c3d4e5f6",
  event: "post.published",
  createdAt: "2026-01-01T00:00:00.000Z",
  data: { postId: "pst_7Gh2Kq", post: { id: "pst_7Gh2Kq", status: "published" } }
}
const body = JSON.stringify(envelope)
const header = `t=${t},v1=${hmacHex(secret, t, body)}`

const expectFailure = (verify: () => unknown, reason: WebhookVerificationReason): WebhookVerificationError => {
  try {
    verify()
  } catch (error) {
    assert.instanceOf(error, WebhookVerificationError)
    assert.strictEqual(error.reason, reason, error.message)
    assert.isAbove(error.message.length, 20)
    return error
  }
  return assert.fail(`expected ${reason}, but the request was accepted`)
}

describe("verifyWebhook", () => {
  it("accepts a genuine request and returns its envelope", () => {
    assert.deepStrictEqual(verifyWebhook(body, header, secret, { now }), envelope)
  })

  it("takes the current time as a Date or as milliseconds", () => {
    assert.strictEqual(verifyWebhook(body, header, secret, { now: t * 1000 + 999 }).id, envelope.id)
    assert.strictEqual(verifyWebhook(body, header, secret, { now: new Date(t * 1000 + 120_000) }).id, envelope.id)
  })

  it("uses the real clock when no time is given", () => {
    const timestamp = Math.floor(Date.now() / 1000)
    const fresh = `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`
    assert.strictEqual(verifyWebhook(body, fresh, secret).id, envelope.id)
    expectFailure(() => verifyWebhook(body, header, secret), "timestamp_too_old")
  })

  it("refuses a body changed by one byte", () => {
    const changed = body.replace("pst_7Gh2Kq", "pst_7Gh2Kr")
    assert.strictEqual(changed.length, body.length)
    expectFailure(() => verifyWebhook(changed, header, secret, { now }), "signature_mismatch")
  })

  it("refuses a body that was parsed and serialised again, or gained a newline", () => {
    const error = expectFailure(
      () => verifyWebhook(JSON.stringify(envelope, null, 2), header, secret, { now }),
      "signature_mismatch"
    )
    assert.include(error.message, "raw body")
    expectFailure(() => verifyWebhook(`${body}\n`, header, secret, { now }), "signature_mismatch")
  })

  it("refuses a request signed with another secret", () => {
    expectFailure(() => verifyWebhook(body, header, oldSecret, { now }), "signature_mismatch")
  })

  it("keys the HMAC with the whole secret, whsec_ included, and says so when the prefix is missing", () => {
    const withoutPrefix = secret.slice("whsec_".length)
    const error = expectFailure(() => verifyWebhook(body, header, withoutPrefix, { now }), "signature_mismatch")
    assert.include(error.message, "whsec_")
    // Signed Svix-style (prefix stripped, or the rest decoded as base64): not a Herald signature.
    const strippedKey = `t=${t},v1=${hmacHex(withoutPrefix, t, body)}`
    expectFailure(() => verifyWebhook(body, strippedKey, secret, { now }), "signature_mismatch")
    const decodedKey = `t=${t},v1=${
      createHmac("sha256", Buffer.from(withoutPrefix, "base64")).update(`${t}.${body}`).digest("hex")
    }`
    expectFailure(() => verifyWebhook(body, decodedKey, secret, { now }), "signature_mismatch")
  })

  it("points at whitespace around the secret, as from a file with a trailing newline", () => {
    const error = expectFailure(() => verifyWebhook(body, header, `${secret}\n`, { now }), "signature_mismatch")
    assert.include(error.message, "whitespace")
  })

  it("accepts a header with several v1 signatures when any one matches", () => {
    const wrong = hmacHex(oldSecret, t, body)
    const right = hmacHex(secret, t, body)
    assert.strictEqual(verifyWebhook(body, `t=${t},v1=${wrong},v1=${right}`, secret, { now }).id, envelope.id)
    assert.strictEqual(verifyWebhook(body, `t=${t},v1=${right},v1=${wrong}`, secret, { now }).id, envelope.id)
    expectFailure(() => verifyWebhook(body, `t=${t},v1=${wrong},v1=${wrong}`, secret, { now }), "signature_mismatch")
  })

  it("accepts either secret of a rotation", () => {
    const signedWithOld = `t=${t},v1=${hmacHex(oldSecret, t, body)}`
    assert.strictEqual(verifyWebhook(body, signedWithOld, [secret, oldSecret], { now }).id, envelope.id)
    assert.strictEqual(verifyWebhook(body, header, [secret, oldSecret], { now }).id, envelope.id)
    // After the rotation, the old secret's signatures no longer pass.
    expectFailure(() => verifyWebhook(body, signedWithOld, [secret], { now }), "signature_mismatch")
  })

  it("ignores schemes it does not know", () => {
    const right = hmacHex(secret, t, body)
    const withOthers = `v0=6ffbb59b2300aae63f272406069a9788598b792a944a07aba816edb039989a39,t=${t},v1=${right},v2=abc`
    assert.strictEqual(verifyWebhook(body, withOthers, secret, { now }).id, envelope.id)
    expectFailure(() => verifyWebhook(body, `t=${t},v0=${right}`, secret, { now }), "malformed_header")
  })

  it("tolerates spaces around the items", () => {
    const spaced = ` t=${t} , v1=${hmacHex(secret, t, body)} `
    assert.strictEqual(verifyWebhook(body, spaced, secret, { now }).id, envelope.id)
  })

  it("takes the header as Node gives it, also as an array", () => {
    assert.strictEqual(verifyWebhook(body, [header], secret, { now }).id, envelope.id)
    expectFailure(() => verifyWebhook(body, [header, header], secret, { now }), "malformed_header")
  })

  it("refuses a request without the header", () => {
    for (const missing of [undefined, null, "", "   ", []]) {
      expectFailure(() => verifyWebhook(body, missing, secret, { now }), "missing_header")
    }
  })

  it("refuses a malformed header", () => {
    const v1 = hmacHex(secret, t, body)
    const malformed = [
      "garbage",
      v1,
      `v1=${v1}`,
      `t=${t}`,
      `t=${t},t=${t},v1=${v1}`,
      `t=abc,v1=${v1}`,
      `t=-${t},v1=${v1}`,
      `t=${t}.5,v1=${v1}`,
      `t=,v1=${v1}`,
      `t=99999999999999999999,v1=${v1}`,
      `t=${t},=${v1}`,
      `t=${t},v1`
    ]
    for (const each of malformed) {
      expectFailure(() => verifyWebhook(body, each, secret, { now }), "malformed_header")
    }
  })

  it("treats a v1 of the wrong length, case or alphabet as not matching, without crashing", () => {
    const right = hmacHex(secret, t, body)
    for (const candidate of [right.slice(0, 63), `${right}0`, right.toUpperCase(), "zz", "", "é".repeat(32)]) {
      expectFailure(() => verifyWebhook(body, `t=${t},v1=${candidate}`, secret, { now }), "signature_mismatch")
    }
  })

  it("refuses a timestamp 301 s old or 301 s ahead, and accepts exactly 300 s either way", () => {
    const at = (seconds: number) => new Date((t + seconds) * 1000)
    assert.strictEqual(verifyWebhook(body, header, secret, { now: at(300) }).id, envelope.id)
    assert.strictEqual(verifyWebhook(body, header, secret, { now: at(-300) }).id, envelope.id)
    expectFailure(() => verifyWebhook(body, header, secret, { now: at(301) }), "timestamp_too_old")
    expectFailure(() => verifyWebhook(body, header, secret, { now: at(-301) }), "timestamp_in_future")
  })

  it("counts whole seconds, as the timestamp does", () => {
    assert.strictEqual(verifyWebhook(body, header, secret, { now: (t + 300) * 1000 + 999 }).id, envelope.id)
    expectFailure(() => verifyWebhook(body, header, secret, { now: (t + 301) * 1000 }), "timestamp_too_old")
  })

  it("takes a custom tolerance", () => {
    const at = (seconds: number) => new Date((t + seconds) * 1000)
    assert.strictEqual(verifyWebhook(body, header, secret, { now: at(60), toleranceSeconds: 60 }).id, envelope.id)
    expectFailure(() => verifyWebhook(body, header, secret, { now: at(61), toleranceSeconds: 60 }), "timestamp_too_old")
    expectFailure(
      () => verifyWebhook(body, header, secret, { now: at(-61), toleranceSeconds: 60 }),
      "timestamp_in_future"
    )
    assert.strictEqual(verifyWebhook(body, header, secret, { now: at(0), toleranceSeconds: 0 }).id, envelope.id)
    expectFailure(() => verifyWebhook(body, header, secret, { now: at(1), toleranceSeconds: 0 }), "timestamp_too_old")
    const aYearLater = at(365 * 24 * 3600)
    const generous = { now: aYearLater, toleranceSeconds: 400 * 24 * 3600 }
    assert.strictEqual(verifyWebhook(body, header, secret, generous).id, envelope.id)
  })

  it("checks the signature before the time, so a forged old request is a mismatch", () => {
    const forged = `t=${t - 3600},v1=${hmacHex(oldSecret, t - 3600, body)}`
    expectFailure(() => verifyWebhook(body, forged, secret, { now }), "signature_mismatch")
  })

  it("verifies a body given as bytes, a Uint8Array or a Buffer", () => {
    const bytes = new TextEncoder().encode(body)
    assert.deepStrictEqual(verifyWebhook(bytes, header, secret, { now }), envelope)
    assert.deepStrictEqual(verifyWebhook(Buffer.from(body), header, secret, { now }), envelope)
    const changed = Uint8Array.from(bytes)
    changed[10] = (changed[10] ?? 0) ^ 1
    expectFailure(() => verifyWebhook(changed, header, secret, { now }), "signature_mismatch")
  })

  it("signs non-ASCII text as its UTF-8 bytes, whether given as a string or as bytes", () => {
    const text = JSON.stringify({ ...envelope, data: { text: "Grüße aus 東京 😀" } })
    const signed = `t=${t},v1=${hmacHex(secret, t, Buffer.from(text, "utf8"))}`
    const data = { text: "Grüße aus 東京 😀" }
    assert.deepStrictEqual(verifyWebhook(text, signed, secret, { now }).data, data)
    assert.deepStrictEqual(verifyWebhook(Buffer.from(text, "utf8"), signed, secret, { now }).data, data)
  })

  it("reports a correctly signed body that is not an envelope as malformed_body", () => {
    const notEnvelopes = [
      "{not json",
      "",
      "[]",
      "null",
      JSON.stringify({ ...envelope, id: 42 }),
      JSON.stringify({ ...envelope, event: "" }),
      JSON.stringify({ ...envelope, createdAt: "yesterday" }),
      JSON.stringify({ id: envelope.id, event: envelope.event, createdAt: envelope.createdAt }),
      JSON.stringify({ ...envelope, data: "text" })
    ]
    for (const each of notEnvelopes) {
      const signed = `t=${t},v1=${hmacHex(secret, t, each)}`
      expectFailure(() => verifyWebhook(each, signed, secret, { now }), "malformed_body")
    }
    const notUtf8 = Uint8Array.from([0x7b, 0xff, 0xfe, 0x7d])
    const signed = `t=${t},v1=${hmacHex(secret, t, notUtf8)}`
    expectFailure(() => verifyWebhook(notUtf8, signed, secret, { now }), "malformed_body")
  })

  it("returns only the envelope's fields", () => {
    const extra = JSON.stringify({ ...envelope, unexpected: true })
    const signed = `t=${t},v1=${hmacHex(secret, t, extra)}`
    assert.deepStrictEqual(verifyWebhook(extra, signed, secret, { now }), envelope)
  })

  it("throws a TypeError, not a verification failure, when it is called wrongly", () => {
    assert.throws(() => verifyWebhook(body, header, "", { now }), TypeError, /secret/)
    assert.throws(() => verifyWebhook(body, header, [], { now }), TypeError, /secret/)
    assert.throws(() => verifyWebhook(body, header, [secret, ""], { now }), TypeError, /secret/)
    const parsed: unknown = JSON.parse(body)
    assert.throws(() => verifyWebhook(parsed as string, header, secret, { now }), TypeError, /raw body/)
    assert.throws(() => verifyWebhook(body, header, secret, { now, toleranceSeconds: -1 }), TypeError)
    assert.throws(() => verifyWebhook(body, header, secret, { now: new Date("not a date") }), TypeError)
  })

  it("throws an Error named WebhookVerificationError", () => {
    const error = expectFailure(() => verifyWebhook(body, undefined, secret, { now }), "missing_header")
    assert.instanceOf(error, Error)
    assert.strictEqual(error.name, "WebhookVerificationError")
  })
})

describe("signWebhook", () => {
  it("produces the header Herald sends", () => {
    assert.strictEqual(signWebhook(body, secret, t), header)
    assert.strictEqual(signWebhook(Buffer.from(body), secret, t), header)
  })

  it("signs at the current time by default, and its output verifies", () => {
    const before = Math.floor(Date.now() / 1000)
    const signed = signWebhook(body, secret)
    const timestamp = Number(/^t=(\d+),/.exec(signed)?.[1])
    assert.isAtLeast(timestamp, before)
    assert.isAtMost(timestamp, Math.floor(Date.now() / 1000))
    assert.deepStrictEqual(verifyWebhook(body, signed, secret), envelope)
  })

  it("refuses a timestamp that is not whole unix seconds", () => {
    assert.throws(() => signWebhook(body, secret, 1.5), TypeError)
    assert.throws(() => signWebhook(body, secret, -1), TypeError)
    assert.throws(() => signWebhook(body, secret, Date.now() * 1e6), TypeError)
    assert.throws(() => signWebhook(body, "", t), TypeError)
  })
})

describe("the package's exports", () => {
  it("offers the same functions at the top level and under Webhooks", () => {
    assert.strictEqual(Webhooks.verifyWebhook, verifyWebhook)
    assert.strictEqual(Webhooks.signWebhook, signWebhook)
    assert.strictEqual(Webhooks.WebhookVerificationError, WebhookVerificationError)
  })
})

interface Vector {
  readonly secret: string
  readonly timestamp: number
  readonly body: string
  readonly header: string
}

// The known-answer vectors printed in docs/webhooks.md. Receivers check their own verifiers against them.
const vectors: ReadonlyArray<Vector> = [
  {
    secret: "whsec_Xk3vQ9mT2pLr8WnYc5HdF7bJ4sAe6UgZ",
    timestamp: 1767225600,
    body:
      `{"id":"0b9f3c2e-5a41-4e8b-9d7a-2f6c1e8a4b30","event":"post.published","createdAt":"2026-01-01T00:00:00.000Z","data":{"postId":"pst_3kT9qLm2Xw"}}`,
    header: "t=1767225600,v1=32a8d5cf875ee48d74dba5eb288f2c95d0c1332d1ed3f73b1075f6f0e702b4e4"
  },
  {
    secret: "whsec_Xk3vQ9mT2pLr8WnYc5HdF7bJ4sAe6UgZ",
    timestamp: 1767225600,
    body:
      `{"id":"6e1d2a7c-93b4-4f05-8c2e-a1b7d3f94e62","event":"comment.received","createdAt":"2026-01-01T00:00:00.000Z","data":{"accountId":"acc_8Hq2Lz","platform":"threads","text":"Grüße aus 東京 😀"}}`,
    header: "t=1767225600,v1=a3ec7a94aa5a8999d8f7e3bb65f8bf87e833f0213c3945dc670138ac73f5140a"
  }
]

const documentedVectors = (): ReadonlyArray<Vector> => {
  const doc = readFileSync(new URL("../../../docs/webhooks.md", import.meta.url), "utf8")
  const start = doc.indexOf("\n## Test vectors\n")
  assert.isAtLeast(start, 0, "docs/webhooks.md has no \"## Test vectors\" section")
  const end = doc.indexOf("\n## ", start + 1)
  const section = doc.slice(start, end === -1 ? undefined : end)
  return [...section.matchAll(/```text\n([\s\S]*?)```/g)].map((match) => {
    const fields = new Map<string, string>()
    for (const line of (match[1] ?? "").split("\n")) {
      const field = /^(secret|timestamp|body|header): (.*)$/.exec(line)
      if (field !== null) fields.set(field[1] ?? "", field[2] ?? "")
    }
    return {
      secret: fields.get("secret") ?? "",
      timestamp: Number(fields.get("timestamp")),
      body: fields.get("body") ?? "",
      header: fields.get("header") ?? ""
    }
  })
}

describe("test vectors", () => {
  it("are the HMAC-SHA256 of \"<t>.<body>\" keyed with the whole secret", () => {
    for (const vector of vectors) {
      const expected = `t=${vector.timestamp},v1=${hmacHex(vector.secret, vector.timestamp, vector.body)}`
      assert.strictEqual(vector.header, expected)
    }
  })

  it("are produced by signWebhook and accepted by verifyWebhook", () => {
    for (const vector of vectors) {
      assert.strictEqual(signWebhook(vector.body, vector.secret, vector.timestamp), vector.header)
      const event = verifyWebhook(vector.body, vector.header, vector.secret, { now: new Date(vector.timestamp * 1000) })
      assert.deepStrictEqual(event, JSON.parse(vector.body))
    }
  })

  it("are printed unchanged in docs/webhooks.md", () => {
    assert.deepStrictEqual(documentedVectors(), vectors)
  })
})
