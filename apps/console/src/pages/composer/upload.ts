import type { components } from "@herald/client/api"
import { ApiError } from "../../api/ApiError.ts"

export type Media = components["schemas"]["MediaObject"]

/**
 * Sends a file to POST /api/v1/media as its raw body. XMLHttpRequest rather than the typed client: fetch
 * reports no upload progress. The CSRF token goes in the same header the client's middleware sets; the
 * Idempotency-Key lets a retry of the same file replay the first upload instead of storing it twice.
 */
export const uploadFile = ({ file, csrfToken, idempotencyKey, onProgress }: {
  readonly file: File
  readonly csrfToken: string
  readonly idempotencyKey: string
  readonly onProgress: (fraction: number) => void
}): Promise<Media> =>
  new Promise((resolve, reject) => {
    const request = new XMLHttpRequest()
    request.open("POST", "/api/v1/media")
    request.responseType = "json"
    request.setRequestHeader("Content-Type", file.type)
    request.setRequestHeader("X-CSRF-Token", csrfToken)
    request.setRequestHeader("Idempotency-Key", idempotencyKey)
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total)
    })
    request.addEventListener("load", () => {
      const body: unknown = request.response
      if (request.status >= 200 && request.status < 300 && typeof body === "object" && body !== null && "data" in body) {
        resolve(body.data as Media)
      } else {
        reject(ApiError.from(request.status, body))
      }
    })
    // Read by messageOf as "Herald could not be reached".
    request.addEventListener("error", () => reject(new TypeError("The upload could not reach Herald")))
    request.send(file)
  })
