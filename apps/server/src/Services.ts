import { Layer } from "effect"
import { Accounts, ApiKeys, IdempotencyKeys, RateLimiter } from "@herald/core"

/** The core services the HTTP layer calls, over whichever database layer is provided. */
export const layer = (options: { readonly rateLimitPerMinute: number }) =>
  Layer.mergeAll(
    ApiKeys.ApiKeys.layer,
    Accounts.Accounts.layer,
    IdempotencyKeys.IdempotencyKeys.layer,
    RateLimiter.RateLimiter.layer({ limitPerMinute: options.rateLimitPerMinute })
  )
