// The floor Effect's HTTP stack sets: the same answer as bench/api-overhead (`{"data":[]}`) from one HttpApi
// endpoint with no security, no database and no middleware, served by Herald's Node server. Not Herald: a
// measure of how much of Herald's cost per request is the framework's own. FLOOR_SERVICES=58 gives the
// endpoint a context as large as Herald's, which HttpApiBuilder merges into every request's.
// The bench package has no dependency of its own on the Node platform package: it is the server's copy.
import { Context, Effect, Layer, Schema } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { NodeHttpServer, NodeRuntime } from "../../apps/server/node_modules/@effect/platform-node/dist/index.js"
import * as NodeServer from "../../apps/server/src/internal/nodeServer.ts"

class Accounts extends HttpApiGroup.make("accounts").add(
  HttpApiEndpoint.get("list", "/api/v1/accounts", { success: Schema.Struct({ data: Schema.Array(Schema.String) }) })
) {}
class FloorApi extends HttpApi.make("floor").add(Accounts) {}

const handlers = HttpApiBuilder.group(FloorApi, "accounts", (group) => group.handle("list", () => Effect.succeed({ data: [] })))
// As many services as Herald's request context holds (58), when FLOOR_SERVICES says so.
let services = Context.empty()
for (let index = 0; index < Number(process.env.FLOOR_SERVICES ?? 0); index++) {
  services = Context.add(services, Context.Service<unknown>(`floor/${index}`), { index })
}
const server = NodeServer.make()
const serve = HttpRouter.serve(HttpApiBuilder.layer(FloorApi).pipe(Layer.provide(handlers), Layer.provide(Layer.succeedContext(services))), { disableListenLog: true, disableLogger: true }).pipe(
  Layer.provide(NodeHttpServer.layer(() => server, { port: 0, host: "127.0.0.1" }))
)
NodeRuntime.runMain(Layer.launch(Layer.tap(serve, () => Effect.sync(() => {
  const address = server.address()
  if (address !== null && typeof address === "object") process.stdout.write(`${JSON.stringify({ port: address.port })}\n`)
}))))
