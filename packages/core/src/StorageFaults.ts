import { Cause, Context, Duration, Effect, Layer, Option } from "effect"
import * as ErrorShape from "./ErrorShape.ts"

// A fault of the storage rather than of Herald (docs/decisions/0067-storage-faults.md): the database cannot be
// reached, or the disk under it (or under the media folder) is full. Known by the error's structure, never by its
// text: the SQLSTATE PostgreSQL (and PGlite) reports, the Node.js error code of the socket or the file, or the
// driver's own ConnectionError reason.

export type Kind = "unreachable" | "full"

export interface StorageFault {
  readonly kind: Kind
  /** What told it: a SQLSTATE (`57P01`), a Node.js error code (`ECONNREFUSED`), or `connection` (the driver's). */
  readonly code: string
}

/** SQLSTATEs of a server that is going away, starting, or out of connections; and of a broken connection (class 08). */
const unreachableStates = new Set(["57P01", "57P02", "57P03", "57P05", "53300"])
/** Node.js socket codes of a database that cannot be reached, and PGlite's own of a closed instance. */
const unreachableErrnos = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN"
])
/** PostgreSQL's disk_full, and the file system's no space (or quota) left. */
const fullCodes = new Set(["53100", "ENOSPC", "EDQUOT"])

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === "object" && value !== null ? value as Record<string, unknown> : undefined

/**
 * The storage fault an error stands for, or `undefined`. Only what a SQL client or a file operation failed with
 * counts: a network call's ECONNREFUSED inside some other error is no storage fault.
 */
export const find = (error: unknown): StorageFault | undefined => {
  let connectionReason = false
  const walk = (value: unknown, under: "sql" | "file" | undefined, depth: number): StorageFault | undefined => {
    const node = record(value)
    if (node === undefined || depth > 8) return undefined
    const tag = node["_tag"]
    const here = tag === "SqlError" ? "sql" : tag === "PlatformError" ? "file" : under
    const code = node["code"]
    if (here !== undefined && typeof code === "string") {
      if (fullCodes.has(code)) return { kind: "full", code }
      if (here === "sql" && (unreachableStates.has(code) || code.startsWith("08") || unreachableErrnos.has(code))) {
        return { kind: "unreachable", code }
      }
    }
    if (here === "sql" && tag === "ConnectionError") connectionReason = true
    return walk(node["reason"], here, depth + 1) ?? (node["cause"] !== node["reason"] ? walk(node["cause"], here, depth + 1) : undefined)
  }
  const found = walk(error, undefined, 0)
  return found ?? (connectionReason ? { kind: "unreachable", code: "connection" } : undefined)
}

/** The storage fault among a cause's failures and defects, or `undefined`. */
export const ofCause = (cause: Cause.Cause<unknown>): StorageFault | undefined => {
  for (const reason of cause.reasons) {
    const fault = Cause.isFailReason(reason) ? find(reason.error) : Cause.isDieReason(reason) ? find(reason.defect) : undefined
    if (fault !== undefined) return fault
  }
  return undefined
}

/** How long a client should wait before trying again after `unavailable` (the REST `Retry-After`). */
export const retryAfterSeconds = 5

/** What a storage fault answers, on every surface (REST, MCP). */
export const shape = (fault: StorageFault): ErrorShape.Shape<"unavailable" | "insufficient_storage"> =>
  fault.kind === "unreachable"
    ? {
      code: "unavailable",
      status: ErrorShape.statusOf.unavailable,
      message: `The service's storage cannot be reached right now; nothing was changed. Try again in ${retryAfterSeconds} seconds.`
    }
    : {
      code: "insufficient_storage",
      status: ErrorShape.statusOf.insufficient_storage,
      message: "The service's storage is full, so nothing can be saved; the operator has to free space. Reading still works."
    }

// A fault is logged once as it begins and then once per interval with a count while it lasts, never a line (and
// a stack trace) per request: an outage answered 550-610 stack traces a minute before.
const interval = Duration.seconds(10)
const intervalText = "10 s"

interface Window {
  readonly code: string
  count: number
}

/** The storage faults requests met: counted into one log line per kind per 10 s, and whether the disk is full. */
export class StorageFaults extends Context.Service<StorageFaults, {
  /** A request (REST or MCP) was answered for this fault. */
  readonly seen: (fault: StorageFault) => Effect.Effect<void>
  /** A write succeeded: the disk is no longer full. */
  readonly written: Effect.Effect<void>
  /** The last full-disk fault since which no write succeeded, for `/health`. */
  readonly full: Effect.Effect<Option.Option<StorageFault>>
}>()("@herald/core/StorageFaults") {
  static readonly make = Effect.sync(() => {
    const windows = new Map<Kind, Window>()
    let full: StorageFault | undefined
    const answered = (kind: Kind) => kind === "unreachable" ? "503 unavailable" : "507 insufficient_storage"
    const describe = (kind: Kind) => kind === "unreachable" ? "storage unreachable" : "storage full"
    // At the end of each interval: the count, and another interval if any request met the fault in it.
    const close = (kind: Kind, window: Window): Effect.Effect<void> =>
      Effect.sleep(interval).pipe(
        Effect.andThen(Effect.suspend(() => {
          if (window.count === 0) {
            windows.delete(kind)
            return Effect.void
          }
          const count = window.count
          window.count = 0
          return Effect.andThen(
            Effect.logWarning(
              `${describe(kind)}: ${count} request${count === 1 ? "" : "s"} answered ${answered(kind)} in the last ${intervalText} (first error ${window.code})`
            ),
            close(kind, window)
          )
        }))
      )
    return StorageFaults.of({
      seen: (fault) =>
        Effect.suspend(() => {
          if (fault.kind === "full") full = fault
          const open = windows.get(fault.kind)
          if (open !== undefined) {
            open.count += 1
            return Effect.void
          }
          const window: Window = { code: fault.code, count: 0 }
          windows.set(fault.kind, window)
          return Effect.andThen(
            Effect.logError(
              `${describe(fault.kind)} (${fault.code}): answering ${answered(fault.kind)}; counted here every ${intervalText} while it lasts`
            ),
            Effect.asVoid(Effect.forkDetach(close(fault.kind, window)))
          )
        }),
      written: Effect.sync(() => {
        full = undefined
      }),
      full: Effect.sync(() => Option.fromUndefinedOr(full))
    })
  })

  static readonly layer = Layer.effect(StorageFaults, StorageFaults.make)
}
