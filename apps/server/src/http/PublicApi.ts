import { Effect, Layer } from "effect"
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
    // The Scalar page embeds its script; without its default fonts (fetched from fonts.scalar.com) it
    // reaches no other host, so it works offline and tells no one who reads it.
    HttpApiScalar.layer(served, { path: "/docs", scalar: { withDefaultFonts: false } })
  )
}))
