import { Effect, Schema } from "effect"
import { Envelope, NetworksApi } from "@herald/api"
import { define } from "./Tool.ts"

/** `list_networks`: the installed networks with their limits, capabilities and options, as `GET /api/v1/networks`. */
export const make = (networks: ReadonlyArray<NetworksApi.Network>) =>
  define({
    name: "list_networks",
    title: "List networks",
    description: "The networks this Herald publishes to, as data: per network its key (an account's platform), name, " +
      "limits (text length and how it is counted, bytes, media counts, kinds, sizes, aspect ratios and video lengths, " +
      "alt text, threads), capabilities (photos, videos, thread, firstComment; inbox: whether list_inbox reads its " +
      "comments and messages), how an account connects, and its own post options (where they go in create_post and " +
      "their JSON Schema). The same limits are checked by validate_post and create_post.",
    input: Schema.Struct({}),
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    output: Envelope.Data(Schema.Array(NetworksApi.Network)),
    readOnly: true,
    idempotent: true,
    run: () => Effect.succeed({ data: networks })
  })
