import { Layer } from "effect"
import { Accounts, ApiKeys, IdempotencyKeys, Media, RateLimiter, StorageFaults } from "@herald/core"

/** The core services the HTTP layer calls, over whichever database layer is provided. */
export const layer = (options: { readonly rateLimitPerMinute: number; readonly dataDir: string }) =>
  Layer.mergeAll(
    ApiKeys.ApiKeys.layer,
    Accounts.Accounts.layer,
    IdempotencyKeys.IdempotencyKeys.layer,
    Media.Media.layer({ dataDir: options.dataDir }),
    RateLimiter.RateLimiter.layer({ limitPerMinute: options.rateLimitPerMinute }),
    // What requests met of the storage's faults: one log line per kind per interval, and /health's "full".
    StorageFaults.StorageFaults.layer
  )
