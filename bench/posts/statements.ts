// The statements one create runs, read from PostgreSQL's statement log (`log_statement = 'all'` on the run's
// database), and the pgbench script that replays them with fresh ids.
import { closeSync, openSync, readSync, statSync } from "node:fs"

export interface Captured {
  /** Each statement with its parameters written in as literals, in the order the create ran them. */
  readonly statements: ReadonlyArray<string>
  /** The ids the create made (the post's, its events', the cluster's snowflakes): replaced by fresh ones in the script. */
  readonly fresh: ReadonlyArray<string>
  /** One line: what each statement does. */
  readonly summary: string
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

/** What the log gained since `offset`. */
const readFrom = (file: string, offset: number) => {
  const size = statSync(file).size
  const buffer = Buffer.alloc(Math.max(0, size - offset))
  const handle = openSync(file, "r")
  readSync(handle, buffer, 0, buffer.length, offset)
  closeSync(handle)
  return buffer.toString("utf8")
}

const entryStart = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? \w+ \[\d+\] /

/** The log's entries of `database`, each with its continuation lines, and the parameters joined to their statement. */
const statementsOf = (text: string, database: string) => {
  const entries: Array<string> = []
  for (const line of text.split("\n")) {
    if (entryStart.test(line)) entries.push(line)
    else if (entries.length > 0 && line.startsWith("\t")) entries[entries.length - 1] += `\n${line.slice(1)}`
  }
  const statements: Array<string> = []
  for (const entry of entries) {
    if (!entry.includes(`@${database} `)) continue
    const logged = /(?:LOG|STATEMENT):  (?:statement|execute [^:]*): ([\s\S]*)$/.exec(entry)
    const parameters = /DETAIL:  parameters: ([\s\S]*)$/.exec(entry)
    if (logged !== null) statements.push(logged[1]!)
    else if (parameters !== null && statements.length > 0) statements[statements.length - 1] = bind(statements.at(-1)!, parameters[1]!)
  }
  return statements
}

/** The statement with its `$n` placeholders replaced by the logged values, as literals. */
const bind = (statement: string, parameters: string) => {
  const values = new Map<string, string>()
  for (const match of parameters.matchAll(/\$(\d+) = (NULL|'(?:[^']|'')*')/g)) values.set(match[1]!, match[2]!)
  return statement.replace(/\$(\d+)\b/g, (placeholder, number) => values.get(number) ?? placeholder)
}

/** A statement without its literals, to find the same statement in another create. */
const shapeOf = (statement: string) => statement.replace(/'(?:[^']|'')*'/g, "?").replace(/\b\d+\b/g, "?").replace(/\s+/g, " ").trim()

/**
 * Work a create wakes but does not wait for: the cluster's storage read (its due check, opened by the new
 * message), the outbox dispatcher (woken by the event) and the webhook claim. Under load each runs once for
 * many creates, so it is measured as Herald's database CPU per create, not replayed by pgbench per create.
 */
const background = [/UPDATE "cluster_messages" m\s+SET last_read/, /UPDATE events SET dispatched/, /UPDATE webhook_messages m SET/]

/** The statements grouped by transaction (`BEGIN` to `COMMIT`), without the groups that are background work. */
const withoutBackground = (statements: ReadonlyArray<string>) => {
  const groups: Array<Array<string>> = []
  let open: Array<string> | undefined
  for (const statement of statements) {
    if (/^\s*BEGIN\b/i.test(statement)) groups.push(open = [statement])
    else if (open !== undefined) {
      open.push(statement)
      if (/^\s*(COMMIT|ROLLBACK)\b/i.test(statement)) open = undefined
    } else groups.push([statement])
  }
  return groups.filter((group) => !group.some((statement) => background.some((pattern) => pattern.test(statement)))).flat()
}

/**
 * Runs `create` (which answers the created post's id) a few times, one at a time, and keeps the statements
 * of the first that most of the others ran too, less the background work it wakes: what else happens to fall
 * inside one create (a periodic poll) is left out.
 */
export const captureCreate = async (options: {
  readonly log: string
  readonly database: string
  readonly create: () => Promise<string>
  /** Ids that exist before a create (the workspace, its accounts): kept as they are. */
  readonly known: ReadonlyArray<string>
}): Promise<Captured> => {
  // The auth cache, the accounts' rows and the pool's connections are warm in a running server.
  for (let warm = 0; warm < 10; warm++) await options.create()
  const windows: Array<{ readonly postId: string; readonly statements: ReadonlyArray<string> }> = []
  for (let round = 0; round < 5; round++) {
    await sleep(300)
    const offset = statSync(options.log).size
    const postId = await options.create()
    // What the create hands on (the cluster's message) may be written just after its answer.
    await sleep(100)
    windows.push({ postId, statements: statementsOf(readFrom(options.log, offset), options.database) })
  }
  // A statement of most creates is the create's; one slowed past its window by a busy machine is still.
  const [first, ...others] = windows
  const statements = withoutBackground(first!.statements).filter((statement) =>
    others.filter((window) => window.statements.some((other) => shapeOf(other) === shapeOf(statement))).length >= 2
  )
  if (statements.length === 0) throw new Error(`no statement found in ${options.log} for ${options.database}: is it PostgreSQL's log, and readable?`)
  const known = new Set(options.known)
  const fresh = new Set<string>([first!.postId])
  for (const statement of statements) {
    for (const match of statement.matchAll(/'([a-z]{2,5}_[A-Za-z0-9]{12,})'/g)) if (!known.has(match[1]!)) fresh.add(match[1]!)
    for (const match of statement.matchAll(/'([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})'/g)) fresh.add(match[1]!)
    // The cluster's snowflake ids.
    for (const match of statement.matchAll(/'?\b(\d{16,19})\b'?/g)) fresh.add(match[1]!)
  }
  const summary = statements.map((statement) => shapeOf(statement).split(" ").slice(0, 3).join(" ")).join("; ")
  return { statements, fresh: [...fresh], summary }
}

/**
 * The statements as a pgbench script (`-M simple`): each id the create made becomes a fresh one per
 * transaction, built from pgbench's random variables.
 */
export const pgbenchScript = (captured: Captured) => {
  const header: Array<string> = []
  let body = captured.statements.map((statement) => `${statement.replace(/;\s*$/, "")};`).join("\n")
  captured.fresh.forEach((id, index) => {
    const variable = `v${index}`
    const numeric = /^\d+$/.test(id)
    const uuid = id.includes("-")
    header.push(
      numeric
        ? `\\set ${variable} random(1000000000000000, 3000000000000000)`
        : uuid
        ? `\\set ${variable} random(1000000000, 9999999999)`
        : `\\set ${variable} random(1, 1000000000000)`
    )
    // A text id keeps its prefix (`pst_`), so it is as long as a real one and passes the same checks.
    // A UUID keeps its form: its last group is two digits for the id and a ten-digit random number.
    const replacement = numeric
      ? `:${variable}`
      : uuid
      ? `${id.slice(0, 24)}${String(index).padStart(2, "0")}:${variable}`
      : `${id.slice(0, id.indexOf("_") + 1)}${index}x:${variable}`
    body = body.split(id).join(replacement)
  })
  return `${header.join("\n")}\n${body}\n`
}
