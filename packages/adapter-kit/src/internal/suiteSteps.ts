import { assert } from "@effect/vitest"
import { Duration, Effect, Option } from "effect"
import type { TestContext } from "vitest"
import * as Adapter from "../Adapter.ts"
import * as Pkce from "../Pkce.ts"
import { PostVersion } from "../PostVersion.ts"
import type { PublishError } from "../PublishError.ts"
import * as Fixtures from "./fixtures.ts"
import type { Context, Options } from "./suiteHarness.ts"

// The steps the suite's cases and a network's own tests are made of: connect an account, publish to the end,
// posts and the suite's media, and the checks shared by several networks.

/**
 * Connects a sandbox account the way the server does: through the adapter's OAuth (the consent screen and
 * the callback), or for a credentials network by signing in with the fields its simulator accepts.
 */
export const connect = (context: Context, username?: string) =>
  Effect.gen(function*() {
    const { adapter, redirectUri } = context
    if (adapter.connect.method === "credentials" && adapter.credentials !== undefined) {
      const signedIn = yield* Effect.orDie(adapter.credentials.signIn(adapter.credentials.sandboxFields(username ?? "sandbox_user")))
      const account: Adapter.Account = {
        networkAccountId: signedIn.profile.networkAccountId,
        username: signedIn.profile.username,
        accessToken: signedIn.tokens.accessToken,
        server: signedIn.server
      }
      return { tokens: signedIn.tokens, profile: signedIn.profile, account }
    }
    const state = Pkce.state()
    const verifier = adapter.oauth.pkce ? Pkce.verifier() : undefined
    const authorize = new URL(adapter.oauth.authorizeUrl({
      state,
      redirectUri,
      codeChallenge: verifier === undefined ? undefined : Pkce.challenge(verifier)
    }))
    if (username !== undefined) authorize.searchParams.set("sandbox_username", username)
    // The person consents; the simulator redirects back with a code.
    const response = yield* Effect.promise(() => fetch(authorize, { redirect: "manual" }))
    assert.strictEqual(response.status, 302, `consent screen answered ${response.status}`)
    const callback = new URL(response.headers.get("location")!)
    assert.strictEqual(callback.searchParams.get("state"), state)
    const tokens = yield* adapter.oauth.exchange({
      code: callback.searchParams.get("code")!,
      redirectUri,
      codeVerifier: verifier
    })
    const profile = yield* adapter.oauth.profile(tokens.accessToken)
    const account: Adapter.Account = {
      networkAccountId: profile.networkAccountId,
      username: profile.username,
      accessToken: tokens.accessToken,
      server: null
    }
    return { tokens, profile, account }
  })

/** The adapter's refresh for the accounts the suite connects (by credentials or OAuth). */
export const refreshOf = (adapter: Adapter.Adapter) => {
  const refresh = Adapter.refresher(adapter, adapter.connect.method === "credentials" ? "credentials" : "oauth")
  if (refresh === undefined) throw new Error(`${adapter.network} claims refresh but has no refresh hook`)
  return refresh
}

/** Publishes and polls until the network has the post (the engine does the same, durably). */
export const publishToEnd = (adapter: Adapter.Adapter, input: Adapter.PublishInput) =>
  Effect.gen(function*() {
    let step = yield* adapter.publish(input)
    for (let polls = 0; step._tag === "Processing"; polls++) {
      assert.isBelow(polls, 50, "still processing after 50 polls")
      assert.isDefined(adapter.poll, "answered Processing without a poll hook")
      yield* Effect.sleep(Duration.millis(Math.min(step.checkAfterMs, 200)))
      step = yield* adapter.poll!(input, step.handle)
    }
    return step.published
  })

/**
 * For an adapter whose post is made by a later step (`makesPost`), the call `publishing` of that step: an older
 * post with the same text is published; then `post` goes again, and `reconcile` given the step's handle answers
 * none while the step has not run (the older post is not taken for it), then, once that step's call has lost its
 * answer in transit (the network acted), the new post with its id and link.
 */
export const checkFoundThroughHandle = (context: Context, account: Adapter.Account, post: PostVersion, publishing: RegExp) =>
  Effect.gen(function*() {
    const { adapter, cutter } = context
    const older = yield* publishToEnd(adapter, { account, post })
    const first = yield* adapter.publish({ account, post })
    assert.strictEqual(first._tag, "Processing", "the publish step makes the container only")
    const handle = (first as { readonly handle: string }).handle
    const unsent = yield* adapter.reconcile!({ account, post, handle })
    assert.isTrue(Option.isNone(unsent), "a step that has not run made no post, whatever its text")
    assert.isTrue(adapter.makesPost?.(handle))
    // The step's calls: the status read, then the one that makes the post, whose answer is lost.
    let lost: string | undefined
    for (let step = 0; step < 10 && lost === undefined; step++) {
      cutter.arm(2, "lose")
      const answer = yield* Effect.result(adapter.poll!({ account, post }, handle))
      cutter.disarm()
      if (answer._tag === "Failure") {
        assert.strictEqual(answer.failure.reason._tag, "OutcomeUnknown", answer.failure.message)
        lost = cutter.lost
      }
    }
    assert.match(lost ?? "", publishing)
    const found = yield* adapter.reconcile!({ account, post, handle })
    const made = context.simulator.state.postsOf(account.networkAccountId).filter((entry) => entry.text === post.text)
    assert.strictEqual(made.length, 2, "the older post and this one")
    const stored = made.find((entry) => entry.id !== older.id)
    assert.deepStrictEqual(Option.getOrUndefined(found), { id: stored!.id, url: stored!.url })
  })

/** Fields of a post, any left out as in `post()`. */
export type PostFields = Partial<ConstructorParameters<typeof PostVersion>[0]>

export const post = (fields: PostFields = {}) =>
  new PostVersion({
    text: "",
    media: [],
    thread: [],
    format: "post",
    title: null,
    thumbnail: null,
    firstComment: null,
    settings: {},
    ...fields
  })

/** Media served by the suite's test server. */
export const media = {
  photo: (context: Context, index = 1, size?: { readonly width: number; readonly height: number }) =>
    Fixtures.photo(context.baseUrl, index, size),
  video: (context: Context, index = 1, durationMs?: number) => Fixtures.video(context.baseUrl, index, durationMs),
  /** A photo of `bytes` bytes (padded after the image), for a file over a network's size. */
  photoOfBytes: (context: Context, bytes: number, index = 1) => Fixtures.photoOfBytes(context.baseUrl, index, bytes),
  /** A photo whose file is gone from Herald's media server (its address answers 404, as for deleted media). */
  gonePhoto: (context: Context, index = 1) => Fixtures.gonePhoto(context.baseUrl, index)
}

/**
 * For an adapter that uploads media bytes (`MediaDownload`): a post whose photo is gone from Herald is refused
 * for good (a retry cannot bring the file back), and nothing is posted for the new account `username`.
 */
export const checkGoneMediaRefused = (context: Context, username: string) =>
  Effect.gen(function*() {
    const { account } = yield* connect(context, username)
    const error = yield* Effect.flip(context.adapter.publish({
      account,
      post: post({ text: `gone ${username}`, media: [media.gonePhoto(context)] })
    }))
    assert.strictEqual(error.reason._tag, "Rejected")
    assert.strictEqual(error.reason.message, "the media file /deleted-media/photo1.jpg is gone (HTTP 404); attach it again")
    assert.lengthOf(context.simulator.state.postsOf(account.networkAccountId), 0)
  })

export const reasonOf = (error: PublishError) => error.reason._tag

/**
 * Skips the running check, saying why (`skipped: example does not claim videos`), where the adapter does
 * not claim the capability the check needs: a network's report then shows what was not tried, rather
 * than a pass for a check that never ran.
 */
export const claimed = (test: TestContext, adapter: Adapter.Adapter, capability: keyof Adapter.Capabilities) =>
  Effect.sync(() => {
    if (!adapter.capabilities[capability]) test.skip(`skipped: ${adapter.network} does not claim ${capability}`)
  })

/** A post the network accepts with only this text (plus the media its plain form requires). */
export const textPost = (options: Options, context: Context, text: string) => {
  const base = options.textPost?.(context) ?? post()
  return post({ ...base, text })
}
