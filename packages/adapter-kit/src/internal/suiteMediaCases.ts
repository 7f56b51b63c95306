import { assert } from "@effect/vitest"
import { Effect, Option } from "effect"
import * as CutOff from "./cutOff.ts"
import type { Context, Harness, Methods, Options } from "./suiteHarness.ts"
import { claimed, connect, media, post, publishToEnd, reasonOf, textPost } from "./suiteSteps.ts"

// The suite's cases of media and of what survives a fault: photos, a video, reconcile, and every network call
// of every form struck by a crash or a lost answer.

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

/** The cases of photos, a video, reconcile and the faults, in that order. */
export const mediaCases = (it: Methods, context: Effect.Effect<Context, never, Harness>, options: Options) => {
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

}
