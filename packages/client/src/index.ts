export * as Webhooks from "./Webhooks.ts"
// A receiver usually needs only these, so they are importable without the namespace too.
export { signWebhook, verifyWebhook, WebhookVerificationError } from "./Webhooks.ts"
export type { VerifyWebhookOptions, WebhookEvent, WebhookVerificationReason } from "./Webhooks.ts"
