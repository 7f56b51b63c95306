import { Schema } from "effect"
import { PostOptions } from "@herald/adapter-kit"
import { Bounded } from "@herald/domain"

/**
 * Mastodon's own post options, sent as `platformOptions.mastodon`, with what `POST /api/v1/statuses` takes
 * (https://docs.joinmastodon.org/methods/statuses/#create): who sees the status, its content warning, whether
 * its media are hidden behind one, its language, and follow-ups published as a chain of replies.
 */

export const visibilities = ["public", "unlisted", "private", "direct"] as const

export const options = PostOptions.make({
  placement: "platformOptions",
  fields: {
    visibility: Schema.Literals(visibilities).annotate({
      description: "Who sees the status: public (default), unlisted (not in public timelines), private (followers only) " +
        "or direct (only the accounts it mentions); the thread's replies and the first comment get the same"
    }),
    spoilerText: Schema.NullOr(Bounded.string(500)).annotate({
      description: "A content warning shown before the text (Mastodon's spoiler_text), on the status and each of its replies; null for none"
    }),
    sensitive: Schema.Boolean.annotate({
      description: "Hides the status's media behind a warning (always so when a content warning is set); default false"
    }),
    language: Schema.NullOr(Bounded.Word.check(Schema.isPattern(/^[a-z]{2}$/))).annotate({
      description: "The language of the text as an ISO 639-1 code (`en`, `de`); null lets the instance guess"
    }),
    thread: PostOptions.thread.annotate({
      description: "Follow-up statuses (text only) published as a chain of replies under the status, in order; [] when none"
    })
  },
  defaults: { visibility: "public", spoilerText: null, sensitive: false, language: null, thread: [] },
  version: (values) => ({
    thread: values.thread,
    settings: {
      visibility: values.visibility,
      spoilerText: values.spoilerText,
      sensitive: values.sensitive,
      language: values.language
    }
  }),
  violationFields: { thread: "thread" }
})
