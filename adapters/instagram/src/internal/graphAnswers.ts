import { Simulator, type SimulatorState } from "@herald/adapter-kit"
import { randomBytes } from "node:crypto"

// The Graph API's answers as the simulator gives them: error bodies, field selection, time format.

/** A Graph error answer, as https://developers.facebook.com/docs/graph-api/guides/error-handling shows it. */
export const graphError = (
  status: number,
  error: { message: string; code: number; error_subcode?: number; is_transient?: boolean; error_user_title?: string; error_user_msg?: string }
) =>
  Simulator.json({
    error: { type: "OAuthException", is_transient: false, ...error, fbtrace_id: randomBytes(9).toString("base64url") }
  }, status)

export const tokenRefused = (check: SimulatorState.TokenCheck) =>
  check._tag === "Expired"
    ? graphError(400, {
      message: "Error validating access token: Session has expired. The current time is later than the expiry time.",
      code: 190,
      error_subcode: 463
    })
    : check._tag === "Revoked"
    ? graphError(400, {
      message: "Error validating access token: The user has not authorized application.",
      code: 190,
      error_subcode: 458
    })
    : graphError(400, { message: "Invalid OAuth access token - Cannot parse access token", code: 190 })

export const missing = (id: string, method: string) =>
  graphError(400, {
    message: `Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    code: 100,
    error_subcode: 33
  })

export const invalid = (message: string, subcode?: number) =>
  graphError(400, subcode === undefined ? { message, code: 100 } : { message, code: 100, error_subcode: subcode })

/** Only the fields asked for, plus `id`, as the Graph API answers. */
export const pick = (fields: string | undefined, node: Record<string, unknown>) =>
  Object.fromEntries(
    ["id", ...(fields ?? "").split(",")].map((field) => field.trim()).filter((field) => field in node).map((field) => [field, node[field]])
  )

export const isPublicUrl = (value: string | undefined) => value !== undefined && /^https?:\/\/[^\s]+$/.test(value)

export const instagramTime = (millis: number) => new Date(millis).toISOString().replace(/\.\d{3}Z$/, "+0000")
