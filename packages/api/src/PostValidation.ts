import { Schema } from "effect"
import { Limits } from "@herald/adapter-kit"

/**
 * The answer of `POST /api/v1/posts/validate`: what create would say of the same body, without saving
 * anything, and how each network the post goes to counts its text and receives it
 * ([decision 0041](../../../docs/decisions/0041-validate-endpoint.md)).
 */

export const Problem = Schema.Struct({
  field: Schema.String.annotate({
    description: "The request field the problem is about, as create's invalid answer names it in details (content, " +
      "platformContent.<network>, mediaIds.1, accountIds, scheduledAt, an option field)"
  }),
  message: Schema.String.annotate({ description: "The whole sentence, as create's invalid answer says it" }),
  network: Schema.optionalKey(Schema.String.annotate({ description: "The network whose rule it is, when one network's" }))
})

export const TextCount = Schema.Struct({
  used: Schema.Finite.annotate({ description: "The text's length as the network counts it" }),
  max: Schema.Finite.annotate({
    description: "The most the network takes; for accounts on servers with limits of their own, the smallest of theirs"
  }),
  counter: Limits.TextCounter
}).annotate({ description: "The length of the text this network is sent, by its own counter (see GET /api/v1/networks)" })

export const Version = Schema.Struct({
  text: Schema.String.annotate({ description: "The text: the network's platformContent override, or content" }),
  thread: Schema.Array(Schema.String).annotate({ description: "Follow-up posts after the first, in order" }),
  format: Schema.String.annotate({ description: "The form of post, as the network's limits name it (post, story, ...)" }),
  title: Schema.NullOr(Schema.String),
  thumbnail: Schema.NullOr(Schema.String).annotate({ description: "The thumbnail's media id, where the network takes one" }),
  firstComment: Schema.NullOr(Schema.String),
  media: Schema.Array(Schema.String).annotate({ description: "Media ids in the order they are sent" })
}).annotate({ description: "The post as this network's adapter would be sent it" })

export const NetworkCheck = Schema.Struct({
  network: Schema.String,
  accountIds: Schema.Array(Schema.String).annotate({ description: "The request's accounts on this network" }),
  text: TextCount,
  version: Version
})

export const Validation = Schema.Struct({
  valid: Schema.Boolean.annotate({ description: "true when create would accept this body" }),
  problems: Schema.Array(Problem).annotate({
    description: "Every problem create would answer for this body (its invalid answer's details), in the same order"
  }),
  networks: Schema.Array(NetworkCheck).annotate({
    description: "One entry per network the post goes to, in the order of its first account"
  })
}).annotate({ identifier: "PostValidation" })
