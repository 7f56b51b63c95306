import { ErrorShape } from "@herald/core"

// What a failed command says: the API's error code and a sentence that names the cause and what to do,
// never an empty message.

export interface Described {
  readonly code: string
  readonly message: string
}

const field = (value: unknown, name: string): unknown =>
  typeof value === "object" && value !== null && name in value ? (value as Record<string, unknown>)[name] : undefined

const text = (value: unknown): string | undefined => typeof value === "string" && value.trim() !== "" ? value : undefined

/** The system error of a failed `listen` along a chain of causes. */
const listenFailure = (error: unknown): unknown => {
  for (let current = error, depth = 0; current !== undefined && depth < 8; current = field(current, "cause"), depth++) {
    if (field(current, "syscall") === "listen") return current
  }
  return undefined
}

/** The CLI's own errors; a domain error's code comes from ErrorShape, as REST and MCP answer it. */
const cliCodeByTag: Record<string, string> = { DataDirBusy: "conflict" }

export const describe = (error: unknown): Described => {
  const listening = listenFailure(error)
  if (listening !== undefined) {
    const port = field(listening, "port")
    const address = text(field(listening, "address"))
    const where = `${address === undefined ? "" : `${address}:`}${String(port ?? "?")}`
    const setting = "choose a free port (PORT for the API, HERALD_RUNNER_PORT for the cluster runner)"
    switch (field(listening, "code")) {
      case "EADDRINUSE":
        return { code: "conflict", message: `Port ${String(port ?? "?")} is already in use (${where}): stop what listens there, or ${setting}` }
      case "EACCES":
        return { code: "invalid", message: `Port ${String(port ?? "?")} may not be listened on by this user (${where}): ${setting}` }
      case "EADDRNOTAVAIL":
        return { code: "invalid", message: `Address ${where} is not one of this machine's: set HOST to one of its addresses` }
      default:
        return { code: "internal", message: `Could not listen on ${where}: ${String(field(listening, "message") ?? field(listening, "code"))}` }
    }
  }
  const tag = String(field(error, "_tag"))
  // A service's error (decision 0088) answers by its reason's tag.
  const reasonTag = text(field(field(error, "reason"), "_tag"))
  const code = text(field(error, "code")) ?? (reasonTag === undefined ? undefined : ErrorShape.codeOfTag(reasonTag)) ??
    ErrorShape.codeOfTag(tag) ?? cliCodeByTag[tag] ?? "internal"
  const message = text(field(error, "message")) ??
    text(field(field(error, "cause"), "message")) ??
    `${String(field(error, "_tag") ?? "The command")} failed without saying why`
  return { code, message }
}
