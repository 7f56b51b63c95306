// The statements Herald's publishing ran, read from PostgreSQL's statement log (`log_statement = 'all'` on
// the run's database), and the pgbench script that replays them, one pgbench client per Herald connection.
import { closeSync, openSync, readSync, statSync } from "node:fs"

export interface Statement {
  /** The backend that ran it: one of Herald's pooled connections. */
  readonly session: number
  /** The text with its parameters written in as literals. */
  readonly text: string
}

/** Where the log ends now: what a capture reads from. */
export const logEnd = (file: string) => statSync(file).size

/** What the log gained since `offset`. */
const readFrom = (file: string, offset: number) => {
  const size = statSync(file).size
  const buffer = Buffer.alloc(Math.max(0, size - offset))
  const handle = openSync(file, "r")
  readSync(handle, buffer, 0, buffer.length, offset)
  closeSync(handle)
  return buffer.toString("utf8")
}

// Debian's default log_line_prefix, `%m [%p] %q%u@%d `.
const entryStart = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \w+ \[(\d+)\] /

/** The statement with its `$n` placeholders replaced by the logged values, as literals. */
const bind = (statement: string, parameters: string) => {
  const values = new Map<string, string>()
  for (const match of parameters.matchAll(/\$(\d+) = (NULL|'(?:[^']|'')*')/g)) values.set(match[1]!, match[2]!)
  return statement.replace(/\$(\d+)\b/g, (placeholder, number) => values.get(number) ?? placeholder)
}

/** Every statement `database`'s sessions ran since `offset`, in the log's order. */
export const readStatements = (file: string, offset: number, database: string): Array<Statement> => {
  const entries: Array<{ session: number; text: string }> = []
  for (const line of readFrom(file, offset).split("\n")) {
    const start = entryStart.exec(line)
    if (start !== null) entries.push({ session: Number(start[1]), text: line })
    else if (entries.length > 0 && line.startsWith("\t")) entries.at(-1)!.text += `\n${line.slice(1)}`
  }
  const statements: Array<Statement> = []
  const last = new Map<number, number>()
  for (const entry of entries) {
    if (!entry.text.includes(`@${database} `)) continue
    const logged = /LOG:  (?:statement|execute [^:]*): ([\s\S]*)$/.exec(entry.text)
    const parameters = /DETAIL:  parameters: ([\s\S]*)$/.exec(entry.text)
    if (logged !== null) {
      last.set(entry.session, statements.length)
      statements.push({ session: entry.session, text: logged[1]! })
    } else if (parameters !== null && last.has(entry.session)) {
      const at = last.get(entry.session)!
      statements[at] = { session: entry.session, text: bind(statements[at]!.text, parameters[1]!) }
    }
  }
  return statements
}

// A session's own advisory locks are the cluster's shard locks: a replay must not take them (one client would
// hold them all), and LISTEN only matters to a process that waits for notifications.
const sessionOnly = /pg_(?:try_)?advisory_(?:un)?lock\(|^\s*(?:UN)?LISTEN\b/i

/** The statements from the first to the last that names one of `ids`: the publishing of those posts, with what ran beside it. */
export const window = (statements: ReadonlyArray<Statement>, ids: ReadonlyArray<string>) => {
  const names = (statement: Statement) => ids.some((id) => statement.text.includes(id))
  const first = statements.findIndex(names)
  const last = statements.findLastIndex(names)
  if (first < 0) return []
  return wholeTransactions(statements.slice(first, last + 1).filter((statement) => !sessionOnly.test(statement.text)))
}

const begins = /^\s*(?:BEGIN|START TRANSACTION)\b/i
const ends = /^\s*(?:COMMIT|ROLLBACK|END)\b/i

/** Leaves out the part of a transaction a window cut: before its start, a session's first transaction's tail; at its end, one left open. */
const wholeTransactions = (statements: ReadonlyArray<Statement>) => {
  const keep = statements.map(() => true)
  const sessions = new Set(statements.map((statement) => statement.session))
  for (const session of sessions) {
    const own = statements.flatMap((statement, index) => statement.session === session ? [index] : [])
    const firstBegin = own.findIndex((index) => begins.test(statements[index]!.text))
    const firstEnd = own.findIndex((index) => ends.test(statements[index]!.text))
    if (firstEnd >= 0 && (firstBegin < 0 || firstEnd < firstBegin)) for (const index of own.slice(0, firstEnd + 1)) keep[index] = false
    const lastBegin = own.findLastIndex((index) => begins.test(statements[index]!.text))
    const lastEnd = own.findLastIndex((index) => ends.test(statements[index]!.text))
    if (lastBegin >= 0 && lastBegin > lastEnd) for (const index of own.slice(lastBegin)) keep[index] = false
  }
  return statements.filter((_, index) => keep[index])
}

/**
 * One pgbench script per session: each runs that session's statements in their order, once (`-t 1`), so every
 * write meets the rows as Herald met them (the replay runs on a copy of the database made before they ran).
 * Each script sleeps `holdMs` at its end, so its backend's CPU can be read before it exits.
 */
export const pgbenchScripts = (statements: ReadonlyArray<Statement>, holdMs: number) => {
  const sessions = [...new Set(statements.map((statement) => statement.session))]
  return sessions.map((session) => {
    const lines = statements.filter((statement) => statement.session === session).map((statement) => `${statement.text.replace(/;\s*$/, "")};`)
    return `${lines.join("\n")}\n\\sleep ${holdMs} ms\n`
  })
}

/** What each statement does, counted: `UPDATE post_targets × 3000`. */
export const summary = (statements: ReadonlyArray<Statement>) => {
  const counts = new Map<string, number>()
  for (const statement of statements) {
    const words = statement.text.replace(/\s+/g, " ").trim().match(/^(WITH \w+ AS \( )?(\w+)(?: (?:INTO|FROM))? ([\w."]+)?/i)
    const key = words === null ? statement.text.slice(0, 30) : `${words[1] === undefined ? "" : "WITH … "}${words[2]} ${words[3] ?? ""}`.trim()
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return [...counts].sort((a, b) => b[1] - a[1])
}
