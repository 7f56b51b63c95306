import { BlueskyLimits } from "@herald/adapter-bluesky"
import { FacebookLimits } from "@herald/adapter-facebook"
import { InstagramLimits } from "@herald/adapter-instagram"
import type { Limits } from "@herald/adapter-kit"
import { LinkedInLimits } from "@herald/adapter-linkedin"
import { MastodonLimits } from "@herald/adapter-mastodon"
import { ThreadsLimits } from "@herald/adapter-threads"
import { TikTokLimits } from "@herald/adapter-tiktok"
import { XLimits } from "@herald/adapter-x"
import { YouTubeLimits } from "@herald/adapter-youtube"

/** Each installed adapter's README and the limits data its table is generated from. */
export const sources: ReadonlyArray<{ readonly folder: string; readonly source: string; readonly limits: Limits.Limits }> = [
  { folder: "adapters/x", source: "src/XLimits.ts", limits: XLimits.limits },
  { folder: "adapters/instagram", source: "src/InstagramLimits.ts", limits: InstagramLimits.limits },
  { folder: "adapters/threads", source: "src/ThreadsLimits.ts", limits: ThreadsLimits.limits },
  { folder: "adapters/tiktok", source: "src/TikTokLimits.ts", limits: TikTokLimits.limits },
  { folder: "adapters/youtube", source: "src/YouTubeLimits.ts", limits: YouTubeLimits.limits },
  { folder: "adapters/linkedin", source: "src/LinkedInLimits.ts", limits: LinkedInLimits.limits },
  { folder: "adapters/facebook", source: "src/FacebookLimits.ts", limits: FacebookLimits.limits },
  { folder: "adapters/bluesky", source: "src/BlueskyLimits.ts", limits: BlueskyLimits.limits },
  { folder: "adapters/mastodon", source: "src/MastodonLimits.ts", limits: MastodonLimits.limits }
]
