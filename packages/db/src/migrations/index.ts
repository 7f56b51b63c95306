import type { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import foundation from "./0001_foundation.ts"
import connectedAccounts from "./0002_connected_accounts.ts"
import tokenRefresh from "./0003_token_refresh.ts"
import media from "./0004_media.ts"
import posts from "./0005_posts.ts"
import idempotency from "./0006_idempotency.ts"
import publishing from "./0007_publishing.ts"
import webhooks from "./0008_webhooks.ts"
import eventWake from "./0009_event_wake.ts"
import team from "./0010_team.ts"
import approvals from "./0011_approvals.ts"
import reviews from "./0012_reviews.ts"
import inbox from "./0013_inbox.ts"
import inboxHardening from "./0014_inbox_hardening.ts"
import rateLimits from "./0015_rate_limits.ts"
import mediaStorage from "./0016_media_storage.ts"
import publishingPacing from "./0017_publishing_pacing.ts"
import webhookShutoff from "./0018_webhook_shutoff.ts"
import sandboxState from "./0019_sandbox_state.ts"
import endpointIdsAndPublishingDue from "./0020_endpoint_ids_and_publishing_due.ts"
import peopleAndSessions from "./0021_people_and_sessions.ts"
import workspaceTimeZone from "./0022_workspace_time_zone.ts"
import signInPaths from "./0023_sign_in_paths.ts"
import postOptions from "./0024_post_options.ts"
import mediaAltAndFits from "./0025_media_alt_and_fits.ts"
import queueSchedules from "./0026_queue_schedules.ts"
import queueSeats from "./0027_queue_seats.ts"
import inboxRead from "./0028_inbox_read.ts"
import eventsByPost from "./0029_events_by_post.ts"
import mcpOAuth from "./0030_mcp_oauth.ts"
import assistantApproval from "./0031_assistant_approval.ts"
import clusterDueIndex from "./0032_cluster_due_index.ts"
import verifiedAddresses from "./0033_verified_addresses.ts"
import reviewLinkMakers from "./0034_review_link_makers.ts"
import publishingFaults from "./0035_publishing_faults.ts"

// Every migration, keyed `<id>_<name>`; both backends run this same set in id order.
export const migrations: Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>> = {
  "0001_foundation": foundation,
  "0002_connected_accounts": connectedAccounts,
  "0003_token_refresh": tokenRefresh,
  "0004_media": media,
  "0005_posts": posts,
  "0006_idempotency": idempotency,
  "0007_publishing": publishing,
  "0008_webhooks": webhooks,
  "0009_event_wake": eventWake,
  "0010_team": team,
  "0011_approvals": approvals,
  "0012_reviews": reviews,
  "0013_inbox": inbox,
  "0014_inbox_hardening": inboxHardening,
  "0015_rate_limits": rateLimits,
  "0016_media_storage": mediaStorage,
  "0017_publishing_pacing": publishingPacing,
  "0018_webhook_shutoff": webhookShutoff,
  "0019_sandbox_state": sandboxState,
  "0020_endpoint_ids_and_publishing_due": endpointIdsAndPublishingDue,
  "0021_people_and_sessions": peopleAndSessions,
  "0022_workspace_time_zone": workspaceTimeZone,
  "0023_sign_in_paths": signInPaths,
  "0024_post_options": postOptions,
  "0025_media_alt_and_fits": mediaAltAndFits,
  "0026_queue_schedules": queueSchedules,
  "0027_queue_seats": queueSeats,
  "0028_inbox_read": inboxRead,
  "0029_events_by_post": eventsByPost,
  "0030_mcp_oauth": mcpOAuth,
  "0031_assistant_approval": assistantApproval,
  "0032_cluster_due_index": clusterDueIndex,
  "0033_verified_addresses": verifiedAddresses,
  "0034_review_link_makers": reviewLinkMakers,
  "0035_publishing_faults": publishingFaults
}
