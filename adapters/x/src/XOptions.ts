import { Schema } from "effect"
import { PostOptions } from "@herald/adapter-kit"

/**
 * X's own post field (api-reference.md, "POST /api/v1/posts"): the follow-ups that make the X version a
 * thread. A top-level field of the post, as the reference names it; the full post also shows
 * `xThreadMedia`, one empty list per follow-up (follow-ups carry text only).
 */
export const options = PostOptions.make({
  placement: "top",
  fields: {
    xThread: PostOptions.thread.annotate({
      description: "Follow-up posts (text only) that turn the X version into a thread, in order; [] when none"
    })
  },
  defaults: { xThread: [] },
  derived: {
    fields: {
      xThreadMedia: Schema.Array(Schema.Array(Schema.String)).annotate({
        description: "Media ids of each xThread follow-up, one list per entry in the same order. Follow-ups carry " +
          "text only, so every list is empty []"
      })
    },
    show: (values) => ({ xThreadMedia: values.xThread.map(() => []) })
  },
  version: (values) => ({ thread: values.xThread }),
  violationFields: { thread: "xThread" }
})
