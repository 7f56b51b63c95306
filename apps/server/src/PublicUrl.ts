export { PublicUrl } from "@herald/core/PublicUrl"
