import type { Adapter } from "../index.ts"

// The example network's limits, the version of its API and its capabilities, as data (the guide's
// section 2; a real adapter's `src/<Network>Limits.ts`).

export const limits = {
  forms: {
    post: {
      text: { max: 100, counter: "characters" },
      media: { minItems: 0, maxItems: 4, maxPhotos: 4, maxVideos: 1, mixing: false },
      textOrMedia: true
    }
  }
} as const

/** The version its calls name: a real adapter cites its network's versioning page and the day it read it. */
export const api = {
  version: "v1",
  sunset: null,
  source: "packages/adapter-kit/src/example/ExampleLimits.ts (the example network is the files of example/)",
  checked: "2026-12-02"
} as const

export const capabilities: Adapter.Capabilities = {
  text: true,
  photos: true,
  videos: true,
  thread: false,
  firstComment: false,
  refresh: true,
  reconcile: true,
  asyncProcessing: false
}
