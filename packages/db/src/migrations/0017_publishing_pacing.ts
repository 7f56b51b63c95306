import { Effect } from "effect"

// Reserved for the hardening issue's work; filled in by the change that needs it.
export default Effect.void
