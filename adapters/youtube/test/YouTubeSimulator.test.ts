import { assert } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import type { Adapter } from "@herald/adapter-kit"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { YouTubeAdapter, YouTubeSimulator } from "../src/index.ts"
import * as Videos from "./videos.ts"

// What the sandbox refuses of a long video, as YouTube does, when Herald did not know its length.

const twentyMinutes = 20 * 60 * 1000

/** The channel's `status.longUploadsStatus`, as `channels.list?part=status&mine=true` answers it. */
const longUploadsStatus = (context: AdapterSuite.Context, accessToken: Redacted.Redacted<string>) =>
  Effect.promise(async () => {
    const response = await fetch(`${context.baseUrl}/sandbox/youtube/youtube/v3/channels?part=status&mine=true`, {
      headers: { authorization: `Bearer ${Redacted.value(accessToken)}` }
    })
    const body = (await response.json()) as { items: Array<{ status: { longUploadsStatus: string } }> }
    return body.items[0]!.status.longUploadsStatus
  })

/** Uploads a video of `bytes` whose length Herald does not know, to the end: the sandbox alone decides. */
const uploadUnknownLength = (context: AdapterSuite.Context, account: Adapter.Account, bytes: Buffer) =>
  Effect.flatMap(Videos.serve(bytes), (url) =>
    AdapterSuite.publishToEnd(context.adapter, {
      account,
      post: AdapterSuite.post({ text: `unknown length ${Date.now()}`, media: [Videos.item(url, bytes.length, null)], title: "Long" })
    }))

AdapterSuite.withHarness({ makeAdapter: YouTubeAdapter.make, makeSimulator: YouTubeSimulator.simulator })("youtube simulator", (it) => {
  it.effect("answers a channel's longUploadsStatus, eligible until a control call changes it", () =>
    Effect.gen(function*() {
      const context = yield* AdapterSuite.Harness
      const { tokens } = yield* AdapterSuite.connect(context, "new_channel")
      assert.strictEqual(yield* longUploadsStatus(context, tokens.accessToken), "eligible")
      const changed = yield* Videos.setLongUploads(context, { username: "new_channel", longUploadsStatus: "allowed" })
      assert.deepStrictEqual(changed, { status: 200, body: { username: "new_channel", longUploadsStatus: "allowed" } })
      assert.strictEqual(yield* longUploadsStatus(context, tokens.accessToken), "allowed")
      const invalid = yield* Videos.setLongUploads(context, { username: "new_channel", longUploadsStatus: "verified" })
      assert.strictEqual(invalid.status, 400)
      assert.include((invalid.body["error"] as { message: string }).message, "longUploadsStatus")
      const unknown = yield* Videos.setLongUploads(context, { username: "nobody_here", longUploadsStatus: "allowed" })
      assert.strictEqual(unknown.status, 404)
    }))

  it.effect("rejects a long upload on an unverified channel with length, which the adapter reports for good", () =>
    Effect.scoped(Effect.gen(function*() {
      const context = yield* AdapterSuite.Harness
      const { account } = yield* AdapterSuite.connect(context, "unverified_uploader")
      const from = context.cutter.log.length
      const error = yield* Effect.flip(uploadUnknownLength(context, account, Videos.withDuration(twentyMinutes)))
      // Herald did not know the length, so the adapter uploaded it all and YouTube refused it after.
      assert.deepStrictEqual(Videos.uploadsSince(context, from), ["POST /upload/youtube/v3/videos", "PUT /upload/youtube/v3/videos"])
      assert.strictEqual(error.reason._tag, "Rejected")
      assert.strictEqual(
        error.message,
        "youtube: the video is longer than YouTube lets this channel upload (15 min until the channel is verified, 12 hours after) (length: rejected)"
      )
      assert.deepStrictEqual(context.simulator.state.postsOf(account.networkAccountId), [])
    })))

  it.effect("takes a short video on an unverified channel, and refuses over 12 hours on any", () =>
    Effect.scoped(Effect.gen(function*() {
      const context = yield* AdapterSuite.Harness
      const { account } = yield* AdapterSuite.connect(context, "busy_uploader")
      const published = yield* uploadUnknownLength(context, account, Videos.fixture)
      assert.isDefined(context.simulator.state.posts.get(published.id))
      yield* Videos.setLongUploads(context, { username: "busy_uploader", longUploadsStatus: "allowed" })
      const error = yield* Effect.flip(uploadUnknownLength(context, account, Videos.withDuration(13 * 60 * 60 * 1000)))
      assert.include(error.message, "(length: rejected)")
    })))
})
