// `GET /api/v1/posts` query parameters (product.md, "Posts"), also the `list_posts` tool's: `from` inclusive
// and `to` exclusive bound the post's time; `status` is one status or a comma list; `limit` 1 to 100 (20 by
// default); `cursor` is the previous page's `nextCursor`. Bad values are `invalid` naming the parameter.

const zoned = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/

interface Problem {
  readonly field: string
  readonly message: string
}

const time = (name: string, value: string | undefined, problems: Array<Problem>) => {
  if (value === undefined) return undefined
  const at = new Date(value)
  if (!zoned.test(value) || Number.isNaN(at.getTime())) {
    problems.push({ field: name, message: `${name} "${value}" is not an ISO 8601 time with a zone` })
    return undefined
  }
  return at
}

export const parseListQuery = <Status extends string>(query: {
  readonly from?: string | undefined
  readonly to?: string | undefined
  readonly status?: string | undefined
  readonly limit?: string | undefined
  readonly cursor?: string | undefined
}, statuses: ReadonlyArray<Status>) => {
  const problems: Array<Problem> = []
  const from = time("from", query.from, problems)
  const to = time("to", query.to, problems)
  let limit = 20
  if (query.limit !== undefined) {
    limit = /^\d+$/.test(query.limit) ? Number(query.limit) : Number.NaN
    if (!(limit >= 1 && limit <= 100)) problems.push({ field: "limit", message: `limit "${query.limit}" must be a whole number from 1 to 100` })
  }
  let wanted: Array<Status> | undefined
  if (query.status !== undefined) {
    const names = query.status.split(",").map((name) => name.trim())
    const unknown = names.filter((name) => !statuses.includes(name as Status))
    if (unknown.length > 0) {
      problems.push({ field: "status", message: `status "${unknown.join(", ")}" is not one of ${statuses.join(", ")}` })
    }
    wanted = names as Array<Status>
  }
  let cursor: { sortAt: Date; id: string } | undefined
  if (query.cursor !== undefined) {
    const [sortAt, id] = Buffer.from(query.cursor, "base64url").toString("utf8").split("|")
    const at = new Date(sortAt ?? "")
    if (id === undefined || Number.isNaN(at.getTime())) problems.push({ field: "cursor", message: "cursor is not one this API gave out" })
    else cursor = { sortAt: at, id }
  }
  if (problems.length > 0) return { problems }
  return {
    limit,
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
    ...(wanted === undefined ? {} : { statuses: wanted }),
    ...(cursor === undefined ? {} : { cursor })
  }
}

/** The `nextCursor` of a page: where the next one starts (the last post's time and id), opaque to clients. */
export const encodeCursor = (next: { readonly sortAt: Date; readonly id: string }) =>
  Buffer.from(`${next.sortAt.toISOString()}|${next.id}`).toString("base64url")
