import { Effect, Schema, Stream } from "effect"
import { LimitsTable } from "@herald/adapter-kit"
import { Envelope, ListQuery, MediaApi, type NetworksApi, PostsApi, PostValidation, QueueApi } from "@herald/api"
import { Accounts, Media, Networks, Posts, PostShape, Queue } from "@herald/core"
import { Account, Bounded, Post, PostStatus } from "@herald/domain"
import * as InboxTools from "./InboxTools.ts"
import * as MediaTools from "./MediaTools.ts"
import * as NetworkTools from "./NetworkTools.ts"
import * as PostFlowTools from "./PostFlowTools.ts"
import { type Caller, define, domainFailure, domainFailures, fail, postId, type Tool, type ToolFailure } from "./Tool.ts"

// What a tool is, for the server and the app's route, which know the tools by this module.
export { type Caller, type Tool, ToolFailure } from "./Tool.ts"

/**
 * The MCP tools: the reference's seven ("MCP server"; product.md, "MCP") and the rest of the API (issue 19):
 * get_queue, validate_post, list_networks, the post's way through review and retry (PostFlowTools), the inbox
 * (InboxTools) and media from a URL (MediaTools). Each calls the same core service as its REST twin and answers
 * the same body (`{ data }`, or `{ data, nextCursor }` for a page), so the two cannot drift; a failure carries
 * the REST error's `code`, `message` and `details`.
 */

const timing = "Timing: send exactly one of scheduledAt (an ISO 8601 time with a zone, not more than 60 s in the past), " +
  "publishNow: true, queued: true, or draft: true."

// How the queue works, said once for both tools that write posts (docs/queue.md).
const howTheQueueWorks = "The queue: queued: true schedules the post at the earliest slot of the weekly posting schedule (the " +
  "workspace's, or an account's own) that is free for every one of its accounts; a slot holds one queued post per " +
  "account. The answer has queued: true and that slot as scheduledAt, and the post keeps it through other changes. " +
  "Sending scheduledAt later pins the post at that time (queued becomes false). A queue with no slots is refused " +
  "as invalid: set the schedule with the REST API (PUT /api/v1/queue/schedule) or in the console. get_queue lists " +
  "the upcoming slots and the post in each."

const ListPostsInput = Schema.Struct({
  from: Schema.optionalKey(Bounded.Word.annotate({
    description: "Earliest post time, inclusive (ISO 8601 with a zone). A post's time is scheduledAt, or createdAt when unscheduled"
  })),
  to: Schema.optionalKey(Bounded.Word.annotate({ description: "Latest post time, exclusive (ISO 8601 with a zone)" })),
  status: Schema.optionalKey(Bounded.Line.annotate({
    description: `One status or a comma list: ${Post.PostStatus.literals.join(", ")}`
  })),
  // The range is in the schema, not only in prose, so a client that checks arguments against it can.
  limit: Schema.optionalKey(
    Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 })).annotate({
      description: "Posts per page, 1 to 100 (20 by default)"
    })
  ),
  cursor: Schema.optionalKey(Bounded.Line.annotate({ description: "nextCursor of the previous page, for the next one" }))
})

const GetQueueInput = Schema.Struct({
  accountId: Schema.optionalKey(Bounded.Id.annotate({
    description: "Only this account's queue (an id from list_accounts); every connected account's when absent"
  })),
  from: Schema.optionalKey(Bounded.Word.annotate({
    description: "Slots at or after this time (ISO 8601 with a zone); now when absent"
  })),
  limit: Schema.optionalKey(
    Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 })).annotate({
      description: "Slots per page, 1 to 100 (20 by default); each account's slot at an instant is one"
    })
  ),
  cursor: Schema.optionalKey(Bounded.Line.annotate({ description: "nextCursor of the previous page, for the next one" }))
})

const imageTypes = ["image/jpeg", "image/png", "image/webp"] as const
const maxImageBytes = Media.defaultLimits.image
// The base64 of the largest image, and room for the line breaks an encoder may put in every 76 characters.
const maxImageData = Math.ceil(Math.ceil(maxImageBytes / 3) * 4 * 1.05)

const UploadImageInput = Schema.Struct({
  data: Bounded.string(maxImageData).annotate({
    description: `The image file, base64-encoded (standard alphabet; at most ${maxImageBytes / (1024 * 1024)} MB once decoded)`
  }),
  mimeType: Schema.Literals(imageTypes).annotate({ description: "The image's type; the bytes must match it" }),
  alt: Schema.optionalKey(Bounded.Note.annotate({
    description: `Alt text: what the image shows, for people who cannot see it (at most ${MediaApi.maxAltLength} characters); ` +
      "sent to the networks that take alt text, each held to its own length (listed in create_post's limits)"
  }))
})

const base64 = /^[A-Za-z0-9+/]*={0,2}$/

/** Only draft and scheduled posts change or go through MCP (product.md, "Posts"): an assistant never touches the rest. */
const mcpRestriction = (tool: string): Posts.Restriction => ({ statuses: [PostStatus.draft, PostStatus.scheduled], caller: `the ${tool} tool` })

/** What each installed network accepts, for the descriptions of the tools that write posts. */
const networkLimits = (adapters: ReadonlyArray<{ readonly network: string; readonly name: string; readonly limits: Parameters<typeof LimitsTable.summary>[0] }>) =>
  adapters.map((adapter) => `- ${adapter.network} (${adapter.name}): ${LimitsTable.summary(adapter.limits).join(" | ")}`).join("\n")

export interface Options {
  /** The networks offered, as `GET /api/v1/networks` answers them (the app knows the sandbox's additions). */
  readonly networks: ReadonlyArray<NetworksApi.Network>
}

/** The tools, bound to this process's services and installed networks. */
export const make = (options: Options) => Effect.gen(function*() {
  const posts = yield* Posts.Posts
  const accounts = yield* Accounts.Accounts
  const media = yield* Media.Media
  const networks = yield* Networks.Networks
  const queue = yield* Queue.Queue
  const limits = networkLimits(networks.all)
  // The post's wire forms as the installed networks shape them, as for REST.
  const shape = PostShape.make(networks.all)
  const schemas = PostsApi.schemas(shape)
  const UpdateInput = Schema.Struct({ id: postId, ...schemas.updateFields })

  const postFailures = <A, R>(
    effect: Effect.Effect<A, Posts.PostsError<Posts.PostInvalid | Posts.PostNotFound | Posts.PostConflict>, R>
  ): Effect.Effect<A, ToolFailure, R> => domainFailures(effect)

  return [
    NetworkTools.make(options.networks),
    define({
      name: "list_accounts",
      title: "List accounts",
      description: "The workspace's social accounts with their ids (for accountIds), network, username and status " +
        "(connected, needs_reconnect or disconnected). Posts may target connected accounts.",
      input: Schema.Struct({}),
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
      output: Envelope.Data(Schema.Array(Account.Account)),
      readOnly: true,
      idempotent: true,
      run: (_, caller) => Effect.map(Effect.orDie(accounts.list(caller.workspaceId)), (data) => ({ data }))
    }),
    define({
      name: "list_posts",
      title: "List posts",
      description: "Posts of the workspace by time (scheduledAt, or createdAt when unscheduled), then id, a page at a " +
        "time; filter by time range and status. Pass nextCursor back as cursor for the next page.",
      input: ListPostsInput,
      output: Envelope.Page(schemas.post),
      readOnly: true,
      idempotent: true,
      run: (input, caller) =>
        Effect.gen(function*() {
          const { limit, ...rest } = input
          const parsed = ListQuery.parseListQuery({ ...rest, ...(limit === undefined ? {} : { limit: String(limit) }) }, Post.PostStatus.literals)
          if ("problems" in parsed) {
            return yield* fail("invalid", { message: parsed.problems.map((problem) => problem.message).join("; ") }, parsed.problems)
          }
          const page = yield* Effect.orDie(posts.list(caller.workspaceId, parsed))
          return { data: page.posts, nextCursor: page.next._tag === "Some" ? ListQuery.encodeCursor(page.next.value) : null }
        })
    }),
    define({
      name: "get_post",
      title: "Get a post",
      description: "One post with its status and, per target account, its status (pending, published, failed), the " +
        "link once published and the error when it failed.",
      input: Schema.Struct({ id: postId }),
      output: Envelope.Data(schemas.post),
      readOnly: true,
      idempotent: true,
      run: (input, caller) => postFailures(Effect.map(posts.get(caller.workspaceId, input.id), (data) => ({ data })))
    }),
    define({
      name: "create_post",
      title: "Create a post",
      description: "Creates a post for one or more accounts: a draft, scheduled for a time, added to the queue, or " +
        `published now. ${timing} ${howTheQueueWorks} ` +
        "Each network's limits are checked at once; a post over one is refused with a message naming the network, " +
        "the limit and the actual size. Images come from upload_image (their ids go in mediaIds).\n" +
        `Limits per network:\n${limits}`,
      input: schemas.create,
      output: Envelope.Data(schemas.post),
      run: (input, caller) => postFailures(Effect.map(posts.create(caller.workspaceId, input, caller.actor), (data) => ({ data })))
    }),
    define({
      name: "validate_post",
      title: "Check a post",
      description: "Checks a post as create_post would, without saving anything: takes create_post's arguments and " +
        "answers valid, every problem create_post would refuse it with (field, message, network), and per network " +
        "the post goes to the text's length as that network counts it (used, max, counter) and the version it would " +
        "be sent (text, thread, format, title, first comment, media ids). queued: true is checked without finding a " +
        "slot. Use it to fix a post before creating it; arguments that do not fit the schema are refused as invalid.\n" +
        `Limits per network:\n${limits}`,
      input: schemas.create,
      output: Envelope.Data(PostValidation.Validation),
      readOnly: true,
      idempotent: true,
      run: (input, caller) => Effect.map(Effect.orDie(posts.validate(caller.workspaceId, input)), (data) => ({ data }))
    }),
    define({
      name: "update_post",
      title: "Update a post",
      description: "Changes a draft or scheduled post: only the fields sent change, and the result is checked against " +
        "each network's limits again. draft: true takes a scheduled post back to draft (and out of the queue); draft: " +
        "false with scheduledAt schedules a draft; queued: true puts a draft or scheduled post in the queue; queued: " +
        "false takes a queued post out at the time it has. Posts going out or gone out cannot change. " +
        `${howTheQueueWorks}\nLimits per network:\n${limits}`,
      input: UpdateInput,
      output: Envelope.Data(schemas.post),
      idempotent: true,
      run: ({ id, ...flat }, caller) => {
        const { neutral, options } = shape.split(flat)
        const patch = { ...neutral, options } as Posts.UpdateInput
        return postFailures(
          Effect.map(posts.update(caller.workspaceId, id as string, patch, mcpRestriction("update_post"), caller.actor), (data) => ({ data }))
        )
      }
    }),
    define({
      name: "delete_post",
      title: "Delete a post",
      description: "Deletes a draft or scheduled post from Herald, so it never goes out. Posts already out (or going " +
        "out) are not touched; delete those on the network itself.",
      input: Schema.Struct({ id: postId }),
      output: Envelope.Data(PostsApi.Deleted),
      destructive: true,
      // A second call has no further effect (it answers not_found).
      idempotent: true,
      run: (input, caller) =>
        postFailures(Effect.as(
          posts.remove(caller.workspaceId, input.id, mcpRestriction("delete_post")),
          { data: new PostsApi.Deleted({ id: input.id, deleted: true }) }
        ))
    }),
    define({
      name: "get_queue",
      title: "Get the queue",
      description: "The posting queue's upcoming slots in time order (then by account), one per account and slot, " +
        "each with the queued post seated there or post: null for a free slot; from the weekly schedule of each " +
        "account (its own, or the workspace's). inSchedule: false marks a queued post whose time is no longer a slot " +
        "(the schedule changed since). Pass nextCursor back as cursor for the next page. Accounts without slots have " +
        "none listed: the schedule is set with the REST API (PUT /api/v1/queue/schedule) or in the console.",
      input: GetQueueInput,
      output: Envelope.Page(QueueApi.QueueSeat(schemas.post)),
      readOnly: true,
      idempotent: true,
      run: (input, caller) =>
        Effect.gen(function*() {
          const { limit, ...rest } = input
          const parsed = QueueApi.parseViewQuery({ ...rest, ...(limit === undefined ? {} : { limit: String(limit) }) })
          if ("problems" in parsed) {
            return yield* fail("invalid", { message: parsed.problems.map((problem) => problem.message).join("; ") }, parsed.problems)
          }
          const page = yield* domainFailures(queue.view(caller.workspaceId, parsed))
          return { data: page.seats, nextCursor: page.next === null ? null : QueueApi.encodeViewCursor(page.next) }
        })
    }),
    define({
      name: "upload_image",
      title: "Upload an image",
      description: "Stores an image (JPEG, PNG or WebP, base64-encoded) for use in posts; answers the media object, " +
        "whose id goes in create_post's mediaIds. Its width and height are read from the file and checked against " +
        "each network's limits when the post is made. Give alt text (alt) for people who cannot see the image. A photo " +
        "larger than a network's photo file size gets a smaller copy for it (listed in fitted), which that network is sent.",
      input: UploadImageInput,
      output: Envelope.Data(MediaApi.MediaObject),
      run: (input, caller) =>
        Effect.gen(function*() {
          const text = input.data.replace(/\s+/g, "")
          if (!base64.test(text) || text.length % 4 === 1) {
            return yield* fail("invalid", { message: "data is not base64 (the standard alphabet, A-Z a-z 0-9 + /)" })
          }
          // Refused before decoding: the decoded size is known from the length.
          if (Math.floor(text.length * 3 / 4) - (text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0) > maxImageBytes) {
            return yield* domainFailure(new Media.MediaTooLarge({ kind: "image", limit: maxImageBytes }))
          }
          const bytes = new Uint8Array(Buffer.from(text, "base64"))
          const stored = yield* media.upload({
            workspaceId: caller.workspaceId,
            contentType: input.mimeType,
            contentLength: bytes.byteLength,
            body: Stream.make(bytes),
            alt: input.alt
          }).pipe(
            Effect.catchTag("PlatformError", Effect.die),
            domainFailures
          )
          return { data: MediaApi.toMediaObject(caller.publicUrl, stored) }
        })
    }),
    yield* MediaTools.make,
    ...yield* PostFlowTools.make(schemas.post),
    ...yield* InboxTools.make
  ] satisfies ReadonlyArray<Tool>
})
