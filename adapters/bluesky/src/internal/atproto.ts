import type * as AtprotoApi from "@atproto/api"
import { Effect } from "effect"

/**
 * Bluesky's own client library, `@atproto/api` (https://github.com/bluesky-social/atproto/tree/main/packages/api):
 * its `RichText`, which finds a text's facets as the Bluesky app does, and `lexicons`, the official Lexicon
 * schemas its records are checked against. Importing it takes about 550 ms, so it is imported by the first
 * call that needs it, once, and never when the server starts.
 */
export type Library = typeof AtprotoApi

let loading: Promise<Library> | undefined

export const load: Effect.Effect<Library> = Effect.promise(() => (loading ??= import("@atproto/api")))
