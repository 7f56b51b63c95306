import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import * as NodeServer from "./src/internal/nodeServer.ts"
class G extends HttpApiGroup.make("g").add(HttpApiEndpoint.get("list", "/api/v1/accounts", { success: Schema.Struct({ data: Schema.Array(Schema.String) }) })) {}
class A extends HttpApi.make("a").add(G) {}
const H = HttpApiBuilder.group(A, "g", (h) => h.handle("list", () => Effect.succeed({ data: [] })))
const raw = HttpRouter.add("GET", "/api/v1/accounts", Effect.succeed(HttpServerResponse.jsonUnsafe({ data: [] })))
const app = process.argv[2] === "raw" ? raw : HttpApiBuilder.layer(A).pipe(Layer.provide(H))
Layer.launch(HttpRouter.serve(app, { disableLogger: true }).pipe(Layer.provide(NodeHttpServer.layer(NodeServer.make, { port: 3778, host: "127.0.0.1" })))).pipe(NodeRuntime.runMain)
