import { Cause, Clock, Context, Effect, type Fiber, Metric, Option, type Types } from "effect"
import { FindMyWay, HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApi, HttpApiError } from "effect/http-api"
import { ApiError, HeraldApi, PostsApi, SchemaProblems } from "@herald/api"
import { ErrorShape, PostShape, ServiceError, StorageFaults, type Workspaces } from "@herald/core"
import { Bounded } from "@herald/domain"
import * as NodeServer from "../internal/nodeServer.ts"
import * as OAuthErrors from "./OAuthErrors.ts"
import * as RequestMetrics from "./RequestMetrics.ts"

// One global middleware renders whatever the router and the HttpApi framework fail with (unknown route, wrong
// method, undecodable input, a body too large, a defect) in the reference's error shape. Handlers' own typed
// errors are already encoded by their endpoint schemas. `X-Request-Id` is set by the Node server
// (internal/nodeServer.ts) on every answer; a 500 quotes the same id.

/** Every method each path of the API answers, so a known path with the wrong method gets 405 and `Allow`. */
const routeTable = (api: HeraldApi.HeraldApi) => {
  const router = FindMyWay.make<ReadonlySet<string>>({})
  const methods = new Map<string, Set<string>>()
  HttpApi.reflect(api, {
    onGroup() {},
    onEndpoint({ endpoint }) {
      const set = methods.get(endpoint.path) ?? new Set<string>()
      set.add(endpoint.method)
      methods.set(endpoint.path, set)
    }
  })
  for (const [path, set] of [...methods, ...OAuthErrors.methods]) router.all(path as `/${string}`, set)
  return (url: string) => router.find("GET", url)?.handler
}

const json = (status: number, body: unknown) => HttpServerResponse.jsonUnsafe(body, { status })

const render = (
  cause: Cause.Cause<unknown>,
  request: HttpServerRequest.HttpServerRequest,
  requestId: string,
  allowedMethods: (url: string) => ReadonlySet<string> | undefined,
  faults: StorageFaults.StorageFaults["Service"]
): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  const failure = Option.getOrUndefined(Cause.findErrorOption(cause))
  const defect = failure === undefined ? Cause.squash(cause) : failure
  const error = HttpServerError.isHttpServerError(defect) ? defect.reason : defect

  if (HttpApiError.HttpApiSchemaError.is(error)) {
    if (error.kind === "Body" || error.kind === "ResponseHeaders") return internal(cause, request, requestId)
    const { details, message } = SchemaProblems.formatSchemaError(error.kind, error.cause)
    return Effect.succeed(json(400, ApiError.body("invalid", message, { details })))
  }
  if (HttpApiError.HttpApiPayloadTooLarge.is(error)) {
    return Effect.succeed(
      json(413, ApiError.body("too_large", `The request body is larger than the limit of ${error.size} bytes`))
    )
  }
  if (isTagged(error, "RouteNotFound")) {
    const path = request.url.split("?")[0] ?? request.url
    // A segment longer than the router matches (100 characters) is no route: named, not echoed whole.
    const shown = Bounded.shortened(path, 200)
    const allowed = allowedMethods(path)
    if (allowed !== undefined && allowed.size > 0 && !allowed.has(request.method)) {
      const allow = [...allowed].sort().join(", ")
      return Effect.succeed(
        json(405, ApiError.body("not_found", `${request.method} is not supported on ${shown}; use ${allow}`)).pipe(
          HttpServerResponse.setHeader("allow", allow)
        )
      )
    }
    return Effect.succeed(json(404, ApiError.body("not_found", `No route ${request.method} ${shown}`)))
  }
  if (isTagged(error, "RequestParseError")) {
    const parse = error as HttpServerError.RequestParseError
    return Effect.succeed(
      parse.reason === "BodyTooLarge"
        ? json(413, ApiError.body("too_large", "The request body is too large"))
        : json(400, ApiError.body("invalid", "The request body could not be read"))
    )
  }
  if (Cause.hasInterruptsOnly(cause)) {
    // The client went away; nobody reads this answer, but the server still owes the socket one.
    return Effect.succeed(HttpServerResponse.empty({ status: 499 }))
  }
  const fault = StorageFaults.ofCause(cause)
  if (fault !== undefined) return Effect.as(faults.seen(fault), storageFault(fault))
  return internal(cause, request, requestId)
}

/**
 * A storage fault is no bug of Herald's: said as what it is, with `Retry-After` when waiting helps, and counted
 * into StorageFaults' one line per interval instead of a stack trace per request.
 */
const storageFault = (fault: StorageFaults.StorageFault) => {
  const shape = StorageFaults.shape(fault)
  const response = json(shape.status, ApiError.body(shape.code, shape.message))
  return fault.kind === "unreachable"
    ? HttpServerResponse.setHeader(response, "retry-after", String(StorageFaults.retryAfterSeconds))
    : response
}

// A write answered without a fault: the disk took it, so /health stops saying it is full. MCP's POSTs are
// calls of any tool, reading ones too, and a validation saves nothing.
const isWrite = (request: HttpServerRequest.HttpServerRequest) =>
  request.method !== "GET" && request.method !== "HEAD" && request.method !== "OPTIONS" &&
  !request.url.startsWith("/api/mcp") && !request.url.startsWith("/api/v1/posts/validate")

// Answers some layer produced itself (the HttpApi framework answers an unsupported Content-Type with a plain
// 415, for one) are re-rendered so that every error a client sees has the same shape.
const codeForStatus = (status: number): ApiError.Code =>
  status === 405
    ? "not_found"
    : status >= 500
    ? "internal"
    : ApiError.codes.find((code) => ErrorShape.statusOf[code] === status) ?? "invalid"

const reshape = (request: HttpServerRequest.HttpServerRequest, requestId: string) =>
(
  response: HttpServerResponse.HttpServerResponse
): HttpServerResponse.HttpServerResponse => {
  if (response.status < 400) return response
  const body = response.body
  // JSON answers are already in shape; HTML pages (the OAuth callback) are meant for a browser.
  if ("contentType" in body && /^(application\/json|text\/html)/.test(body.contentType ?? "")) return response
  const message = response.status === 415
    ? `Content-Type ${request.headers["content-type"] ?? "(none)"} is not accepted by ${request.method} ${request.url.split("?")[0]}` +
      (request.url.startsWith("/api/v1/media") ? "; send a JPEG, PNG, WebP, MP4 or MOV file" : "; send application/json")
    : `The request could not be answered (HTTP ${response.status})`
  const code = codeForStatus(response.status)
  return json(response.status, ApiError.body(code, message, code === "internal" ? { requestId } : undefined)).pipe(
    HttpServerResponse.setHeaders(keptHeaders(response.headers))
  )
}

const keptHeaders = (headers: Record<string, string>) => {
  const kept: Record<string, string> = {}
  for (const name in headers) {
    if (name !== "content-length" && name !== "content-type") kept[name] = headers[name]!
  }
  return kept
}

/** The REST error class of each code a domain error answers. */
const errorClasses = {
  unauthorized: ApiError.Unauthorized,
  forbidden: ApiError.Forbidden,
  invalid: ApiError.Invalid,
  not_found: ApiError.NotFound,
  conflict: ApiError.Conflict,
  too_large: ApiError.TooLarge,
  rate_limited: ApiError.RateLimited
} as const

type ErrorClasses = typeof errorClasses

/**
 * Fails a handler with the REST error a domain error answers (ErrorShape: its code, message and details),
 * typed as the one class its code is, so the endpoint's declared errors still check it.
 */
const domainError = <E extends ErrorShape.Answerable>(
  error: E
): Effect.Effect<never, InstanceType<ErrorClasses[ErrorShape.CodeOf<E>]>> => {
  const shape = ErrorShape.of(error)
  const ErrorClass: ErrorClasses[keyof ErrorClasses] = errorClasses[shape.code]
  return Effect.fail(
    new ErrorClass(shape.details === undefined ? { message: shape.message } : { message: shape.message, details: shape.details })
  ) as Effect.Effect<never, InstanceType<ErrorClasses[ErrorShape.CodeOf<E>]>>
}

/** The REST errors of a service error's reasons (each by its code); a reason not in the table stays in the service error. */
type AnsweredReasons<Tag extends string, R extends ServiceError.Reason> =
  | (R extends ErrorShape.DomainError ? InstanceType<ErrorClasses[ErrorShape.CodeOf<R>]> : never)
  | ([Exclude<R, ErrorShape.DomainError>] extends [never] ? never : ServiceError.ServiceError<Tag, Exclude<R, ErrorShape.DomainError>>)

/**
 * What a handler's error channel becomes once answered: each domain error (a service error's, each of its
 * reasons) as the REST error of its code, the rest as they are.
 */
type Answered<E> = E extends ErrorShape.DomainError ? InstanceType<ErrorClasses[ErrorShape.CodeOf<E>]>
  : E extends ServiceError.ServiceError<infer Tag, infer R> ? AnsweredReasons<Tag, R>
  : E

/** An error channel without one reason, whether it comes alone or in its service's error. */
type Without<E, X> = E extends ServiceError.ServiceError<infer Tag, infer R>
  ? [Exclude<R, X>] extends [never] ? never : ServiceError.ServiceError<Tag, Exclude<R, X>>
  : Exclude<E, X>

/**
 * Answers every domain error a handler's services fail with (`ErrorShape.isDomainError`), each as `domainError`
 * renders it: a handler is `service.call(...).pipe(answered)`, and lists no tags. What is left in the error
 * channel is the handler's own (`ApiError`s it failed with) and the few errors a surface renders itself.
 */
export const answered = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, Answered<E>, R> =>
  Effect.catch(self, (error: unknown) => ErrorShape.isDomainError(error) ? domainError(error) : Effect.fail(error)) as Effect.Effect<
    A,
    Answered<E>,
    R
  >

/**
 * `answered`, for a handler that acts on the caller's own workspace: the principal was read from it a moment
 * ago, so that workspace missing is a bug rather than an answer, and its `WorkspaceNotFound` dies (a 500 with
 * a request id). The admin API, which is asked about any workspace, answers it with `answered` as a 404.
 */
export const answeredInOwn = <A, E, R>(
  self: Effect.Effect<A, E, R>
): Effect.Effect<A, Answered<Without<E, Workspaces.WorkspaceNotFound>>, R> =>
  answered(
    Effect.catch(self, (error) =>
      isTagged(ServiceError.reasonOf(error), "WorkspaceNotFound") ? Effect.die(error) : Effect.fail(error)) as Effect.Effect<
        A,
        Without<E, Workspaces.WorkspaceNotFound>,
        R
      >
  )

const isTagged = (value: unknown, tag: string): boolean =>
  typeof value === "object" && value !== null && "_tag" in value && value._tag === tag

const internal = (cause: Cause.Cause<unknown>, request: HttpServerRequest.HttpServerRequest, requestId: string) =>
  Effect.as(
    Effect.logError("Unexpected failure answering a request", cause).pipe(
      Effect.annotateLogs({ requestId, method: request.method, url: request.url })
    ),
    json(
      500,
      ApiError.body(
        "internal",
        `Something went wrong on our side. Quote request id ${requestId} if you report it.`,
        { requestId }
      )
    )
  )

/**
 * The API's paths and methods, which do not depend on the installed networks (they shape only the posts'
 * bodies): read from the API made without any.
 */
const pathsOnly = HeraldApi.make(PostsApi.schemas(PostShape.make([])))

// Server-rendered pages (a review link's page, the OAuth and sandbox pages, the docs page) are never shown in
// another site's frame, where a button such as a review's Approve could be clicked by trickery, nor sniffed as
// another type (issue 28). The console sets a stricter policy of its own, which is kept.
const pageHeaders = {
  "content-security-policy": "frame-ancestors 'none'; object-src 'none'; base-uri 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff"
}
const isPage = (response: HttpServerResponse.HttpServerResponse) =>
  (("contentType" in response.body ? response.body.contentType : undefined) ?? response.headers["content-type"] ?? "")
    .startsWith("text/html")
const withPageHeaders = (response: HttpServerResponse.HttpServerResponse) =>
  response.headers["content-security-policy"] === undefined && isPage(response)
    ? HttpServerResponse.setHeaders(response, pageHeaders)
    : response

export const layer = HttpRouter.middleware<{ handles: unknown }>()(
  Effect.gen(function*() {
    const registry = yield* Effect.service(Metric.MetricRegistry)
    // The server's own (Services.ts); a server made of fewer layers (a test's) counts on its own.
    const found = yield* Effect.serviceOption(StorageFaults.StorageFaults)
    const faults = Option.isSome(found) ? found.value : yield* StorageFaults.StorageFaults.make
    const allowedMethods = routeTable(pathsOnly)
    const recorder = RequestMetrics.make(registry)

    /**
     * Counts the answer in the request metrics, with the route that gave it: the router leaves the matched
     * route in the fiber's context until the request ends, so it is read there.
     */
    const record = (
      fiber: Fiber.Fiber<unknown, unknown>,
      request: HttpServerRequest.HttpServerRequest,
      started: bigint,
      requestId: string,
      response: HttpServerResponse.HttpServerResponse
    ) => {
      const seconds = Number(fiber.getRef(Clock.Clock).monotonicTimeNanosUnsafe() - started) / 1e9
      recorder.record(recorder.routeOf(fiber.context), request.method, response.status, seconds)
      return HttpServerResponse.setHeader(OAuthErrors.translate(request, response), "x-request-id", requestId)
    }

    // One step around the request on the success path: what failed is rendered, an error answer another layer
    // made is reshaped, and every answer is counted and carries the request's `X-Request-Id`.
    // The router's type wants `unhandled` kept in the error channel; every failure is answered here.
    return (httpEffect): Effect.Effect<
      HttpServerResponse.HttpServerResponse,
      Types.unhandled,
      HttpServerRequest.HttpServerRequest
    > =>
      Effect.withFiber((fiber) => {
        const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
        const started = fiber.getRef(Clock.Clock).monotonicTimeNanosUnsafe()
        const requestId = NodeServer.requestId(request.headers)
        return Effect.matchCauseEffect(httpEffect, {
          onFailure: (cause) =>
            Effect.withFiber((fiber) =>
              Effect.map(
                render(cause, request, requestId, allowedMethods, faults),
                (response) => record(fiber, request, started, requestId, response)
              )
            ),
          onSuccess: (response) =>
            Effect.withFiber((fiber) =>
              Effect.as(
                response.status < 400 && isWrite(request) ? faults.written : Effect.void,
                record(
                  fiber,
                  request,
                  started,
                  requestId,
                  response.status < 400 ? withPageHeaders(response) : reshape(request, requestId)(response)
                )
              )
            )
        })
      })
  }),
  { global: true }
)
