import { SimulatorRules } from "@herald/adapter-kit"
import { graphemes, type InstanceSettings, length, type StoredMedia } from "./internal/simulatorViews.ts"

/**
 * What a Mastodon instance refuses of the calls the adapter makes, as the simulator holds it: one rule per
 * line of Mastodon's documentation, each answered as Mastodon answers it (`{ "error": "..." }`, 422 for a
 * validation, https://docs.joinmastodon.org/entities/Error/). Read 2026-12-03 from the documentation's own
 * repository (github.com/mastodon/documentation at 2903485, Jul 2 2026; methods/statuses.md and
 * methods/media.md last changed May 1 2026, entities/Instance.md Jun 11 2026), and, for the words of each
 * refusal, Mastodon's source (app/services/post_status_service.rb `validate_media!`,
 * app/controllers/api/v1/statuses_controller.rb `set_thread`, app/validators/status_length_validator.rb,
 * app/models/media_attachment.rb, app/validators/poll_options_validator.rb; config/locales/en.yml for the
 * words), read through a search index of public code whose copies name no commit date (mastodon/mastodon is
 * too large to fetch whole); the poll refusals' words are the least sure of them.
 *
 * The limits are the instance's own (`/api/v2/instance`, `POST /_control/instance` in the sandbox), so each
 * rule reads them from what it is given. Not refused, as Mastodon does not refuse them: a `language` that is
 * not a code (Mastodon falls back to the account's), a `focus` outside -1..1 (stored as given).
 */

/** A rule with the HTTP status Mastodon answers it with. */
export interface Rule<in Input> extends SimulatorRules.Rule<Input> {
  readonly status: number
}

export interface Call<in Input> extends SimulatorRules.Call<Input> {
  readonly rules: ReadonlyArray<Rule<Input>>
}

const call = <Input>(name: string, rules: ReadonlyArray<Rule<Input>>): Call<Input> => SimulatorRules.call<Input, Rule<Input>>(name, rules)

/** The first rule the request breaks, with Mastodon's status and words; undefined when it keeps them all. */
export const refusal = <Input>(of: Call<Input>, input: Input): { readonly status: number; readonly message: string } | undefined => {
  const broken = SimulatorRules.refusal(of, input)
  if (broken === undefined) return undefined
  return { status: broken.rule.status, message: broken.message }
}

const instancePage = "https://docs.joinmastodon.org/entities/Instance/"

/**
 * The MIME types a stock instance takes, by the kind Mastodon makes of each (its `supported_mime_types`,
 * https://docs.joinmastodon.org/entities/Instance/#supported_mime_types; audio and video are the larger
 * formats, held to `video_size_limit` and attached alone).
 */
export const mimeTypes = {
  image: ["image/jpeg", "image/png", "image/gif", "image/heic", "image/heif", "image/webp", "image/avif"],
  video: ["video/webm", "video/mp4", "video/quicktime", "video/ogg"],
  audio: [
    "audio/wave", "audio/wav", "audio/x-wav", "audio/x-pn-wave", "audio/vnd.wave", "audio/ogg", "audio/vorbis", "audio/mpeg",
    "audio/mp3", "audio/webm", "audio/flac", "audio/aac", "audio/m4a", "audio/x-m4a", "audio/mp4", "audio/3gpp", "video/x-ms-asf"
  ]
} as const satisfies Record<StoredMedia["kind"], ReadonlyArray<string>>

export const kindOf = (mimeType: string): StoredMedia["kind"] | undefined =>
  (Object.keys(mimeTypes) as ReadonlyArray<StoredMedia["kind"]>).find((kind) => (mimeTypes[kind] as ReadonlyArray<string>).includes(mimeType))

/** A stock instance's poll limits (https://docs.joinmastodon.org/entities/Instance/#polls). */
export const polls = { maxOptions: 4, maxCharactersPerOption: 50, minExpiration: 300, maxExpiration: 2_629_746 } as const

/** What the simulator reads of a `POST /api/v2/media`. */
export interface Upload {
  readonly file: { readonly type: string; readonly size: number } | undefined
  readonly description: string | undefined
  readonly instance: InstanceSettings
}

const fileTooLarge = (upload: Upload, kind: "image" | "larger", most: number) => {
  const found = upload.file === undefined ? undefined : kindOf(upload.file.type)
  const matches = kind === "image" ? found === "image" : found === "video" || found === "audio"
  return matches && upload.file!.size > most ? `Validation failed: File file size must be less than ${most} Bytes` : undefined
}

export const upload = call<Upload>("POST /api/v2/media", [
  {
    rule: "a file (`file`), not empty",
    source: "https://docs.joinmastodon.org/methods/media/#v2",
    status: 422,
    check: (input) => input.file === undefined || input.file.size === 0 ? "Validation failed: File can't be blank" : undefined
  },
  {
    rule: "a file of a MIME type the instance supports (`configuration.media_attachments.supported_mime_types`)",
    source: `${instancePage}#supported_mime_types`,
    status: 422,
    check: (input) => kindOf(input.file!.type) === undefined ? "Validation failed: File content type is invalid" : undefined
  },
  {
    rule: "an image of at most the instance's `image_size_limit` bytes (16 MiB on a stock instance)",
    source: `${instancePage}#image_size_limit`,
    status: 422,
    check: (input) => fileTooLarge(input, "image", input.instance.imageBytes)
  },
  {
    rule: "a video or audio of at most the instance's `video_size_limit` bytes (99 MiB on a stock instance)",
    source: `${instancePage}#video_size_limit`,
    status: 422,
    check: (input) => fileTooLarge(input, "larger", input.instance.videoBytes)
  },
  {
    rule: "a `description` of at most the instance's `description_limit` characters (1,500 on a stock instance)",
    source: `${instancePage}#description_limit`,
    status: 422,
    check: (input) =>
      input.description !== undefined && Array.from(input.description).length > input.instance.altCharacters
        ? `Validation failed: Description is too long (maximum is ${input.instance.altCharacters} characters)`
        : undefined
  }
])

/** A poll as `POST /api/v1/statuses` takes it (`poll[options][]`, `poll[expires_in]`). */
export interface Poll {
  readonly options: ReadonlyArray<string> | undefined
  readonly expiresIn: number | undefined
}

/** What the simulator reads of a `POST /api/v1/statuses`. */
export interface Status {
  readonly text: string
  readonly spoilerText: string
  readonly visibility: string
  readonly mediaIds: ReadonlyArray<string>
  /** Each of `mediaIds` as the account's unattached uploads hold it; undefined where there is none. */
  readonly media: ReadonlyArray<StoredMedia | undefined>
  readonly poll: Poll | undefined
  /** Whether `in_reply_to_id` names a status the account can see; undefined when there is none. */
  readonly replyFound: boolean | undefined
  readonly instance: InstanceSettings
}

const createPage = "https://docs.joinmastodon.org/methods/statuses/#create"
const visibilities: ReadonlyArray<string> = ["public", "unlisted", "private", "direct"]

const pollOf = (input: Status, check: (poll: Poll) => string | undefined) => input.poll === undefined ? undefined : check(input.poll)

export const status = call<Status>("POST /api/v1/statuses", [
  {
    rule: "an `in_reply_to_id` naming a status the account can see (404)",
    source: createPage,
    status: 404,
    check: (input) => input.replyFound === false ? "The post you are trying to reply to does not appear to exist." : undefined
  },
  {
    rule: "at most the instance's `max_media_attachments` media (4 on a stock instance)",
    source: `${instancePage}#max_media_attachments`,
    status: 422,
    check: (input) => input.mediaIds.length > input.instance.maxMedia ? `Cannot attach more than ${input.instance.maxMedia} files` : undefined
  },
  {
    rule: "`media_ids` or a `poll`, not both",
    source: createPage,
    status: 422,
    check: (input) =>
      input.mediaIds.length > 0 && input.poll !== undefined ? `Cannot attach more than ${input.instance.maxMedia} files` : undefined
  },
  {
    rule: "`media_ids` naming the account's own uploads, none attached to a status yet",
    source: createPage,
    status: 422,
    check: (input) => {
      const missing = input.mediaIds.filter((_, index) => input.media[index] === undefined)
      return missing.length > 0 ? `Media ${missing.join(", ")} not found or already attached to another post` : undefined
    }
  },
  {
    rule: "a video or audio alone: no other media with it",
    source: "https://docs.joinmastodon.org/user/posting/#media",
    status: 422,
    check: (input) =>
      input.media.length > 1 && input.media.some((item) => item?.kind !== "image")
        ? "Cannot attach a video to a post that already contains images"
        : undefined
  },
  {
    rule: "media the instance has finished processing (`GET /api/v1/media/:id` answers 200)",
    source: "https://docs.joinmastodon.org/methods/media/#get",
    status: 422,
    check: (input) =>
      input.media.some((item) => item !== undefined && !item.ready)
        ? "Cannot attach files that have not finished processing. Try again in a moment!"
        : undefined
  },
  {
    rule: "a `status` text, unless `media_ids` or a content warning (`spoiler_text`, which becomes the text) is given",
    source: createPage,
    status: 422,
    check: (input) =>
      input.text.trim() === "" && input.mediaIds.length === 0 && input.spoilerText.trim() === "" ? "Validation failed: Text can't be blank" : undefined
  },
  {
    rule: "text and content warning together of at most the instance's `max_characters` (500 on a stock instance; " +
      "each link 23, a remote mention as @user)",
    source: `${instancePage}#max_characters`,
    status: 422,
    check: (input) =>
      length(input.text) + graphemes(input.spoilerText) > input.instance.maxCharacters
        ? `Validation failed: Text character limit of ${input.instance.maxCharacters} exceeded`
        : undefined
  },
  {
    rule: "a `visibility` of `public`, `unlisted`, `private` or `direct`",
    source: createPage,
    status: 422,
    check: (input) => visibilities.includes(input.visibility) ? undefined : "Validation failed: Visibility is not included in the list"
  },
  {
    rule: "a poll with both `poll[options][]` and `poll[expires_in]`",
    source: createPage,
    status: 422,
    check: (input) =>
      pollOf(input, (poll) =>
        poll.options === undefined ? "Validation failed: Poll options can't be blank"
        : poll.expiresIn === undefined ? "Validation failed: Poll expires at can't be blank"
        : undefined)
  },
  {
    rule: `a poll of 2 to the instance's \`max_options\` options (${polls.maxOptions} on a stock instance)`,
    source: `${instancePage}#max_options`,
    status: 422,
    check: (input) =>
      pollOf(input, (poll) =>
        poll.options === undefined ? undefined
        : poll.options.length < 2 ? "Validation failed: Poll options must have more than one item"
        : poll.options.length > polls.maxOptions ? `Validation failed: Poll options can't contain more than ${polls.maxOptions} items`
        : undefined)
  },
  {
    rule: `poll options of at most \`max_characters_per_option\` characters each (${polls.maxCharactersPerOption} on a stock instance)`,
    source: `${instancePage}#max_characters_per_option`,
    status: 422,
    check: (input) =>
      pollOf(input, (poll) =>
        (poll.options ?? []).some((option) => graphemes(option) > polls.maxCharactersPerOption)
          ? `Validation failed: Poll options cannot be longer than ${polls.maxCharactersPerOption} characters each`
          : undefined)
  },
  {
    rule: `a poll open at least \`min_expiration\` seconds (${polls.minExpiration} on a stock instance)`,
    source: `${instancePage}#min_expiration`,
    status: 422,
    check: (input) =>
      pollOf(input, (poll) =>
        poll.expiresIn !== undefined && poll.expiresIn < polls.minExpiration ? "Validation failed: Poll expires at is too soon" : undefined)
  },
  {
    rule: `a poll open at most \`max_expiration\` seconds (${polls.maxExpiration.toLocaleString("en-US")} on a stock instance)`,
    source: `${instancePage}#max_expiration`,
    status: 422,
    check: (input) =>
      pollOf(input, (poll) =>
        poll.expiresIn !== undefined && poll.expiresIn > polls.maxExpiration ? "Validation failed: Poll expires at is too far into the future" : undefined)
  }
])

export const rules: SimulatorRules.Table = [upload, status]
