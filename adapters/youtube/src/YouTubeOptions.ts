import { Schema } from "effect"
import { PostOptions } from "@herald/adapter-kit"
import { Bounded } from "@herald/domain"

/** YouTube's own post fields (api-reference.md): the video's title and its thumbnail, top-level fields. */
export const options = PostOptions.make({
  placement: "top",
  fields: {
    youtubeTitle: Schema.NullOr(Bounded.Text).annotate({
      description: "YouTube: the video's title (required for YouTube targets); null when not set"
    }),
    youtubeThumbnail: Schema.NullOr(Bounded.Id).annotate({
      description: "YouTube: the media id of an uploaded image to use as the thumbnail; null for none"
    })
  },
  defaults: { youtubeTitle: null, youtubeThumbnail: null },
  mediaFields: ["youtubeThumbnail"],
  version: (values, media) => ({
    title: values.youtubeTitle,
    thumbnail: values.youtubeThumbnail === null ? null : media(values.youtubeThumbnail) ?? null
  }),
  violationFields: { title: "youtubeTitle", thumbnail: "youtubeThumbnail" }
})
