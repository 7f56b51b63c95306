// Several `herald start` processes on one PostgreSQL database, for the tests of what they share: a database
// of the file's own (made and dropped with psql), processes started with `--json` whose logs go to files,
// and the shard locks the cluster's runners hold. Used when HERALD_TEST_DATABASE_URL names a server.
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { createInterface } from "node:readline"
import { patience } from "../../../vitest.shared.ts"
export { poll } from "../../../testing/eventually.ts"
import { postgresMissing } from "../../../testing/postgresMissing.ts"

export const adminUrl = process.env["HERALD_TEST_DATABASE_URL"]
/**
 * Why the tests cannot run here (no server named, or no psql, PostgreSQL's own client, to make their
 * database), or undefined: test files `describe(name, skipIf(Processes.missing), ...)`.
 */
export const missing = postgresMissing

const bin = resolve(import.meta.dirname, "../src/bin.ts")

const run = (file: string, args: ReadonlyArray<string>) =>
  new Promise<string>((resolveRun) => {
    execFile(file, args, { timeout: patience }, (_error, stdout) => resolveRun(stdout.trim()))
  })

export interface Started {
  readonly child: ChildProcess
  /** The ready document `herald start --json` printed. */
  readonly ready: any
  readonly log: string
}

/** A database and a folder of one test file's own, and the processes it starts on them. */
export const make = (name: string) => {
  const database = `herald_${name}_${randomBytes(6).toString("hex")}`
  const folder = mkdtempSync(join(tmpdir(), `herald-${name}-`))
  const url = new URL(adminUrl ?? "postgres://localhost/")
  url.pathname = `/${database}`
  const databaseUrl = url.toString()
  const processes: Array<ChildProcess> = []

  /** What psql prints for one query (`-At`: bare values, one row a line). */
  const psql = (query: string) => run("psql", [databaseUrl, "-At", "-c", query])

  const environment = (label: string, env: Record<string, string>) => ({
    ...process.env,
    DATABASE_URL: databaseUrl,
    HERALD_SECRET_KEY: "22".repeat(32),
    HERALD_DATA_DIR: join(folder, label),
    HERALD_SANDBOX: "true",
    HOST: "127.0.0.1",
    // Vitest sets BASE_URL for Vite; each process serves at its own address unless told otherwise.
    BASE_URL: "",
    ...env
  })

  /** Runs a `herald` command with `--json` on the database; resolves with what it printed. */
  const herald = (...args: ReadonlyArray<string>) =>
    new Promise<any>((resolveRun, reject) => {
      execFile(process.execPath, [bin, ...args, "--json"], { env: environment("cli", {}), timeout: patience }, (error, stdout, stderr) =>
        error === null ? resolveRun(JSON.parse(stdout)) : reject(new Error(`herald ${args.join(" ")}: ${stderr}`)))
    })

  /** Starts `herald start --json` with `env`; resolves once it is ready. Its log goes to `<label>.log`. */
  const start = (label: string, env: Record<string, string>) =>
    new Promise<Started>((resolveStart, reject) => {
      const log = join(folder, `${label}.log`)
      const child = spawn(process.execPath, [bin, "start", "--json"], {
        env: environment(label, env),
        stdio: ["ignore", "pipe", "pipe"]
      })
      processes.push(child)
      child.stderr!.pipe(createWriteStream(log))
      createInterface({ input: child.stdout! }).once("line", (line) => {
        const ready = JSON.parse(line)
        if (ready.error === undefined) resolveStart({ child, ready, log })
        else reject(new Error(`${label} did not start: ${line}`))
      })
      child.once("exit", (code, signal) =>
        reject(new Error(`${label} exited (${code ?? signal}): ${readFileSync(log, "utf8").slice(-2000)}`)))
    })

  const stop = (child: ChildProcess) =>
    new Promise<void>((resolveStop) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolveStop()
      child.once("exit", () => resolveStop())
      child.kill("SIGCONT")
      child.kill("SIGTERM")
    })

  /**
   * Until `runners` processes hold shard locks (advisory locks per connection) and the split has settled;
   * resolves with the split (the locks each connection holds, by its process id).
   */
  const shardsShared = async (runners: number) => {
    const until = Date.now() + patience
    let previous = ""
    let steady = 0
    while (Date.now() < until) {
      const held = await psql(`SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) GROUP BY pid ORDER BY pid`)
      const holders = held === "" ? 0 : held.split("\n").length
      steady = holders >= runners && held === previous ? steady + 1 : 0
      if (steady >= 4) return held
      previous = held
      await new Promise((wait) => setTimeout(wait, 500))
    }
    throw new Error(`the shards were not shared by ${runners} processes within ${patience / 1000} s (locks per process: ${previous})`)
  }

  return {
    databaseUrl,
    psql,
    herald,
    start,
    stop,
    shardsShared,
    create: () => run("psql", [adminUrl!, "-c", `CREATE DATABASE ${database}`]),
    /** Stops every process started, drops the database and removes the folder. */
    dispose: async () => {
      await Promise.all(processes.map(stop))
      await run("psql", [adminUrl!, "-c", `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`])
      rmSync(folder, { recursive: true, force: true })
    }
  }
}
