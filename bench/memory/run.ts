// bench/memory: idle resident memory of `herald start` (sandbox, default role), on a fresh PostgreSQL database
// and on a fresh embedded data folder (then again on that folder, as a later start). Each process is left alone for HERALD_BENCH_IDLE seconds (30) after it
// is ready, then its VmRSS is read from /proc and its own figures (heap, external, array buffers) through
// bench/memory/reporter.ts, which the process loads by NODE_OPTIONS and which answers SIGUSR2.
// Targets (issue 20): under 200 MB on PostgreSQL, under 450 MB embedded.
// Usage: pnpm bench:memory [postgres|embedded]
import { readFileSync, rmSync } from "node:fs"
import { join, resolve } from "node:path"
import {
  createDatabase,
  databaseName,
  databaseUrl,
  dropDatabase,
  postgresAnswers,
  processCpu,
  runFolder,
  sleep,
  start,
  stop,
  type Backend
} from "../harness.ts"

const idleSeconds = Number(process.env.HERALD_BENCH_IDLE ?? 30)
const targets: Record<Backend, number> = { postgres: 200, embedded: 450 }
const reporter = resolve(import.meta.dirname, "reporter.ts")
const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)

/** The kB figures of /proc/<pid>/status that split resident memory: anonymous, file-backed (code), shared. */
const status = (pid: number) => {
  const text = readFileSync(`/proc/${pid}/status`, "utf8")
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? Number.NaN) * 1024
  return { rss: field("VmRSS"), anonymous: field("RssAnon"), file: field("RssFile"), shared: field("RssShmem"), peak: field("VmHWM") }
}

/** Asks the process for its own figures and waits for the file the reporter writes. */
const ownFigures = async (pid: number, file: string) => {
  rmSync(file, { force: true })
  process.kill(pid, "SIGUSR2")
  for (let tries = 0; tries < 50; tries++) {
    await sleep(100)
    try {
      return JSON.parse(readFileSync(file, "utf8"))
    } catch {
      // Not written yet.
    }
  }
  throw new Error("the reporter did not answer SIGUSR2")
}

/** Starts Herald, leaves it idle, prints its figures and stops it. */
const measureOnce = async (backend: Backend, label: string, folder: string, env: Record<string, string>) => {
  const report = join(folder, "memory.json")
  const started = Date.now()
  const herald = await start(folder, backend, {
    ...env,
    HERALD_ROLE: "",
    HERALD_RATE_LIMIT_PER_MINUTE: "",
    HERALD_MEMORY_REPORT: report,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${reporter}`.trim()
  })
  const ready = (Date.now() - started) / 1000
  const pid = herald.child.pid!
  const cpuBefore = processCpu(pid)
  await sleep(idleSeconds * 1000)
  const idleCpu = (processCpu(pid) - cpuBefore) / idleSeconds
  const resident = status(pid)
  const own = await ownFigures(pid, report)
  await stop(herald.child)
  const target = targets[backend]
  const verdict = resident.rss / 1024 / 1024 < target ? "under" : "OVER"
  console.log(`${label}: ready in ${ready.toFixed(1)} s, idle ${idleSeconds} s using ${(idleCpu * 100).toFixed(1)}% of a core`)
  console.log(`  VmRSS ${megabytes(resident.rss)} MB (target < ${target} MB: ${verdict}); peak ${megabytes(resident.peak)} MB`)
  console.log(`    anonymous ${megabytes(resident.anonymous)}, file-backed ${megabytes(resident.file)}, shared ${megabytes(resident.shared)} MB`)
  console.log(
    `  V8 heap used ${megabytes(own.heapUsed)} of ${megabytes(own.heapTotal)} MB; external ${megabytes(own.external)} MB, ` +
      `of which array buffers ${megabytes(own.arrayBuffers)} MB`
  )
  console.log(
    `    spaces (resident MB): ${Object.entries(own.spaces as Record<string, number>).filter(([, size]) => size > 0)
      .map(([space, size]) => `${space.replace(/_space$/, "")} ${megabytes(size)}`).join(", ")}`
  )
  console.log(`    malloced by V8 ${megabytes(own.heap.malloced_memory)} MB (peak ${megabytes(own.heap.peak_malloced_memory)})`)
}

/**
 * PostgreSQL: one start on a fresh database. Embedded: a first start on a fresh data folder (which runs
 * initdb and the migrations in the process) and a later start on the same folder, as a restarted install.
 */
const measure = async (backend: Backend) => {
  const folder = runFolder("memory")
  const name = databaseName()
  try {
    if (backend === "postgres") {
      createDatabase(name)
      await measureOnce(backend, "postgres", folder, { DATABASE_URL: databaseUrl(name) })
    } else {
      await measureOnce(backend, "embedded, first start", folder, {})
      await measureOnce(backend, "embedded, later start", folder, {})
    }
  } finally {
    if (backend === "postgres") dropDatabase(name)
    rmSync(folder, { recursive: true, force: true })
  }
}

const chosen = process.argv.slice(2) as Array<Backend>
const backends: Array<Backend> = chosen.length > 0 ? chosen : ["postgres", "embedded"]
for (const backend of backends) {
  if (backend === "postgres" && !postgresAnswers()) {
    console.log("postgres: skipped, no PostgreSQL at HERALD_BENCH_DATABASE_URL")
    continue
  }
  await measure(backend)
}
