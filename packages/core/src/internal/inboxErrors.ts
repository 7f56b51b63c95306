import { Schema } from "effect"

export class InboxNotFound extends Schema.TaggedError<InboxNotFound>()("InboxNotFound", { what: Schema.String }) {
  override get message() {
    return `${this.what} does not exist`
  }
}

/** The network refused or failed the reply; the message says why in its words. */
export class InboxSendFailed extends Schema.TaggedError<InboxSendFailed>()("InboxSendFailed", { message: Schema.String }) {}
