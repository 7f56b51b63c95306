import { Effect, Layer, Scope } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApiBuilder, HttpApiScalar, OpenApi } from "effect/http-api"
import { HeraldApi } from "@herald/api"
import { PublicUrl } from "../PublicUrl.ts"

/**
 * The REST API, its OpenAPI document and the docs page. The document names this server by its public
 * address (`BASE_URL`), so the docs page's samples and clients generated from it reach the server they
 * came from ([decision 0015](../../../../docs/decisions/0015-the-contract-as-clients-read-it.md)).
 */
export const layer = (api: HeraldApi.HeraldApi, openapiPath: `/${string}`) => Layer.unwrap(Effect.gen(function*() {
  const publicUrl = yield* PublicUrl
  const served = api.annotate(OpenApi.Servers, [{ url: publicUrl, description: "This Herald server" }])
  return Layer.mergeAll(
    HttpApiBuilder.layer(served, { openapiPath }),
    docsPage(served)
  )
}))

/**
 * The Scalar page at `/docs`, made when it is first asked for. It embeds its script; without its default
 * fonts (fetched from fonts.scalar.com) it reaches no other host, so it works offline and tells no one who
 * reads it. That script is a 3 MB module whose text V8 keeps twice (the source and the string), so a
 * server nobody reads the docs of does not load it (docs/decisions/0055-idle-memory.md).
 */
const docsPage = (api: HeraldApi.HeraldApi) =>
  HttpRouter.use(Effect.fnUntraced(function*(router) {
    // Made in the server's scope, not in that of the request that first asks for it.
    const scope = yield* Scope.Scope
    const page = yield* Effect.cached(
      HttpRouter.toHttpEffect(HttpApiScalar.layer(api, { path: "/docs", scalar: { withDefaultFonts: false } })).pipe(
        Scope.provide(scope)
      )
    )
    yield* router.add("GET", "/docs", Effect.flatten(page))
  }))
