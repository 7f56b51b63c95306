import { Context, Effect, Layer, Scope } from "effect"
import { HttpApi, HttpApiBuilder, HttpApiGroup } from "effect/http-api"

// HttpApiBuilder.group keeps the context its layer is built in and merges it into the context of every
// request to the group (`Effect.provideContext` in each endpoint's effect). Built inside Herald's server
// that context is every service the process has, about 60, so each request copied two maps of that size
// and rebuilt its fiber's context cache: the largest single cost left on an authenticated request
// (decision 0050). Almost all of it is already in the request's own context, which is the server's.
//
// So a group is built here in two contexts: its `build` function (which takes the services its handlers
// use) runs in the full one, while the group itself is built, and keeps for its requests, only the
// services the server's context does not already hold with the same value: the middleware implementations
// provided to the handler layers (HttpApiBuilder reads them from the kept context) and whatever else was
// provided to the groups alone.

/**
 * The context the server's requests run in (the one `Http.routes` is built in), given to the handler
 * groups so each keeps only what it adds to it. Without it a group keeps its whole context, as
 * HttpApiBuilder.group does.
 */
export class RequestBase extends Context.Service<RequestBase, Context.Context<never>>()(
  "@herald/server/http/HandlerGroup/RequestBase"
) {}

/**
 * The services of `full` that `base` lacks or holds with another value, without the build's scope. Typed as all
 * of `full`'s: a request of the group runs in `base` (the server's context) with these laid over it, so it has
 * every service `full` had.
 */
const addedTo = <R>(base: Context.Context<never>, full: Context.Context<R | Scope.Scope>): Context.Context<Exclude<R, Scope.Scope>> => {
  const baseMap = base.mapUnsafe
  const kept = new Map<string, unknown>()
  for (const [key, value] of full.mapUnsafe) {
    if (key === Scope.Scope.key || key === RequestBase.key) continue
    if (!baseMap.has(key) || baseMap.get(key) !== value) kept.set(key, value)
  }
  return Context.makeUnsafe(kept)
}

/** HttpApiBuilder.group, keeping for the group's requests only what the request's own context lacks. */
export const group = <
  ApiId extends string,
  Groups extends HttpApiGroup.Constraint,
  const Identifier extends HttpApiGroup.Identifier<Groups>,
  Return
>(
  api: HttpApi.HttpApi<ApiId, Groups>,
  groupIdentifier: Identifier,
  build: (
    handlers: HttpApiBuilder.Handlers.FromGroup<HttpApiGroup.WithIdentifier<Groups, Identifier>>
  ) => HttpApiBuilder.Handlers.ValidateReturn<Return>
): Layer.Layer<
  HttpApiGroup.Service<ApiId, Identifier>,
  HttpApiBuilder.Handlers.Error<Return>,
  Exclude<HttpApiBuilder.Handlers.Context<Return>, Scope.Scope>
> =>
  Layer.effectContext(Effect.gen(function*() {
    const full = yield* Effect.context<Scope.Scope | HttpApiBuilder.Handlers.Context<Return>>()
    const base = Context.getOrUndefined(full, RequestBase)
    if (base === undefined) return yield* Layer.build(HttpApiBuilder.group(api, groupIdentifier, build))
    // `build` may be an effect needing the group's services: it runs in the full context (typed as `build`'s
    // own result, which HttpApiBuilder reads the handlers' types from).
    const buildInFull = (handlers: HttpApiBuilder.Handlers.FromGroup<HttpApiGroup.WithIdentifier<Groups, Identifier>>) => {
      const result = build(handlers)
      return (Effect.isEffect(result) ? Effect.provideContext(result, full) : result) as typeof result
    }
    const lean = addedTo(base, full)
    return yield* Layer.buildWithScope(HttpApiBuilder.group(api, groupIdentifier, buildInFull), Context.get(full, Scope.Scope)).pipe(
      // In place of the build's context, not merged into it: what the group keeps is only `lean`.
      Effect.updateContext((_: Context.Context<Scope.Scope>) => lean)
    )
  }))
