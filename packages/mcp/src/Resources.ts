import { Effect, Schema } from "effect"
import { Envelope, NetworksApi, QueueApi } from "@herald/api"
import { QueueSchedules } from "@herald/core"
import type { Caller } from "./Tool.ts"

/**
 * The MCP resources: what an assistant may read into its context before it writes, each the body the REST
 * API answers for the same thing, as JSON. The networks' rules as data (the tools' descriptions say them in
 * words), and the queue's weekly schedule with the workspace's time zone, to plan posts against.
 */

export interface Resource {
  readonly uri: string
  readonly name: string
  readonly title: string
  readonly description: string
  readonly mimeType: "application/json"
  /** The resource's body, as JSON text. */
  read(caller: Caller): Effect.Effect<string>
}

const json = <S extends Schema.Top & { readonly EncodingServices: never }>(schema: S) => {
  const encode = Schema.encodeEffect(Schema.fromJsonString(Schema.toCodecJson(schema)))
  return (body: S["Type"]) => Effect.orDie(encode(body))
}

/** The resources, given the networks' body as `GET /api/v1/networks` answers it (the app knows the installation). */
export const make = (networks: ReadonlyArray<NetworksApi.Network>) =>
  Effect.gen(function*() {
    const schedules = yield* QueueSchedules.QueueSchedules
    const networksBody = yield* json(Envelope.Data(Schema.Array(NetworksApi.Network)))({ data: networks })
    const scheduleBody = json(Envelope.Data(QueueApi.QueueScheduleView))
    const resources: ReadonlyArray<Resource> = [
      {
        uri: "herald://networks",
        name: "networks",
        title: "Networks and their limits",
        description: "The networks this Herald publishes to, as GET /api/v1/networks answers them: per network its " +
          "limits as data (text length and how it is counted, media counts, kinds, sizes, aspect ratios, video " +
          "lengths, threads, titles), what it can do (capabilities) and its own post options with their JSON Schema.",
        mimeType: "application/json",
        read: () => Effect.succeed(networksBody)
      },
      {
        uri: "herald://queue/schedule",
        name: "queue-schedule",
        title: "The queue's weekly schedule",
        description: "The workspace's weekly posting schedule, as GET /api/v1/queue/schedule answers it: the slots " +
          "(weekday and wall-clock time) and the workspace's time zone they are read in. A post created with " +
          "queued: true takes the earliest slot free for every one of its accounts; no slots, no queue.",
        mimeType: "application/json",
        read: (caller) =>
          schedules.workspace(caller.workspaceId).pipe(
            Effect.orDie,
            Effect.flatMap((view) => scheduleBody({ data: new QueueApi.QueueScheduleView(view) }))
          )
      }
    ]
    return resources
  })
