// bench/tracing: what exporting traces costs. Herald processes (embedded database, no sandbox), one with
// OTEL_EXPORTER_OTLP_ENDPOINT set to a local OTLP/HTTP collector in this process (every trace, then 10% of
// them: OTEL_TRACES_SAMPLER_ARG=0.1) and one without, one after the other under the same autocannon load of authenticated GET /api/v1/accounts in one run. The figure is CPU per request of
// each process (/proc/<pid>/stat before and after its load) and their ratio; throughput is printed too but
// is noisy on a shared machine. Also: spans and export requests the collector received per request.
//
//   npx -y pnpm@12.21.0 exec node bench/tracing/run.ts   (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_RATE to change the load)
import autocannon from "autocannon"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { processCpu } from "../harness.ts"

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, "../..")
const seconds = Number(process.env.BENCH_SECONDS ?? 6)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20)
// A fixed rate every process keeps up with: the background work of a second (cluster and webhook polls) is
// then shared by as many requests in each run, and the difference per request is the tracing's.
const rate = Number(process.env.BENCH_RATE ?? 1500)

// The collector: counts what it is sent, answers at once.
const received = { requests: 0, spans: 0 }
const names = new Map<string, number>()
const collector = createServer((request, response) => {
  const chunks: Array<Buffer> = []
  request.on("data", (chunk: Buffer) => chunks.push(chunk))
  request.on("end", () => {
    received.requests++
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"))
    for (const resourceSpans of body.resourceSpans ?? []) {
      for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
        received.spans += scopeSpans.spans.length
        for (const span of scopeSpans.spans) names.set(span.name, (names.get(span.name) ?? 0) + 1)
      }
    }
    response.writeHead(200, { "content-type": "application/json" }).end("{}")
  })
})
await new Promise<void>((listening) => collector.listen(0, "127.0.0.1", () => listening()))
const collectorAddress = collector.address()
const collectorUrl = `http://127.0.0.1:${typeof collectorAddress === "object" && collectorAddress !== null ? collectorAddress.port : 0}`

const folders: Array<string> = []
const children: Array<ChildProcess> = []
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL")
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

const start = async (environment: Record<string, string>) => {
  const dataDir = mkdtempSync(join(tmpdir(), "herald-bench-tracing-"))
  folders.push(dataDir)
  const child = spawn(process.execPath, [join(root, "apps/cli/src/bin.ts"), "start", "--json"], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", BASE_URL: "", DATABASE_URL: "", HERALD_DATA_DIR: dataDir, HERALD_RATE_LIMIT_PER_MINUTE: "1000000000", HERALD_SANDBOX: "false", OTEL_EXPORTER_OTLP_ENDPOINT: "", ...environment },
    stdio: ["ignore", "pipe", "inherit"]
  })
  children.push(child)
  const line = await new Promise<string>((resolveLine, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolveLine)
    child.once("exit", (code) => reject(new Error(`herald exited with ${code} before answering`)))
  })
  const started = JSON.parse(line)
  return { child, url: `${started.listening}/api/v1/accounts`, headers: { authorization: `Bearer ${started.firstRun.key.key}` } }
}

const load = (url: string, headers: Record<string, string>, duration: number) =>
  new Promise<autocannon.Result>((resolveRun, reject) => {
    autocannon({ url, connections, duration, headers, overallRate: rate }, (error, result) => error ? reject(error) : resolveRun(result))
  })

const measure = async (server: Awaited<ReturnType<typeof start>>) => {
  await load(server.url, server.headers, 2)
  const before = { cpu: processCpu(server.child.pid), ...received }
  const result = await load(server.url, server.headers, seconds)
  // The tracer exports every 5 s: wait for the load's last spans before counting them.
  await new Promise((wait) => setTimeout(wait, 5_500))
  const cpu = processCpu(server.child.pid) - before.cpu
  return { result, cpu, spans: received.spans - before.spans, exports: received.requests - before.requests }
}

// One after the other, so that the traced process's background spans are not counted against the other.
const off = await start({})
const offRun = await measure(off)
off.child.kill("SIGKILL")
const on = await start({ OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl })
const onRun = await measure(on)
on.child.kill("SIGKILL")
const sampled = await start({ OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl, OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.1" })
const sampledRun = await measure(sampled)

const perRequest = (run: { result: autocannon.Result; cpu: number }) => (run.cpu * 1e6) / run.result.requests.total
const row = (name: string, run: Awaited<ReturnType<typeof measure>>) =>
  `${name.padEnd(16)} ${run.result.requests.average.toFixed(0).padStart(7)} req/s   CPU ${perRequest(run).toFixed(1).padStart(6)} µs/request   ${
    (run.spans / run.result.requests.total).toFixed(1)
  } spans/request in ${run.exports} exports   errors ${run.result.errors + run.result.non2xx}`

console.log(`tracing: GET /api/v1/accounts, ${connections} connections at ${rate} req/s, ${seconds} s each, node ${process.version}`)
console.log(row("tracing off", offRun))
console.log(row("tracing on", onRun))
console.log(row("on, 10% sampled", sampledRun))
console.log(`CPU ratio on/off: ${(perRequest(onRun) / perRequest(offRun)).toFixed(2)}x per request; 10% sampled/off: ${
  (perRequest(sampledRun) / perRequest(offRun)).toFixed(2)
}x`)
// BENCH_SPAN_NAMES=1: which spans were exported, most frequent first.
if (process.env.BENCH_SPAN_NAMES) console.log([...names].sort((a, b) => b[1] - a[1]).slice(0, 15))
process.exit(0)
