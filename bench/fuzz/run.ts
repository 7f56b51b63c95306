// bench/fuzz: the long run of the input fuzz test (apps/server/test/fuzz.ts). Starts Herald on the embedded
// database in the sandbox, sends N malformed requests over every operation of its OpenAPI document, one at a
// time, and prints the count of requests, of 5xx answers and of errors outside the reference's shape.
//
//   node bench/fuzz/run.ts --requests 10000 [--seed S]
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { createInterface } from "node:readline"
import { parseArgs } from "node:util"
import { describe, judge, sample, send } from "../../apps/server/test/fuzz.ts"

const { values } = parseArgs({ options: { requests: { type: "string", default: "10000" }, seed: { type: "string" } } })
const total = Number(values.requests)
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed)
if (!Number.isInteger(total) || total < 1) throw new Error(`--requests wants a whole number, not ${values.requests}`)

const root = resolve(import.meta.dirname, "../..")
const dataDir = mkdtempSync(join(tmpdir(), "herald-fuzz-"))
const herald = spawn(process.execPath, [join(root, "apps/cli/src/bin.ts"), "start", "--json"], {
  env: { ...process.env, PORT: "0", HOST: "127.0.0.1", HERALD_DATA_DIR: dataDir, HERALD_RATE_LIMIT_PER_MINUTE: "1000000000", DATABASE_URL: "", HERALD_SANDBOX: "true" },
  stdio: ["ignore", "pipe", "pipe"]
})
const log: Array<string> = []
createInterface({ input: herald.stderr! }).on("line", (line) => log.push(line))
process.on("exit", () => {
  herald.kill("SIGKILL")
  rmSync(dataDir, { recursive: true, force: true })
})
process.on("SIGINT", () => process.exit(130))

const started = JSON.parse(await new Promise<string>((resolveLine, reject) => {
  createInterface({ input: herald.stdout! }).once("line", resolveLine)
  herald.once("exit", (code) => reject(new Error(`Herald exited with ${code} before starting`)))
}))
const base: string = started.listening
const key: string = started.firstRun.key.key
const authorization = { authorization: `Bearer ${key}`, "content-type": "application/json" }
const json = async (path: string, init: RequestInit = {}) => (await (await fetch(`${base}${path}`, init)).json()) as any

// Real ids, so some requests reach past "not found".
const accounts: Array<{ id: string }> = (await json("/api/v1/accounts", { headers: authorization })).data
const draft = await json("/api/v1/posts", {
  method: "POST",
  headers: authorization,
  body: JSON.stringify({ content: "fuzz", accountIds: [accounts[0]!.id], draft: true })
})
const document = await json("/api/v1/openapi.json")
const ids = [...accounts.map((account) => account.id), draft.data.id, "x", "threads"]

const statuses = new Map<number, number>()
const problems: Array<string> = []
let serverErrors = 0
let outsideShape = 0
const startedAt = performance.now()
const batch = 500
for (let done = 0; done < total; done += batch) {
  for (const fuzzed of sample({ document, key, ids }, Math.min(batch, total - done), seed + done)) {
    const answer = await send(base, fuzzed)
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
    const problem = judge(fuzzed, answer)
    if (problem === undefined) continue
    if (answer.status >= 500) serverErrors++
    else outsideShape++
    if (problems.length < 10) problems.push(`${problem}\n    request: ${describe(fuzzed)}`)
  }
}
const seconds = (performance.now() - startedAt) / 1000

console.log(`seed ${seed}; ${total} requests in ${seconds.toFixed(1)} s`)
console.log(`statuses: ${[...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status} × ${count}`).join(", ")}`)
for (const problem of problems) console.log(`- ${problem}`)
const internalLogged = log.filter((line) => line.includes("Unexpected failure answering a request")).length
console.log(`${serverErrors} × 5xx over ${total} requests; ${outsideShape} errors outside the error shape; ${internalLogged} unexpected failures logged`)
process.exit(serverErrors + outsideShape === 0 ? 0 : 1)
