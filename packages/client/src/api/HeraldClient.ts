import createClient, { type Client, type HeadersOptions } from "openapi-fetch"
import type { components, paths } from "./schema.ts"

export interface HeraldClientOptions {
  /** Where Herald answers, e.g. `http://localhost:3000` (its `BASE_URL`); paths start with `/api/v1`. */
  readonly baseUrl: string
  /**
   * A key from Settings > API keys or `herald key create`, sent as `Authorization: Bearer`. Leave it out in
   * the console, whose requests carry the session cookie instead.
   */
  readonly apiKey?: string | undefined
  /** A fetch of your own (tests, a proxy, retries); the global fetch otherwise. */
  readonly fetch?: ((input: Request) => Promise<Response>) | undefined
  /** Headers sent with every request, e.g. the console's `X-CSRF-Token`. */
  readonly headers?: HeadersOptions | undefined
}

/** A client of Herald's REST API, typed by its contract: paths, parameters, bodies and answers. */
export type HeraldClient = Client<paths, "application/json">

/**
 * Every error body Herald answers, `{ "error": { code, message, details?, requestId? } }`, as a union by
 * `code` (derived from the contract's error schemas, so a new error code appears here by itself).
 */
export type HeraldError = Extract<components["schemas"][keyof components["schemas"]], { readonly error: { readonly code: string } }>

/** The codes of {@link HeraldError}: `unauthorized`, `forbidden`, `not_found`, `invalid`, `rate_limited`, ... */
export type HeraldErrorCode = HeraldError["error"]["code"]

/**
 * `createHeraldClient({ baseUrl, apiKey })` then `client.GET("/api/v1/posts", { params: { query: { limit: 2 } } })`
 * answers `{ data, error, response }`: `data` is the typed body on success, `error` the typed error body.
 */
export const createHeraldClient = (options: HeraldClientOptions): HeraldClient => {
  const headers = new Headers(options.headers instanceof Headers || Array.isArray(options.headers)
    ? options.headers
    : Object.entries(options.headers ?? {}).flatMap(([name, value]): Array<[string, string]> =>
      value === null || value === undefined
        ? []
        : Array.isArray(value)
        ? value.map((item) => [name, String(item)])
        : [[name, String(value)]]
    ))
  if (options.apiKey !== undefined) headers.set("authorization", `Bearer ${options.apiKey}`)
  return createClient<paths, "application/json">({
    baseUrl: options.baseUrl,
    headers,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch })
  })
}
