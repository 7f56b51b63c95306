import { Context } from "effect"

/**
 * The address people and networks reach this server at (`BASE_URL`, or `http://localhost:<port>`): used in
 * media links, OAuth redirect URIs and the sandbox's own links.
 */
export class PublicUrl extends Context.Service<PublicUrl, string>()("@herald/core/PublicUrl") {}
