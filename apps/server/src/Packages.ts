import { BlueskyAdapter, BlueskyConfig, BlueskySimulator } from "@herald/adapter-bluesky"
import { FacebookAdapter, FacebookConfig, FacebookSimulator } from "@herald/adapter-facebook"
import { InstagramAdapter, InstagramConfig, InstagramSimulator } from "@herald/adapter-instagram"
import { LinkedInAdapter, LinkedInConfig, LinkedInSimulator } from "@herald/adapter-linkedin"
import { MastodonAdapter, MastodonConfig, MastodonSimulator } from "@herald/adapter-mastodon"
import { ThreadsAdapter, ThreadsConfig, ThreadsSimulator } from "@herald/adapter-threads"
import { TikTokAdapter, TikTokConfig, TikTokSimulator } from "@herald/adapter-tiktok"
import { XAdapter, XConfig, XSimulator } from "@herald/adapter-x"
import { YouTubeAdapter, YouTubeConfig, YouTubeSimulator } from "@herald/adapter-youtube"
import type { NetworkPackage } from "./NetworkPackages.ts"

/**
 * The networks this app installs. A third party's adapter package is offered by adding its entry here;
 * nothing in the core changes.
 */
export const all: ReadonlyArray<NetworkPackage> = [
  { network: "x", make: XAdapter.make, simulator: XSimulator.simulator, realConfig: XConfig.realConfig },
  {
    network: "instagram",
    make: InstagramAdapter.make,
    simulator: InstagramSimulator.simulator,
    realConfig: InstagramConfig.realConfig
  },
  {
    network: "threads",
    make: ThreadsAdapter.make,
    simulator: ThreadsSimulator.simulator,
    realConfig: ThreadsConfig.realConfig
  },
  { network: "tiktok", make: TikTokAdapter.make, simulator: TikTokSimulator.simulator, realConfig: TikTokConfig.realConfig },
  {
    network: "youtube",
    make: YouTubeAdapter.make,
    simulator: YouTubeSimulator.simulator,
    realConfig: YouTubeConfig.realConfig
  },
  {
    network: "linkedin",
    make: LinkedInAdapter.make,
    simulator: LinkedInSimulator.simulator,
    realConfig: LinkedInConfig.realConfig
  },
  {
    network: "facebook",
    make: FacebookAdapter.make,
    simulator: FacebookSimulator.simulator,
    realConfig: FacebookConfig.realConfig
  },
  {
    network: "bluesky",
    make: BlueskyAdapter.make,
    simulator: BlueskySimulator.simulator,
    realConfig: BlueskyConfig.realConfig,
    offered: BlueskyConfig.offered
  },
  {
    network: "mastodon",
    make: MastodonAdapter.make,
    simulator: MastodonSimulator.simulator,
    realConfig: MastodonConfig.realConfig,
    offered: MastodonConfig.offered
  }
]
