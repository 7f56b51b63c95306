import { BlueskyAdapter, BlueskyConfig, BlueskyLimits, BlueskyRules, BlueskySimulator } from "@herald/adapter-bluesky"
import { FacebookAdapter, FacebookConfig, FacebookLimits, FacebookRules, FacebookSimulator } from "@herald/adapter-facebook"
import { InstagramAdapter, InstagramConfig, InstagramLimits, InstagramRules, InstagramSimulator } from "@herald/adapter-instagram"
import { LinkedInAdapter, LinkedInConfig, LinkedInLimits, LinkedInRules, LinkedInSimulator } from "@herald/adapter-linkedin"
import { MastodonAdapter, MastodonConfig, MastodonLimits, MastodonRules, MastodonSimulator } from "@herald/adapter-mastodon"
import { ThreadsAdapter, ThreadsConfig, ThreadsLimits, ThreadsRules, ThreadsSimulator } from "@herald/adapter-threads"
import { TikTokAdapter, TikTokConfig, TikTokLimits, TikTokRules, TikTokSimulator } from "@herald/adapter-tiktok"
import { XAdapter, XConfig, XLimits, XRules, XSimulator } from "@herald/adapter-x"
import { YouTubeAdapter, YouTubeConfig, YouTubeLimits, YouTubeRules, YouTubeSimulator } from "@herald/adapter-youtube"
import type { NetworkPackage } from "./NetworkPackages.ts"

/**
 * The networks this app installs. A third party's adapter package is offered by adding its entry here;
 * nothing in the core changes.
 */
export const all: ReadonlyArray<NetworkPackage> = [
  {
    network: "x",
    make: XAdapter.make,
    simulator: XSimulator.simulator,
    realConfig: XConfig.realConfig,
    readme: { folder: "adapters/x", source: "src/XLimits.ts", limits: XLimits.limits, api: XLimits.api,
      rules: { source: "src/XRules.ts", table: XRules.rules } }
  },
  {
    network: "instagram",
    make: InstagramAdapter.make,
    simulator: InstagramSimulator.simulator,
    realConfig: InstagramConfig.realConfig,
    readme: { folder: "adapters/instagram", source: "src/InstagramLimits.ts", limits: InstagramLimits.limits, api: InstagramLimits.api,
      rules: { source: "src/InstagramRules.ts", table: InstagramRules.rules } }
  },
  {
    network: "threads",
    make: ThreadsAdapter.make,
    simulator: ThreadsSimulator.simulator,
    realConfig: ThreadsConfig.realConfig,
    readme: { folder: "adapters/threads", source: "src/ThreadsLimits.ts", limits: ThreadsLimits.limits, api: ThreadsLimits.api,
      rules: { source: "src/ThreadsRules.ts", table: ThreadsRules.rules } }
  },
  {
    network: "tiktok",
    make: TikTokAdapter.make,
    simulator: TikTokSimulator.simulator,
    realConfig: TikTokConfig.realConfig,
    readme: { folder: "adapters/tiktok", source: "src/TikTokLimits.ts", limits: TikTokLimits.limits, api: TikTokLimits.api,
      rules: { source: "src/TikTokRules.ts", table: TikTokRules.rules } }
  },
  {
    network: "youtube",
    make: YouTubeAdapter.make,
    simulator: YouTubeSimulator.simulator,
    realConfig: YouTubeConfig.realConfig,
    readme: { folder: "adapters/youtube", source: "src/YouTubeLimits.ts", limits: YouTubeLimits.limits, api: YouTubeLimits.api,
      rules: { source: "src/YouTubeRules.ts", table: YouTubeRules.rules } }
  },
  {
    network: "linkedin",
    make: LinkedInAdapter.make,
    simulator: LinkedInSimulator.simulator,
    realConfig: LinkedInConfig.realConfig,
    readme: { folder: "adapters/linkedin", source: "src/LinkedInLimits.ts", limits: LinkedInLimits.limits, api: LinkedInLimits.api,
      rules: { source: "src/LinkedInRules.ts", table: LinkedInRules.rules } }
  },
  {
    network: "facebook",
    make: FacebookAdapter.make,
    simulator: FacebookSimulator.simulator,
    realConfig: FacebookConfig.realConfig,
    readme: { folder: "adapters/facebook", source: "src/FacebookLimits.ts", limits: FacebookLimits.limits, api: FacebookLimits.api,
      rules: { source: "src/FacebookRules.ts", table: FacebookRules.rules } }
  },
  {
    network: "bluesky",
    make: BlueskyAdapter.make,
    simulator: BlueskySimulator.simulator,
    realConfig: BlueskyConfig.realConfig,
    offered: BlueskyConfig.offered,
    readme: { folder: "adapters/bluesky", source: "src/BlueskyLimits.ts", limits: BlueskyLimits.limits, api: BlueskyLimits.api,
      rules: { source: "src/BlueskyRules.ts", table: BlueskyRules.rules } }
  },
  {
    network: "mastodon",
    make: MastodonAdapter.make,
    simulator: MastodonSimulator.simulator,
    realConfig: MastodonConfig.realConfig,
    offered: MastodonConfig.offered,
    readme: { folder: "adapters/mastodon", source: "src/MastodonLimits.ts", limits: MastodonLimits.limits, api: MastodonLimits.api,
      rules: { source: "src/MastodonRules.ts", table: MastodonRules.rules } }
  }
]
