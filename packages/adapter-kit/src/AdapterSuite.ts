import { assert, layer } from "@effect/vitest"
import { Context, Duration, Effect, Layer, Option, Redacted } from "effect"
import { HttpClient, HttpRouter, HttpServerResponse } from "effect/http"
import { NodeHttpClient, NodeHttpServer } from "@effect/platform-node"
import { createServer } from "node:http"
import { createServer as createNetServer } from "node:net"
import type { TestContext } from "vitest"
import * as Adapter from "./Adapter.ts"
import type { AdapterConfig } from "./AdapterConfig.ts"
import * as CutOff from "./internal/cutOff.ts"
import * as Fixtures from "./internal/fixtures.ts"
import * as Pkce from "./Pkce.ts"
import type { VersionParts } from "./PostOptions.ts"
import { PostVersion } from "./PostVersion.ts"
import type { PublishError } from "./PublishError.ts"
import type * as Simulator from "./Simulator.ts"
import type * as SimulatorState from "./SimulatorState.ts"
import { count } from "./TextCounter.ts"

/**
 * The conformance suite every adapter runs against its own simulator over real HTTP: connect through
 * OAuth, refresh, publish text, photos and a video, the sandbox errors, and reconcile; skipping what the
 * adapter's capabilities say it does not do. Network quirks go in `extra`.
 */
export interface Options {
  readonly makeAdapter: (config: AdapterConfig) => Effect.Effect<Adapter.Adapter, never, HttpClient.HttpClient>
  readonly makeSimulator: Simulator.Make
  /** A form of post to use for text (networks whose plain form needs media give one with media). */
  readonly textPost?: (context: Context) => PostVersion
  readonly extra?: (it: Methods, context: Effect.Effect<Context, never, Harness>) => void
  /**
   * Whether the network's refusal carries words of the simulator's choosing, so a `#sandbox-fail` refusal
   * says it was the sandbox's trigger (`SimulatorState.refusal`); false for networks that answer a refusal
   * with a code only (TikTok's `fail_reason`, YouTube's `rejectionReason`). True unless said.
   */
  readonly refusalInWords?: boolean
  /**
   * A value of each of the network's own options (`options.fields`; required when the adapter declares
   * options), and what the network keeps of it: the suite publishes a post with each sample's `values` and
   * hands `expect` the post the simulator stored, so an option the adapter drops fails. Every field must
   * be set, away from its default, by some sample. Media ids name the suite's media: `med_photo1`,
   * `med_video1`.
   */
  readonly optionSamples?: ReadonlyArray<OptionSample>
}

/** One post's worth of options and the check that the network has them. */
export interface OptionSample {
  readonly values: Readonly<Record<string, unknown>>
  readonly expect: (stored: SimulatorState.SimulatedPost, context: Context) => void
}

export interface Context {
  readonly adapter: Adapter.Adapter
  readonly simulator: Simulator.Simulator
  /** The test server's address; the simulator lives under `/sandbox/<network>`, media under `/media`. */
  readonly baseUrl: string
  readonly redirectUri: string
  /**
   * Strikes a chosen network call: stops the adapter right after it, as a crash would, or loses its answer
   * in transit while the adapter goes on (the fault cases).
   */
  readonly cutter: CutOff.Cutter
}

export class Harness extends Context.Service<Harness, Context>()("@herald/adapter-kit/AdapterSuite/Harness") {}

type Methods = Parameters<Parameters<ReturnType<typeof layer<Harness, never>>>[1]>[0]

const freePort = Effect.callback<number>((resume) => {
  const server = createNetServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

/**
 * The adapter pointed at its simulator, served over real HTTP under `/sandbox/<network>` (media under
 * `/media`): what the suite runs on, for a network's own tests beyond it.
 */
export const harness = (options: Options) =>
  Layer.unwrap(Effect.gen(function*() {
    const port = yield* freePort
    const baseUrl = `http://127.0.0.1:${port}`
    // The simulator needs its network key before it exists: ask a throwaway one.
    const probe = options.makeSimulator({ baseUrl: `${baseUrl}/sandbox/probe` })
    const root = `${baseUrl}/sandbox/${probe.network}`
    const simulator = options.makeSimulator({ baseUrl: root })
    const media = HttpRouter.add("GET", "/media/:file", (request) =>
      Effect.succeed(
        request.url.endsWith(".mp4")
          ? HttpServerResponse.uint8Array(Fixtures.mp4Lasting(Fixtures.durationInPath(request.url)), { contentType: "video/mp4" })
          : HttpServerResponse.uint8Array(Fixtures.jpegInPath(request.url), { contentType: "image/jpeg" })
      ))
    // Idle connections kept longer than any wait between two calls of a test: with Node's 5 s, a loaded
    // machine could send a call on a connection the simulator was closing at that moment (decision 0071).
    const server = HttpRouter.serve(
      Layer.mergeAll(media, HttpRouter.addAll(simulator.routes, { prefix: `/sandbox/${simulator.network}` })),
      { disableLogger: true, disableListenLog: true }
    ).pipe(Layer.provide(NodeHttpServer.layer(() => createServer({ keepAliveTimeout: 65_000 }), { port, host: "127.0.0.1" })))
    const cutter = new CutOff.Cutter(root)
    const context = Layer.effect(
      Harness,
      Effect.map(
        options.makeAdapter({
          apiBaseUrl: root,
          authBaseUrl: root,
          webBaseUrl: root,
          clientId: "sandbox-client",
          clientSecret: Redacted.make("sandbox-secret")
        }),
        (adapter) => Harness.of({ adapter, simulator, baseUrl, redirectUri: `${baseUrl}/oauth/callback`, cutter })
      )
    ).pipe(
      Layer.provide(Layer.effect(HttpClient.HttpClient, Effect.map(HttpClient.HttpClient, cutter.wrap))),
      Layer.provide(NodeHttpClient.layerUndici)
    )
    return Layer.merge(server, context)
  }))

/**
 * `layer` from `@effect/vitest` over the harness, with the settings the suite runs on (real HTTP and polling
 * want more than the default timeout, and the real clock): so a network's own test files set it up alike.
 */
export const withHarness = (options: Pick<Options, "makeAdapter" | "makeSimulator">) =>
  layer(harness(options), { timeout: Duration.minutes(2), excludeTestServices: true })

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
const refreshOf = (adapter: Adapter.Adapter) => {
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
type PostFields = Partial<ConstructorParameters<typeof PostVersion>[0]>

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

/**
 * Stands in for the people on the network: posts to the simulator's `_control/comments` or
 * `_control/messages` route (a comment or a direct message someone sends the account), which no adapter call
 * can do. Answers the route's status and JSON body (the stored item, or the error), for the test to check.
 */
export const control = (context: Context, kind: "comments" | "messages", body: Readonly<Record<string, unknown>>) =>
  Effect.promise(async () => {
    // The harness serves the simulator under its own network key.
    const response = await fetch(`${context.baseUrl}/sandbox/${context.simulator.network}/_control/${kind}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body)
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  })

/** The adapter's inbox hooks, failing the test where the adapter has none (the hooks are optional). */
export const inboxOf = (context: Context): Adapter.InboxHooks => {
  assert.isDefined(context.adapter.inbox, `the ${context.adapter.name} adapter has no inbox`)
  return context.adapter.inbox!
}

/**
 * The one message of `page` is the one injected through `control` (its answer's `body`): same id and
 * conversation, text, sender and attachment count, incoming, with a readable time.
 */
export const checkMessageArrived = (page: Adapter.InboxPage, injected: Readonly<Record<string, unknown>>) => {
  assert.strictEqual(page.messages.length, 1)
  const arrived = page.messages[0]!
  const sender = injected["from"] as Adapter.Person
  assert.strictEqual(arrived.id, injected["id"])
  assert.strictEqual(arrived.conversationId, injected["conversationId"])
  assert.strictEqual(arrived.text, injected["text"])
  assert.strictEqual(arrived.from.username, sender.username)
  assert.strictEqual(arrived.attachments, injected["attachments"])
  assert.isFalse(arrived.outgoing)
  assert.isFalse(Number.isNaN(Date.parse(arrived.createdAt)))
  return arrived
}

/**
 * Reads again from `cursor` and finds nothing new: each item comes once. With `sameCursor`, the cursor does
 * not move either (networks whose cursor keeps a window of recent ids may move it).
 */
export const checkNothingNew = (context: Context, account: Adapter.Account, cursor: string, options: { readonly sameCursor: boolean }) =>
  Effect.map(inboxOf(context).fetch({ account, cursor }), (again) => {
    assert.deepStrictEqual([again.comments.length, again.messages.length], [0, 0])
    if (options.sameCursor) assert.strictEqual(again.cursor, cursor)
    return again
  })

export interface StartInboxOptions {
  /**
   * Fields of the one post over its default, the text `post of <username> <time>`: the media a network's
   * posts need (a photo, a video with a title), or a text of its own.
   */
  readonly post?: PostFields
}

/**
 * Where an inbox test begins: a connected account with one published post for people to comment on, and the
 * cursor of the first (null-cursor) fetch, so what arrives from then on is news. `first` is that fetch's page.
 */
export const startInbox = (context: Context, username: string, options: StartInboxOptions = {}) =>
  Effect.gen(function*() {
    const { account } = yield* connect(context, username)
    const published = yield* publishToEnd(context.adapter, {
      account,
      post: post({ text: `post of ${username} ${Date.now()}`, ...options.post })
    })
    const first = yield* inboxOf(context).fetch({ account, cursor: null })
    return { account, published, cursor: first.cursor, first }
  })

/**
 * Replies to a comment through the adapter and checks the simulator keeps the reply where the network would:
 * under that comment, on `postId`, as the account. Answers the reply and what the simulator stored, for the
 * network's own checks (its links, its text).
 */
export const answerComment = (
  context: Context,
  input: {
    readonly account: Adapter.Account
    readonly comment: Adapter.InboxComment
    readonly text: string
    readonly postId: string
  }
) =>
  Effect.gen(function*() {
    const { account, comment, text } = input
    const reply = yield* inboxOf(context).replyToComment({ account, comment, text })
    const stored = context.simulator.state.comments.get(reply.id)
    assert.isDefined(stored, "the simulator has no such reply")
    assert.strictEqual(stored!.replyTo, comment.id)
    assert.strictEqual(stored!.postId, input.postId)
    assert.strictEqual(stored!.author.id, account.networkAccountId)
    return { reply, stored: stored! }
  })

/**
 * Answers a direct message through the adapter and checks the simulator keeps it as the account's, in that
 * conversation. Answers what was sent and what the simulator kept, for the network's own checks.
 */
export const answerMessage = (
  context: Context,
  input: { readonly account: Adapter.Account; readonly conversationId: string; readonly text: string }
) =>
  Effect.gen(function*() {
    const sent = yield* inboxOf(context).sendMessage(input)
    const kept = context.simulator.state.messagesAfter(input.account.networkAccountId, 0).find((entry) =>
      entry.id === sent.id
    )
    assert.isDefined(kept, "the simulator has no such message")
    assert.isTrue(kept!.outgoing)
    assert.strictEqual(kept!.conversationId, input.conversationId)
    return { sent, kept: kept! }
  })

/**
 * Answers fail as publishing does, so the engine treats them alike: `#sandbox-fail` is refused for good,
 * `#sandbox-flaky` may be retried, a comment that is gone (`gone`; by default the same with id `404`) is
 * refused; and once the token expires, reading and answering both ask for a refresh. It expires the
 * account's token, so it comes last in a test.
 */
export const checkAnswerErrors = (
  context: Context,
  input: {
    readonly account: Adapter.Account
    readonly cursor: string
    readonly comment: Adapter.InboxComment
    readonly gone?: Adapter.InboxComment
  }
) =>
  Effect.gen(function*() {
    const inbox = inboxOf(context)
    const { account, comment } = input
    const failed = yield* Effect.flip(inbox.replyToComment({ account, comment, text: "no #sandbox-fail" }))
    assert.strictEqual(failed.reason._tag, "Rejected")
    const flaky = yield* Effect.flip(inbox.replyToComment({ account, comment, text: "wobbly #sandbox-flaky" }))
    assert.isTrue(flaky.retryable)
    const gone = input.gone ?? { ...comment, id: "404" }
    const unknown = yield* Effect.flip(inbox.replyToComment({ account, comment: gone, text: "x" }))
    assert.strictEqual(unknown.reason._tag, "Rejected")

    context.simulator.state.expire(account.networkAccountId)
    const expired = yield* Effect.flip(inbox.fetch({ account, cursor: input.cursor }))
    assert.strictEqual(expired.reason._tag, "AuthExpired")
    const replyExpired = yield* Effect.flip(inbox.replyToComment({ account, comment, text: "late" }))
    assert.strictEqual(replyExpired.reason._tag, "AuthExpired")
  })

/**
 * For a network without direct messages: one a person sends (`message`, the control route's body) is not
 * read, and sending one fails for good, so the engine never retries it. Answers the control route's answer.
 */
export const checkNoMessages = (
  context: Context,
  input: { readonly account: Adapter.Account; readonly cursor: string; readonly message: Readonly<Record<string, unknown>> }
) =>
  Effect.gen(function*() {
    const sent = yield* control(context, "messages", input.message)
    const page = yield* inboxOf(context).fetch({ account: input.account, cursor: input.cursor })
    assert.deepStrictEqual(page.messages, [])
    const error = yield* Effect.flip(
      inboxOf(context).sendMessage({ account: input.account, conversationId: "any", text: "Hello" })
    )
    assert.strictEqual(error.reason._tag, "Rejected")
    assert.isFalse(error.retryable)
    assert.include(error.message, "does not offer direct messages")
    return { sent }
  })

const reasonOf = (error: PublishError) => error.reason._tag

/**
 * Skips the running check, saying why (`skipped: example does not claim videos`), where the adapter does
 * not claim the capability the check needs: a network's report then shows what was not tried, rather
 * than a pass for a check that never ran.
 */
const claimed = (test: TestContext, adapter: Adapter.Adapter, capability: keyof Adapter.Capabilities) =>
  Effect.sync(() => {
    if (!adapter.capabilities[capability]) test.skip(`skipped: ${adapter.network} does not claim ${capability}`)
  })

/** A post the network accepts with only this text (plus the media its plain form requires). */
const textPost = (options: Options, context: Context, text: string) => {
  const base = options.textPost?.(context) ?? post()
  return post({ ...base, text })
}


/** Every form the adapter's capabilities allow, so each step of each is struck. */
const cutOffForms = (options: Options, context: Context): ReadonlyArray<CutOff.Form> => {
  const { capabilities, limits } = context.adapter
  const maxPhotos = limits.forms.post.media.maxPhotos
  const forms: Array<CutOff.Form> = [{ name: "plain", make: (text) => textPost(options, context, text) }]
  if (capabilities.photos) {
    const photos = [media.photo(context, 1), media.photo(context, 2)].slice(0, Math.max(1, Math.min(maxPhotos, 2)))
    forms.push({ name: "photos", make: (text) => post({ text, media: photos }) })
  }
  if (capabilities.videos) {
    // With a first comment where the network takes one: the steps after a video's processing are cut at too.
    forms.push({
      name: "video",
      make: (text) =>
        post({
          ...options.textPost?.(context),
          text,
          media: [media.video(context, 1)],
          firstComment: capabilities.firstComment ? `${text} (first comment)` : null
        })
    })
  }
  if (capabilities.thread) {
    forms.push({ name: "thread", make: (text) => post({ ...textPost(options, context, text), thread: [`${text} 2/`, `${text} 3/`] }) })
  }
  if (capabilities.firstComment) {
    forms.push({ name: "first comment", make: (text) => post({ ...textPost(options, context, text), firstComment: `${text} (first comment)` }) })
  }
  return forms
}

/** Strikes every network call of every form in turn with `fault`, one publication a call. */
const strikeEveryCall = (options: Options, ctx: Context, fault: CutOff.Fault) =>
  Effect.gen(function*() {
    for (const form of cutOffForms(options, ctx)) {
      // An account (and token) per form, so a network's per-token limits are not what a case meets.
      const { account } = yield* connect(ctx)
      for (let at = 1;; at++) {
        const run = yield* CutOff.checkStruckAt(ctx, account, form, at, fault)
        if (run.cut === undefined) {
          assert.isAbove(at, 1, `a ${form.name} post made no network call the suite could strike`)
          break
        }
      }
    }
  })

export const suite = (name: string, options: Options) =>
  withHarness(options)(
    `${name} conformance`,
    (it) => {
      const context = Effect.service(Harness)

      it.effect("connects through OAuth and reads the profile", () =>
        Effect.gen(function*() {
          const ctx = yield* context
          const { profile, tokens } = yield* connect(ctx, "conformance_user")
          assert.strictEqual(profile.username, "conformance_user")
          assert.isAbove(Redacted.value(tokens.accessToken).length, 8)
          assert.isTrue(ctx.adapter.validate(post({ text: "x" })).length >= 0)
        }))

      it.effect("publishes and the network has the post, with a link under its address", () =>
        Effect.gen(function*() {
          const ctx = yield* context
          const { account } = yield* connect(ctx)
          const text = `Hello from the conformance suite ${Date.now()}`
          const published = yield* publishToEnd(ctx.adapter, { account, post: textPost(options, ctx, text) })
          assert.isTrue(published.url.startsWith(`${ctx.baseUrl}/sandbox/${ctx.simulator.network}`), published.url)
          const stored = [...ctx.simulator.state.posts.values()].find((entry) => entry.text === text)
          assert.isDefined(stored, "the simulator has no post with that text")
        }))

      it.effect("refreshes an expired token and publishes again", (test) =>
        Effect.gen(function*() {
          const ctx = yield* context
          yield* claimed(test, ctx.adapter, "refresh")
          const { account, tokens } = yield* connect(ctx)
          ctx.simulator.state.expire(account.networkAccountId)
          const expired = yield* Effect.flip(
            publishToEnd(ctx.adapter, { account, post: textPost(options, ctx, `expired ${Date.now()}`) })
          )
          assert.strictEqual(reasonOf(expired), "AuthExpired")
          const refreshed = yield* refreshOf(ctx.adapter)(Option.getOrThrow(tokens.refreshToken), { server: account.server })
          const again = yield* publishToEnd(ctx.adapter, {
            account: { ...account, accessToken: refreshed.accessToken },
            post: textPost(options, ctx, `refreshed ${Date.now()}`)
          })
          assert.isString(again.id)
        }))

      it.effect("is rejected for #sandbox-fail with the network's reason", () =>
        Effect.gen(function*() {
          const ctx = yield* context
          const { account } = yield* connect(ctx)
          const error = yield* Effect.flip(
            publishToEnd(ctx.adapter, { account, post: textPost(options, ctx, `no #sandbox-fail ${Date.now()}`) })
          )
          assert.strictEqual(reasonOf(error), "Rejected")
          assert.isAbove(error.reason.message.length, 5)
          if (options.refusalInWords !== false) assert.include(error.reason.message, "contains #sandbox-fail.")
        }))

      it.effect("is refused the first time for #sandbox-fail-once, then accepted when sent again", () =>
        Effect.gen(function*() {
          const ctx = yield* context
          const { account } = yield* connect(ctx)
          const input = { account, post: textPost(options, ctx, `second time lucky #sandbox-fail-once ${Date.now()}`) }
          const first = yield* Effect.flip(publishToEnd(ctx.adapter, input))
          assert.strictEqual(reasonOf(first), "Rejected")
          if (options.refusalInWords !== false) assert.include(first.reason.message, "#sandbox-fail-once")
          const again = yield* publishToEnd(ctx.adapter, input)
          assert.isString(again.id)
        }))

      it.effect("fails once with a transient error for #sandbox-flaky, then succeeds", () =>
        Effect.gen(function*() {
          const ctx = yield* context
          const { account } = yield* connect(ctx)
          const input = { account, post: textPost(options, ctx, `wobbly #sandbox-flaky ${Date.now()}`) }
          const first = yield* Effect.flip(publishToEnd(ctx.adapter, input))
          assert.isTrue(first.retryable, `expected a retryable error, got ${first.reason._tag}`)
          const second = yield* publishToEnd(ctx.adapter, input)
          assert.isString(second.id)
        }))

      it.effect("is rate-limited once for #sandbox-rate-limit with the network's retry time, then succeeds", () =>
        Effect.gen(function*() {
          const ctx = yield* context
          const { account } = yield* connect(ctx)
          const input = { account, post: textPost(options, ctx, `slow down #sandbox-rate-limit ${Date.now()}`) }
          const first = yield* Effect.flip(publishToEnd(ctx.adapter, input))
          assert.strictEqual(reasonOf(first), "RateLimited", `expected RateLimited, got ${reasonOf(first)}: ${first.message}`)
          assert.isTrue(first.retryable)
          assert.isAbove(first.retryAfterMs ?? 0, 0, "a rate limit must say when to try again")
          const again = yield* publishToEnd(ctx.adapter, input)
          assert.isString(again.id)
        }))

      // The limits the adapter declares are the network's: what they allow the simulator takes, and one more
      // it refuses, so an adapter whose limit is off in either direction fails here rather than in use.
      it.effect("text at the declared limit is published, and one over is refused by the network", () =>
        Effect.gen(function*() {
          const ctx = yield* context
          const { account } = yield* connect(ctx)
          const form = ctx.adapter.limits.forms.post
          const base = textPost(options, ctx, "")
          const cases: Array<{ readonly field: string; readonly max: number; readonly make: (filled: string) => PostVersion }> = []
          if (form.text.ignored !== true) cases.push({ field: "text", max: form.text.max, make: (text) => post({ ...base, text }) })
          if (form.title !== undefined && base.title !== null) {
            const text = `title limit ${Date.now()}`
            cases.push({ field: "title", max: form.title.max, make: (title) => post({ ...base, text, title }) })
          }
          for (const { field, make, max } of cases) {
            const counter = field === "text" ? form.text.counter : "characters"
            const filled = (length: number) => {
              const head = `${field} ${Date.now()} `
              return head + "a".repeat(length - count(head, counter))
            }
            const atLimit = filled(max)
            assert.strictEqual(count(atLimit, counter), max)
            const published = yield* Effect.result(publishToEnd(ctx.adapter, { account, post: make(atLimit) }))
            assert.strictEqual(published._tag, "Success", `${field} of ${max}, the declared limit, was refused`)
            const over = yield* Effect.result(publishToEnd(ctx.adapter, { account, post: make(filled(max + 1)) }))
            assert.strictEqual(over._tag, "Failure", `${field} of ${max + 1}, over the declared limit, was published`)
            if (over._tag === "Failure") assert.strictEqual(reasonOf(over.failure), "Rejected")
          }
        }))

      it.effect("sends the network's own options, and the network keeps them", (test) =>
        Effect.gen(function*() {
          const ctx = yield* context
          const declared = ctx.adapter.options
          if (declared === undefined) return test.skip(`skipped: ${ctx.adapter.network} declares no options`)
          const samples = options.optionSamples ?? []
          const defaults = declared.defaults as Readonly<Record<string, unknown>>
          for (const field of Object.keys(declared.fields)) {
            const covered = samples.some((sample) =>
              Object.hasOwn(sample.values, field) && JSON.stringify(sample.values[field]) !== JSON.stringify(defaults[field])
            )
            assert.isTrue(covered, `no optionSamples entry sets ${field} to other than its default`)
          }
          const { account } = yield* connect(ctx)
          const suiteMedia = (id: string) => {
            const found = /^med_(photo|video)(\d+)$/.exec(id)
            if (found === null) return undefined
            return found[1] === "photo" ? media.photo(ctx, Number(found[2])) : media.video(ctx, Number(found[2]))
          }
          for (const [index, sample] of samples.entries()) {
            const parts: VersionParts = declared.version({ ...defaults, ...sample.values }, suiteMedia)
            const text = `options ${index + 1} ${Date.now()}`
            const published = yield* publishToEnd(ctx.adapter, { account, post: post({ ...textPost(options, ctx, text), ...parts }) })
            const stored = ctx.simulator.state.posts.get(published.id) ??
              [...ctx.simulator.state.posts.values()].find((entry) => entry.text.includes(text))
            assert.isDefined(stored, `the simulator has no post for options sample ${index + 1}`)
            sample.expect(stored!, ctx)
          }
        }))

      it.effect("asks for a reconnect when the grant is revoked (#sandbox-revoke)", () =>
        Effect.gen(function*() {
          const ctx = yield* context
          const { account, tokens } = yield* connect(ctx)
          const error = yield* Effect.flip(
            publishToEnd(ctx.adapter, { account, post: textPost(options, ctx, `bye #sandbox-revoke ${Date.now()}`) })
          )
          assert.include(["NeedsReconnect", "AuthExpired"], reasonOf(error))
          if (ctx.adapter.capabilities.refresh) {
            const refused = yield* Effect.flip(refreshOf(ctx.adapter)(Option.getOrThrow(tokens.refreshToken), { server: account.server }))
            assert.strictEqual(reasonOf(refused), "NeedsReconnect")
          }
        }))

      it.effect("publishes photos", (test) =>
        Effect.gen(function*() {
          const ctx = yield* context
          yield* claimed(test, ctx.adapter, "photos")
          const { account } = yield* connect(ctx)
          const photos = [media.photo(ctx, 1), media.photo(ctx, 2)]
          const max = ctx.adapter.limits.forms.post.media.maxPhotos
          const text = `photos ${Date.now()}`
          const published = yield* publishToEnd(ctx.adapter, {
            account,
            post: post({ text, media: photos.slice(0, Math.max(1, Math.min(max, 2))) })
          })
          const stored = ctx.simulator.state.posts.get(published.id) ??
            [...ctx.simulator.state.posts.values()].find((entry) => entry.text === text)
          assert.isDefined(stored)
          assert.isAbove(stored!.media.length, 0)
        }))

      it.effect("publishes a video", (test) =>
        Effect.gen(function*() {
          const ctx = yield* context
          yield* claimed(test, ctx.adapter, "videos")
          const { account } = yield* connect(ctx)
          const text = `video ${Date.now()}`
          const published = yield* publishToEnd(ctx.adapter, {
            account,
            post: post({ ...options.textPost?.(ctx), text, media: [media.video(ctx, 1)] })
          })
          assert.isString(published.id)
        }))

      it.effect("reconciles a post whose answer was lost, and finds nothing for one never made", (test) =>
        Effect.gen(function*() {
          const ctx = yield* context
          yield* claimed(test, ctx.adapter, "reconcile")
          const { account } = yield* connect(ctx)
          const input = { account, post: textPost(options, ctx, `lost answer ${Date.now()}`) }
          const published = yield* publishToEnd(ctx.adapter, input)
          const found = yield* ctx.adapter.reconcile!(input)
          assert.strictEqual(Option.getOrThrow(found).id, published.id)
          const never = yield* ctx.adapter.reconcile!({
            account,
            post: textPost(options, ctx, `never sent ${Date.now()}`)
          })
          assert.isTrue(Option.isNone(never))
          if (!ctx.adapter.capabilities.photos) return
          // A post of media alone cannot be told from another by its text: reconcile must never answer the
          // account's earlier such post for one never made (the new post would then never go out).
          yield* publishToEnd(ctx.adapter, { account, post: post({ media: [media.photo(ctx, 1)] }) })
          const guessed = yield* Effect.result(ctx.adapter.reconcile!({ account, post: post({ media: [media.photo(ctx, 2)] }) }))
          if (guessed._tag === "Success") assert.isTrue(Option.isNone(guessed.success), "answered another post of media alone")
          else assert.strictEqual(reasonOf(guessed.failure), "OutcomeUnknown")
        }))

      // Every step of every form: Herald stops right after the step's network call, before its answer is
      // recorded, and is taken over as the engine takes over a crashed target. Nothing is made twice, and
      // the target ends published with the post's own id and link, or (where the network cannot be asked)
      // with its outcome unknown.
      it.effect("a crash after any network call of publishing is taken over without posting twice", () =>
        Effect.flatMap(context, (ctx) => strikeEveryCall(options, ctx, "cut")), { timeout: 300_000 })

      // Every step of every form again, Herald running on: the network acts on the call but its answer is lost
      // in transit (the connection drops), and the adapter goes on with the error it makes of that, as the
      // engine would. The network ends up holding the post once, with its thread and first comment once each.
      it.effect("an answer lost in transit after any network call of publishing posts nothing twice", () =>
        Effect.flatMap(context, (ctx) => strikeEveryCall(options, ctx, "lose")), { timeout: 300_000 })

      // A first comment the network fails once in passing (`#sandbox-flaky`) is made on the engine's next try,
      // once, and the post is not made again: the comment is never dropped for a passing fault.
      it.effect("a first comment that fails in passing is made on the next try, once, and the post only once", (test) =>
        Effect.gen(function*() {
          const ctx = yield* context
          yield* claimed(test, ctx.adapter, "firstComment")
          const { account } = yield* connect(ctx)
          const form: CutOff.Form = {
            name: "flaky first comment",
            make: (text) => post({ ...textPost(options, ctx, text), firstComment: `${text} (first comment #sandbox-flaky)` })
          }
          // Nothing is struck: the run follows the engine's rules through the flaky comment alone.
          const run = yield* CutOff.checkStruckAt(ctx, account, form, 0, "lose")
          assert.strictEqual(run.outcome._tag, "Published")
        }))

      options.extra?.(it, context)
    }
  )
