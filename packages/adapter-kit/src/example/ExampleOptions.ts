import { Schema } from "effect"
import { PostOptions } from "../index.ts"

// The example network's one post option (the guide's section 3; a real adapter's `src/<Network>Options.ts`).

/** Who sees a post: sent as `platformOptions.example.visibility`, and to the network as `visibility`. */
export const options = PostOptions.make({
  placement: "platformOptions",
  fields: {
    visibility: Schema.Literals(["public", "followers"]).annotate({
      description: "Who sees the post: public (default) or followers only"
    })
  },
  defaults: { visibility: "public" },
  version: (values) => ({ settings: { visibility: values.visibility } })
})
