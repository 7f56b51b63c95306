import { assert } from "@effect/vitest"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { Effect, Redacted } from "effect"
import { connect } from "node:net"
import { BlueskyAdapter, BlueskyRules, BlueskySimulator } from "../src/index.ts"

// Every rule of the Bluesky simulator's table, broken alone over HTTP: refused with the PDS's status and
// XRPC error `{ error, message }`; and requests that keep them all, taken.

interface Answer {
  readonly status: number
  readonly body: Record<string, unknown>
}

interface Session {
  readonly did: string
  /** `com.atproto.repo.uploadBlob` of `bytes` bytes, with this Content-Type (none when undefined). */
  readonly upload: (bytes: number, mimeType: string | undefined) => Promise<Answer>
  /** The blob an upload answers. */
  readonly blob: (bytes: number, mimeType: string) => Promise<Record<string, unknown>>
  /** `com.atproto.repo.createRecord` with this body, or of this post record in the session's repo. */
  readonly createBody: (body: unknown) => Promise<Answer>
  readonly create: (record: Record<string, unknown>) => Promise<Answer>
  /** An upload that announces `length` bytes and sends ten, over a raw socket: the answer's text. */
  readonly announce: (length: number) => Promise<string>
}

const answer = (response: Response): Promise<Answer> =>
  response.json().then((body) => ({ status: response.status, body: body as Record<string, unknown> }))

const makeSession = (baseUrl: string, did: string, token: string): Session => {
  const root = `${baseUrl}/sandbox/bluesky/xrpc`
  const headers = { authorization: `Bearer ${token}` }
  const upload: Session["upload"] = (bytes, mimeType) =>
    fetch(`${root}/com.atproto.repo.uploadBlob`, {
      method: "POST",
      headers: mimeType === undefined ? headers : { ...headers, "content-type": mimeType },
      body: new Uint8Array(bytes).fill(7)
    }).then(answer)
  const createBody: Session["createBody"] = (body) =>
    fetch(`${root}/com.atproto.repo.createRecord`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify(body)
    }).then(answer)
  return {
    did,
    upload,
    blob: (bytes, mimeType) => upload(bytes, mimeType).then((uploaded) => uploaded.body["blob"] as Record<string, unknown>),
    createBody,
    create: (record) => createBody({ repo: did, collection: "app.bsky.feed.post", record }),
    announce: (length) =>
      new Promise<string>((resolve) => {
        const { port } = new URL(baseUrl)
        const socket = connect(Number(port), "127.0.0.1", () => {
          socket.write([
            "POST /sandbox/bluesky/xrpc/com.atproto.repo.uploadBlob HTTP/1.1",
            "host: 127.0.0.1",
            `authorization: Bearer ${token}`,
            "content-type: video/mp4",
            `content-length: ${length}`,
            "",
            "0123456789"
          ].join("\r\n"))
        })
        let text = ""
        socket.on("data", (chunk) => {
          text += chunk.toString("utf8")
          if (text.includes("}")) socket.destroy()
        })
        socket.on("close", () => resolve(text))
      })
  }
}

const post = (fields: Record<string, unknown>) => ({ $type: "app.bsky.feed.post", text: "hello", createdAt: "2026-12-03T10:00:00.000Z", ...fields })
const images = (image: Record<string, unknown>) => post({ embed: { $type: "app.bsky.embed.images", images: [{ image, alt: "" }] } })

/** For each rule (by its words), a request that breaks it and no other, and the PDS's answer to it. */
type Examples = Record<string, {
  readonly send: (session: Session, other: Session) => Promise<Answer>
  readonly error: string
  readonly message: string | ((session: Session) => string)
}>

const uploads: Examples = {
  "a `Content-Type` naming the blob's encoding": {
    send: (session) => session.upload(10, undefined),
    error: "InvalidRequest",
    message: "Request encoding (Content-Type) required but not provided"
  },
  "a body of at most the PDS's `blobUploadLimit` (the sandbox's: the largest blob a post may hold, a video's 300,000,000 bytes)": {
    // Announced one byte past the video's maxSize, and answered before the rest is sent.
    send: async (session) => {
      const text = await session.announce(300_000_001)
      return { status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1]), body: JSON.parse(text.slice(text.indexOf("{"))) as Record<string, unknown> }
    },
    error: "PayloadTooLarge",
    message: "request entity too large"
  }
}

const creates: Examples = {
  "an input valid against the procedure's lexicon (`repo` a DID or handle, `collection` an NSID, `record` an object)": {
    send: (session) => session.createBody({ repo: session.did, collection: "app.bsky.feed.post", record: "hello" }),
    error: "InvalidRequest",
    message: "Input/record must be an object"
  },
  "a `repo` naming an account of the PDS": {
    send: (session) => session.createBody({ repo: "did:plc:999999999999", collection: "app.bsky.feed.post", record: post({}) }),
    error: "AccountNotFound",
    message: "Account not found"
  },
  "a `repo` that is the session's own account (its DID or handle)": {
    send: (session, other) => session.createBody({ repo: other.did, collection: "app.bsky.feed.post", record: post({}) }),
    error: "AuthenticationRequired",
    message: "Authentication Required"
  },
  "a record whose `$type`, when given, is the collection written to": {
    send: (session) => session.create(post({ $type: "app.bsky.feed.like" })),
    error: "InvalidRequest",
    message: "Invalid $type: expected app.bsky.feed.post, got app.bsky.feed.like"
  },
  "a record valid against its lexicon": {
    send: (session) => session.create(post({ createdAt: "yesterday" })),
    error: "InvalidRequest",
    message: "Invalid app.bsky.feed.post record: Record/createdAt must be an valid atproto datetime (both RFC-3339 and ISO-8601)"
  },
  "each blob of a MIME type its lexicon property accepts (`app.bsky.embed.images#image`: image/*; `app.bsky.embed.video`: video/mp4)": {
    send: async (session) => session.create(images(await session.blob(10, "video/mp4"))),
    error: "InvalidRequest",
    message: "Invalid app.bsky.feed.post record: Expected \"image/*\" (got \"video/mp4\") at $.record.embed.images[0].image.mimeType"
  },
  "each blob of at most its lexicon property's `maxSize` (an image 2,000,000 bytes, a video 300,000,000)": {
    send: async (session) => session.create(images(await session.blob(2_000_001, "image/jpeg"))),
    error: "InvalidRequest",
    message: "Invalid app.bsky.feed.post record: blob too big (maximum 2000000, got 2000001) at $.record.embed.images[0].image"
  },
  "each blob uploaded by the account (`com.atproto.repo.uploadBlob`)": {
    send: async (session, other) => session.create(images(await other.blob(11, "image/png"))),
    error: "BlobNotFound",
    message: "Could not find blob: __cid__"
  },
  "each blob's `mimeType` as it was uploaded": {
    send: async (session) => session.create(images({ ...await session.blob(12, "image/png"), mimeType: "image/gif" })),
    error: "InvalidMimeType",
    message: "Referenced Mimetype does not match stored blob. Expected: image/png, Got: image/gif"
  },
  "each blob's `size` as it was uploaded": {
    send: async (session) => session.create(images({ ...await session.blob(13, "image/png"), size: 50 })),
    error: "InvalidSize",
    message: "Referenced Size does not match stored blob. Expected: 13, Got: 50"
  }
}

const examples: Record<string, Examples> = { [BlueskyRules.upload.call]: uploads, [BlueskyRules.create.call]: creates }
const calls = [BlueskyRules.upload, BlueskyRules.create]

AdapterSuite.withHarness({ makeAdapter: BlueskyAdapter.make, makeSimulator: BlueskySimulator.simulator })("Bluesky simulator rules", (it) => {
  const session = (username: string) =>
    Effect.gen(function*() {
      const ctx = yield* AdapterSuite.Harness
      const { account } = yield* AdapterSuite.connect(ctx, username)
      return makeSession(ctx.baseUrl, account.networkAccountId, Redacted.value(account.accessToken))
    })

  it("every rule of the table has an example that breaks it", () => {
    assert.deepStrictEqual(Object.keys(examples), BlueskyRules.rules.map((call) => call.call))
    for (const call of calls) {
      assert.deepStrictEqual(Object.keys(examples[call.call]!).sort(), call.rules.map((rule) => rule.rule).sort(), call.call)
    }
  })

  for (const call of calls) {
    for (const rule of call.rules) {
      it.effect(`${call.call} refuses what breaks only: ${rule.rule}`, () =>
        Effect.gen(function*() {
          const example = examples[call.call]?.[rule.rule]
          assert.isDefined(example, "no example")
          const [own, other] = [yield* session("rules_author"), yield* session("rules_other")]
          const { status, body } = yield* Effect.promise(() => example!.send(own, other))
          assert.strictEqual(status, rule.status, JSON.stringify(body))
          assert.deepStrictEqual(Object.keys(body).sort(), ["error", "message"])
          assert.strictEqual(body["error"], rule.error)
          const cid = /blob: (\S+)$/.exec(String(body["message"]))?.[1] ?? "?"
          assert.strictEqual(body["message"], String(example!.message).replace("__cid__", cid))
        }))
    }
  }

  it.effect("takes what keeps every rule: images and a video as uploaded, a reply, an empty post and an empty upload", () =>
    Effect.gen(function*() {
      const own = yield* session("rules_keeper")
      const photo = yield* Effect.promise(() => own.blob(2_000_000, "image/jpeg"))
      const made = yield* Effect.promise(() => own.create(images(photo)))
      assert.strictEqual(made.status, 200, JSON.stringify(made.body))
      const ref = { uri: made.body["uri"], cid: made.body["cid"] }
      const video = yield* Effect.promise(() => own.blob(100, "video/mp4"))
      const checks = [
        own.create(post({ embed: { $type: "app.bsky.embed.video", video }, reply: { root: ref, parent: ref } })),
        own.createBody({ repo: own.did, collection: "app.bsky.feed.post", record: { text: "", createdAt: "2026-12-03T10:00:00.000Z" } }),
        own.upload(0, "image/png")
      ]
      for (const check of checks) {
        const taken = yield* Effect.promise(() => check)
        assert.strictEqual(taken.status, 200, JSON.stringify(taken.body))
      }
    }))
})
