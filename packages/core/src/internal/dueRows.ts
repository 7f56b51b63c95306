import { Schema } from "effect"
import { Timestamp } from "./rows.ts"

/**
 * A scheduled post as it is handed to the engine (`Scheduler.handover`'s rounds, `PublishingEngine.sweep`'s):
 * its id, the version it goes out at, and its time, decoded from `id, version, scheduled_at`.
 */
export const DueRow = Schema.Struct({ id: Schema.String, version: Schema.Number, scheduledAt: Timestamp })
