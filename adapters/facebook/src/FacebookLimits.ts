import type { Adapter, ApiVersion, Limits } from "@herald/adapter-kit"

// Facebook Page posts as data; the kit's validator checks posts against them and `GET /api/v1/networks`
// publishes them. The 63,206-character limit is Facebook's post limit; multi-photo posts go through
// `attached_media` (https://developers.facebook.com/docs/pages-api/posts). Photos up to 10 MB (networks.md §7.3,
// unconfirmed by Meta); videos go by resumable upload, whose limit Meta does not state. Each photo's description goes
// as `alt_text_custom` on its upload (https://developers.facebook.com/docs/graph-api/reference/photo/, and
// `POST /{page-id}/photos` in Meta's api_specs/specs/Page.json, read 2026-12-02); Meta states no length, so 1,000
// characters is Herald's bound, as for Instagram. Page videos take no alt text: a video's is not sent.

export const limits = {
  forms: {
    post: {
      text: { max: 63_206, counter: "characters" },
      // Up to 10 photos in one post, or one video; a post may also be text alone.
      media: {
        minItems: 0,
        maxItems: 10,
        maxPhotos: 10,
        maxVideos: 1,
        mixing: false,
        maxPhotoBytes: 10 * 1024 * 1024,
        altText: { max: 1_000 }
      },
      textOrMedia: true,
      firstComment: true
    }
  }
} as const satisfies Limits.Limits

export const capabilities: Adapter.Capabilities = {
  text: true,
  photos: true,
  videos: true,
  thread: false,
  firstComment: true,
  // A Page token obtained from a long-lived user token does not expire: there is nothing to refresh.
  refresh: false,
  reconcile: true,
  // Videos are processed before they are ready.
  asyncProcessing: true
}

/**
 * The Graph API version every call names (graph.facebook.com/v27.0/…; the simulator serves the same one): Meta's
 * newest, introduced 2026-11-04 with no end date set ("Available until: TBD" in the changelog's table;
 * https://developers.facebook.com/blog/post/2026/11/04/introducing-graph-api-v27-and-marketing-api-v27/).
 * Meta keeps a version about two years; v20.0, which the adapter called before, ended on 2026-09-24. The changelogs from v21.0 to v27.0
 * change none of the calls or fields the adapter uses (read 2026-12-02; v23.0's and v24.0's pages were not
 * reachable): their deprecations concern insights metrics and legacy protocol features (multi-id requests,
 * method override, field aliases, JSONP, batch) that it does not use.
 */
export const api = {
  version: "v27.0",
  sunset: null,
  source: "https://developers.facebook.com/docs/graph-api/changelog",
  checked: "2026-12-02"
} as const satisfies ApiVersion.ApiVersion
