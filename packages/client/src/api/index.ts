// `@herald/client/api`: a typed client of Herald's REST API. Kept apart from the package's main export so
// that a webhook receiver importing `@herald/client` loads no dependency.
export { createHeraldClient } from "./HeraldClient.ts"
export type { HeraldClient, HeraldClientOptions, HeraldError, HeraldErrorCode } from "./HeraldClient.ts"
export type { components, operations, paths } from "./schema.ts"
