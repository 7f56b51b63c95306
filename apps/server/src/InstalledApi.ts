import { Effect, Redacted } from "effect"
import { FetchHttpClient } from "effect/http"
import { HeraldApi, PostsApi } from "@herald/api"
import { PostShape } from "@herald/core"
import * as Packages from "./Packages.ts"

/**
 * The API as this app serves it, made from the installed packages' adapters without a server: for the
 * typed client's generated types (packages/client/scripts/schema.ts), which must match what is served.
 * Making an adapter calls no network, so no client id or secret is needed.
 */
export const api = Effect.forEach(Packages.all, (entry) => entry.make(entry.realConfig("", Redacted.make("")))).pipe(
  Effect.map((adapters) => HeraldApi.make(PostsApi.schemas(PostShape.make(adapters)))),
  Effect.provide(FetchHttpClient.layer)
)
