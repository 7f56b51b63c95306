import { Schema } from "effect"

// The media service's errors (re-exported by `Media.ts`), apart so the upload's internals can fail with them.

/** An upload or change refused; `field` names the request field at fault when one is (`alt`). */
export class MediaInvalid extends Schema.TaggedError<MediaInvalid>()("MediaInvalid", {
  message: Schema.String,
  field: Schema.optionalKey(Schema.String)
}) {}

export class MediaTooLarge extends Schema.TaggedError<MediaTooLarge>()("MediaTooLarge", {
  kind: Schema.Literals(["image", "video"]),
  limit: Schema.Number
}) {
  override get message() {
    const megabytes = Math.floor(this.limit / (1024 * 1024))
    return `${this.kind === "image" ? "Photos" : "Videos"} may be at most ${megabytes} MB (${this.limit} bytes)`
  }
}

export class MediaNotFound extends Schema.TaggedError<MediaNotFound>()("MediaNotFound", { mediaId: Schema.String }) {
  override get message() {
    return `Media ${this.mediaId} does not exist`
  }
}
