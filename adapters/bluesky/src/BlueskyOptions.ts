import { PostOptions } from "@herald/adapter-kit"

/**
 * Bluesky's own post options, sent as `platformOptions.bluesky`: the follow-ups that make the Bluesky
 * version a thread, published as a chain of replies under the first post.
 */
export const options = PostOptions.make({
  placement: "platformOptions",
  fields: {
    thread: PostOptions.thread.annotate({
      description: "Follow-up posts (text only) published as a chain of replies under the Bluesky post, in order; [] when none"
    })
  },
  defaults: { thread: [] },
  version: (values) => ({ thread: values.thread }),
  violationFields: { thread: "thread" }
})
