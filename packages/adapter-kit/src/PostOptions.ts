import type { Schema } from "effect"
import { Bounded } from "@herald/domain"
import type { MediaItem } from "./PostVersion.ts"

/**
 * A network's own parts of a post, declared by its adapter: the fields a client sets, what the full post
 * shows, the rules the fields' schemas cannot state, and how they shape the `PostVersion` the network
 * receives. The core stores one options document per post (keyed by network) and never names a field;
 * the composition root assembles the request schemas, the OpenAPI document and the MCP tool schemas from
 * the installed adapters' declarations.
 */

/** Where a network's option fields sit in a post request and in the full post. */
export type Placement =
  /**
   * Each field is a top-level field of the post. Only for the fields the API reference names
   * (`xThread`, `instagramFormat`, `tiktok`, `youtubeTitle`, `youtubeThumbnail`); a new network uses
   * `platformOptions`, so two adapters can never claim the same top-level name.
   */
  | "top"
  /** The fields form one object under `platformOptions.<network>`. */
  | "platformOptions"

/** The parts of a `PostVersion` that a network's options decide; what is left out keeps its default. */
export interface VersionParts {
  /** Follow-up posts after the first (default none). */
  readonly thread?: ReadonlyArray<string>
  /** The form of post, as the limits' `forms` name it (default `post`). */
  readonly format?: string
  readonly title?: string | null
  readonly thumbnail?: MediaItem | null
  /** What `publish` reads of the options (default `{}`). */
  readonly settings?: Readonly<Record<string, unknown>>
}

/** A rule the options break; `field` is the path inside the options (`tiktok.privacy`, `thread.2`). */
export interface OptionProblem {
  readonly field: string
  readonly message: string
}

/** The version parts a violation of the limits can be about, and the option field each comes from. */
export type VersionField = "thread" | "title" | "thumbnail" | "format"

export interface PostOptions<Fields extends Schema.Struct.Fields = Schema.Struct.Fields> {
  readonly placement: Placement
  /**
   * The fields a create or a patch may send, each optional (a patch changes only what it sends). Give
   * each a description: it is what the OpenAPI document and the MCP tools show. Every string and list in
   * them has a size cap, as every request field does (`Bounded` of `@herald/domain`, decision 0058): a text
   * the network is sent `Bounded.Text`, an id `Bounded.Id`, a thread `thread`.
   */
  readonly fields: Fields
  /** The values a post shows, and `version`/`check` receive, for fields the client did not set. */
  readonly defaults: Schema.Struct.Type<Fields>
  /**
   * Fields the full post shows but a client never sends, computed from the options (X's `xThreadMedia`).
   * Their schemas describe them in the full post.
   */
  readonly derived?: {
    readonly fields: Schema.Struct.Fields
    readonly show: (values: Schema.Struct.Type<Fields>) => Readonly<Record<string, unknown>>
  }
  /**
   * Fields whose value is a media id (YouTube's thumbnail) or null: the core checks each names media of
   * the workspace, like `mediaIds`, and hands `version` the item.
   */
  readonly mediaFields?: ReadonlyArray<keyof Fields & string>
  /** Rules across fields that the schemas cannot state (TikTok: branded content cannot be private). */
  readonly check?: (values: Schema.Struct.Type<Fields>) => ReadonlyArray<OptionProblem>
  /** How the options shape the post this network receives. */
  readonly version: (
    values: Schema.Struct.Type<Fields>,
    media: (id: string) => MediaItem | undefined
  ) => VersionParts
  /**
   * The option field a limit on the version's thread, title, thumbnail or format comes from, so a
   * violation points at the field the client sent (`xThread.2`, `platformOptions.bluesky.thread.2`).
   */
  readonly violationFields?: Partial<Record<VersionField, keyof Fields & string>>
}

/**
 * A thread's follow-ups as options declare them (`xThread`, Bluesky's and Mastodon's `thread`): texts under
 * the cap of any text a network is sent, at most `Bounded.counts.thread` of them; the network's own limits
 * (`thread.maxPosts`, `thread.maxLength`) are checked after, in the validator's words.
 */
export const thread = Bounded.array(Bounded.Text, Bounded.counts.thread, "posts")

/** Declares a network's options with their types checked against `fields`. */
export const make = <const Fields extends Schema.Struct.Fields>(options: PostOptions<Fields>): PostOptions<Fields> =>
  options
