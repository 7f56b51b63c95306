import { Schema } from "effect"

/** The seven networks Herald publishes to, by their keys (product.md, "Networks and their keys"). */
export const platforms = ["x", "instagram", "threads", "tiktok", "youtube", "linkedin", "facebook"] as const

export const Platform = Schema.Literals(platforms)
export type Platform = typeof Platform.Type
