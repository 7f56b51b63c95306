// bench/fuzz: the long run of the input fuzz test (apps/server/test/fuzz.ts). Starts Herald on the embedded
// database in the sandbox, sends N malformed requests over every operation of its OpenAPI document, one at a
// time, and prints the count of requests, of 5xx answers and of errors outside the reference's shape.
//
//   node bench/fuzz/run.ts --requests 10000 [--seed S] [--postgres]
import { readFileSync } from "node:fs"
import { parseArgs } from "node:util"
import { describe, judge, sample, send } from "../../apps/server/test/fuzz.ts"
import { createDatabase, databaseName, databaseUrl, runFolder, start } from "../harness.ts"

const { values } = parseArgs({
  options: { requests: { type: "string", default: "10000" }, seed: { type: "string" }, postgres: { type: "boolean", default: false } }
})
const total = Number(values.requests)
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed)
if (!Number.isInteger(total) || total < 1) throw new Error(`--requests wants a whole number, not ${values.requests}`)

// The embedded database by default; `--postgres` makes a database of its own on HERALD_BENCH_DATABASE_URL's server.
const folder = runFolder("fuzz")
const name = databaseName()
if (values.postgres) createDatabase(name)
const herald = await start(folder, "herald", values.postgres ? { DATABASE_URL: databaseUrl(name) } : {})
const started = herald.started
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

console.log(`seed ${seed}; ${values.postgres ? "PostgreSQL" : "embedded database"}; ${total} requests in ${seconds.toFixed(1)} s`)
console.log(`statuses: ${[...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status} × ${count}`).join(", ")}`)
for (const problem of problems) console.log(`- ${problem}`)
const internalLogged = readFileSync(herald.log, "utf8").split("\n").filter((line) => line.includes("Unexpected failure answering a request")).length
console.log(`${serverErrors} × 5xx over ${total} requests; ${outsideShape} errors outside the error shape; ${internalLogged} unexpected failures logged`)
process.exit(serverErrors + outsideShape === 0 ? 0 : 1)
