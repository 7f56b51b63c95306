// Stands in for packages/client's typed API client (`@herald/client/api`) while that file does not exist in
// this checkout: the same call shape as openapi-fetch (`GET(path, { params, body })` answering
// `{ data, error, response }`, `use(middleware)`), without the types. vite.config.ts and tsconfig.json pick
// the real client whenever it is there.
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE"

interface Init {
  readonly params?: { readonly path?: Record<string, string | number>; readonly query?: Record<string, unknown> }
  readonly body?: unknown
}

interface Middleware {
  onRequest?(options: { request: Request }): Request | undefined | Promise<Request | undefined>
}

interface Answer {
  readonly data?: any
  readonly error?: any
  readonly response: Response
}

type Call = (path: string, init?: Init) => Promise<Answer>

export interface HeraldClient {
  readonly GET: Call
  readonly POST: Call
  readonly PUT: Call
  readonly PATCH: Call
  readonly DELETE: Call
  use(middleware: Middleware): void
}

export const createHeraldClient = (options: {
  readonly baseUrl: string
  readonly fetch?: typeof fetch
  readonly headers?: Record<string, string>
}): HeraldClient => {
  const middlewares: Array<Middleware> = []
  const call = (method: Method): Call => async (path, init) => {
    const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(init?.params?.path?.[name])))
    const url = new URL(options.baseUrl + filled)
    for (const [name, value] of Object.entries(init?.params?.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value))
    }
    const headers = new Headers(options.headers)
    if (init?.body !== undefined) headers.set("content-type", "application/json")
    let request = new Request(url, {
      method,
      headers,
      ...(init?.body === undefined ? {} : { body: JSON.stringify(init.body) })
    })
    for (const middleware of middlewares) request = (await middleware.onRequest?.({ request })) ?? request
    const response = await (options.fetch ?? fetch)(request)
    const text = response.status === 204 ? "" : await response.text()
    const body = text === "" ? undefined : JSON.parse(text)
    return response.ok ? { data: body, response } : { error: body, response }
  }
  return {
    GET: call("GET"),
    POST: call("POST"),
    PUT: call("PUT"),
    PATCH: call("PATCH"),
    DELETE: call("DELETE"),
    use: (middleware) => void middlewares.push(middleware)
  }
}
