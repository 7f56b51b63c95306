// What the API answered when it said no, in the reference's error shape. Pages show `message`; forms show
// each of `details` beside the field it names.
export interface Problem {
  readonly field: string
  readonly message: string
}

export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly details: ReadonlyArray<Problem>

  constructor(status: number, code: string, message: string, details: ReadonlyArray<Problem> = []) {
    super(message)
    this.name = "ApiError"
    this.status = status
    this.code = code
    this.details = details
  }

  /** The problem about one field (`password` matches `password` and `body.password`). */
  about(field: string): string | undefined {
    return this.details.find((problem) => problem.field === field || problem.field.endsWith(`.${field}`))?.message
  }

  static from(status: number, body: unknown): ApiError {
    const error = typeof body === "object" && body !== null && "error" in body ? (body as { error: unknown }).error : undefined
    if (typeof error !== "object" || error === null) {
      return new ApiError(status, "unknown", `The server answered ${status} without a message`)
    }
    const { code, message, details } = error as { code?: unknown; message?: unknown; details?: unknown }
    const problems = Array.isArray(details)
      ? details.flatMap((detail): Array<Problem> =>
        typeof detail === "object" && detail !== null && typeof detail.message === "string"
          ? [{ field: typeof detail.field === "string" ? detail.field : "", message: detail.message }]
          : []
      )
      : []
    return new ApiError(
      status,
      typeof code === "string" ? code : "unknown",
      typeof message === "string" ? message : `The server answered ${status}`,
      problems
    )
  }
}

/** Any error as words for a person: the API's message, or what went wrong on the way. */
export const messageOf = (error: unknown): string =>
  error instanceof ApiError
    ? error.message
    : error instanceof TypeError
    ? "Herald could not be reached. Check that it is running, then try again."
    : error instanceof Error
    ? error.message
    : String(error)
