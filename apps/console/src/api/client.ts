import { createHeraldClient } from "@herald/client/api"
import { ApiError } from "./ApiError.ts"

// The console calls Herald's own /api/v1 through the typed client, with the session cookie the browser
// keeps. Every request that changes something carries the session's CSRF token, added here once.
let csrfToken: string | undefined

/** Called whenever a session arrives (sign-in, the session query), so mutations carry its token. */
export const setCsrfToken = (token: string | undefined) => {
  csrfToken = token
}

const safe = new Set(["GET", "HEAD", "OPTIONS"])

export const api = createHeraldClient({ baseUrl: window.location.origin })

api.use({
  onRequest({ request }) {
    if (!safe.has(request.method) && csrfToken !== undefined) request.headers.set("X-CSRF-Token", csrfToken)
    return request
  }
})

interface Answer<Body> {
  readonly data?: Body
  readonly error?: unknown
  readonly response: Response
}

/**
 * The body's `data` of a successful answer, or an ApiError with the API's message. Use it around every
 * call: `const keys = await unwrap(api.GET("/api/v1/keys"))`.
 */
export const unwrap = async <Body,>(
  call: Promise<Answer<Body>>
): Promise<Body extends { readonly data: infer Data } ? Data : undefined> => {
  const { data, error, response } = await call
  if (!response.ok) throw ApiError.from(response.status, error)
  return (typeof data === "object" && data !== null && "data" in data ? data.data : undefined) as never
}
