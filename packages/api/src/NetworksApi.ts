import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { type Adapter, ApiVersion, Connect, Icon, Limits } from "@herald/adapter-kit"
import { Data } from "./Envelope.ts"
import * as NetworkOptionsSchema from "./NetworkOptions.ts"
import { NetworkOptions } from "./NetworkOptions.ts"

export class Capabilities extends Schema.Class<Capabilities>("Capabilities")({
  text: Schema.Boolean,
  photos: Schema.Boolean,
  videos: Schema.Boolean,
  thread: Schema.Boolean,
  firstComment: Schema.Boolean,
  refresh: Schema.Boolean,
  reconcile: Schema.Boolean,
  asyncProcessing: Schema.Boolean,
  /** Herald reads the account's comments and direct messages and answers them (the inbox). */
  inbox: Schema.Boolean
}) {}

/** A network this installation offers, with the limits the validator applies to posts for it. */
export class Network extends Schema.Class<Network>("Network")({
  key: Schema.String,
  name: Schema.String,
  /** Its mark: an SVG image as a `data:` URL, for an `<img>` beside the name; null when its adapter has none. */
  icon: Schema.NullOr(Schema.String).annotate({
    description: "The network's mark: an SVG image as a data: URL, to show beside its name; null when it has none"
  }),
  limits: Limits.Limits,
  /** The version of the network's API this server calls, the day the network stops serving it, and the source. */
  api: ApiVersion.ApiVersion,
  capabilities: Capabilities,
  /**
   * How an account of this network connects: `method` (`oauth`: `POST /api/v1/accounts/connect/:platform`
   * answers the consent page; `credentials`: `POST /api/v1/accounts/connect` signs in) and the `fields` to ask
   * the person for first, sent in that call's body. A client should say it cannot connect a method it does
   * not know.
   */
  connect: Connect.Connect,
  /** The network's own post options, from its adapter's declaration; null when it has none. */
  options: Schema.NullOr(NetworkOptions).annotate({
    description: "The network's own post options: where they sit in a post request and the JSON Schema of their fields; " +
      "null when it has none"
  })
}) {}

/**
 * The installed networks as `GET /api/v1/networks` and MCP's `list_networks` answer them; `connect` lets the
 * sandbox add its own field to a network's connect method.
 */
export const describe = (
  adapters: ReadonlyArray<Adapter.Adapter>,
  connect: (adapter: Adapter.Adapter) => Connect.Connect = (adapter) => adapter.connect
) =>
  adapters.map((adapter) =>
    new Network({
      key: adapter.network,
      name: adapter.name,
      icon: adapter.icon === undefined ? null : Icon.dataUrl(adapter.icon),
      limits: adapter.limits,
      api: adapter.api,
      capabilities: new Capabilities({ ...adapter.capabilities, inbox: adapter.inbox !== undefined }),
      connect: connect(adapter),
      options: NetworkOptionsSchema.fromDeclaration(adapter.options)
    })
  )

export class NetworksApi extends HttpApiGroup.make("networks").add(
  HttpApiEndpoint.get("list", "/networks", {
    success: Data(Schema.Array(Network))
  }).annotate(OpenApi.Summary, "The networks offered, with their content limits and capabilities as data")
).annotateMerge(OpenApi.annotations({
  title: "Networks",
  description: "The networks this server publishes to, with each one's limits and capabilities as data."
})) {}
