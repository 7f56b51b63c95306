import { Schema } from "effect"
import { PostOptions } from "@herald/adapter-kit"

/** Instagram's own post field (api-reference.md): a feed post or a story, a top-level field of the post. */
export const options = PostOptions.make({
  placement: "top",
  fields: {
    instagramFormat: Schema.Literals(["post", "story"]).annotate({
      description: "Instagram: a feed post (default) or a story"
    })
  },
  defaults: { instagramFormat: "post" },
  version: (values) => ({ format: values.instagramFormat }),
  violationFields: { format: "instagramFormat" }
})
