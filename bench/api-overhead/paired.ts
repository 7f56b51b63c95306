// bench/api-overhead/paired: Herald's CPU per authenticated GET /api/v1/accounts on two or more checkouts,
// served side by side on PostgreSQL and loaded in turn in short rounds whose order alternates, so each
// checkout sees the same machine. On a shared 2-core machine one run of run.ts moves by a third between runs;
// the median of paired rounds moves by a few per cent, which is what a before/after needs. Each checkout is
// served twice, started in the order A B … B A: the same checkout started first and second measured 13% apart
// (which process starts first weighs on its figure), so each checkout gets both places.
//
//   pnpm bench:api-paired <checkout> <checkout> ...   (each a folder with its dependencies installed, the
//   first the anchor; ROUNDS, default 12, and ROUND_SECONDS, default 3, to change the load)
import autocannon from "autocannon"
import { type ChildProcess, spawn } from "node:child_process"
import { basename, join, resolve } from "node:path"
import { createInterface } from "node:readline"
import { createDatabase, databaseName, databaseUrl, processCpu, runFolder } from "../harness.ts"

const checkouts = process.argv.slice(2).map((folder) => resolve(folder))
if (checkouts.length < 2) throw new Error("usage: pnpm bench:api-paired <checkout> <checkout> ...")
const rounds = Number(process.env.ROUNDS ?? 12)
const seconds = Number(process.env.ROUND_SECONDS ?? 3)

const children: Array<ChildProcess> = []
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL")
})

/** The first line the child writes; the rest is read and dropped, so a full pipe never blocks its writes. */
const firstLine = (child: ChildProcess) =>
  new Promise<string>((resolveLine, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.once("line", resolveLine)
    lines.on("line", () => {})
    child.once("exit", (code) => reject(new Error(`child exited with ${code} before answering`)))
  })

interface Server {
  readonly checkout: number
  readonly name: string
  readonly url: string
  readonly headers: Record<string, string>
  readonly pid: number
}

const startHerald = async (checkout: string, index: number): Promise<Server> => {
  const database = databaseName()
  createDatabase(database)
  const child = spawn(process.execPath, [join(checkout, "apps/cli/src/bin.ts"), "start", "--json"], {
    cwd: checkout,
    // A limit no round reaches, and no sandbox networks: every checkout answers the same `{"data":[]}`.
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      HERALD_DATA_DIR: runFolder("paired"),
      HERALD_RATE_LIMIT_PER_MINUTE: "1000000000",
      DATABASE_URL: databaseUrl(database),
      HERALD_SECRET_KEY: "22".repeat(32),
      HERALD_SANDBOX: "false"
    },
    stdio: ["ignore", "pipe", "inherit"]
  })
  children.push(child)
  const started = JSON.parse(await firstLine(child))
  if (started.firstRun?.key === undefined) throw new Error(`${checkout} did not start`)
  return {
    checkout: index,
    name: `${index + 1}:${basename(checkout)}`,
    url: `${started.listening}/api/v1/accounts`,
    headers: { authorization: `Bearer ${started.firstRun.key.key}` },
    pid: child.pid!
  }
}

const load = (server: Server, duration: number) =>
  new Promise<autocannon.Result>((resolveRun, reject) => {
    autocannon({ url: server.url, connections: 50, duration, headers: server.headers }, (error, result) => {
      if (error) reject(error)
      else resolveRun(result)
    })
  })

const servers: Array<Server> = []
const places = [...checkouts.keys()]
for (const index of [...places, ...places.toReversed()]) servers.push(await startHerald(checkouts[index]!, index))
for (const server of servers) await load(server, 3)

const figures = checkouts.map(() => [] as Array<number>)
console.log(`api-overhead paired: GET /api/v1/accounts on PostgreSQL, 50 connections, ${rounds} rounds of ${seconds} s each`)
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? [...servers.keys()] : [...servers.keys()].reverse()
  const line: Array<string> = []
  for (const index of order) {
    const server = servers[index]!
    const before = processCpu(server.pid)
    const result = await load(server, seconds)
    const figure = ((processCpu(server.pid) - before) * 1e6) / result.requests.total
    figures[server.checkout]!.push(figure)
    line.push(`${server.name} ${figure.toFixed(1)} µs`)
  }
  console.log(`round ${String(round + 1).padStart(2)}  ${line.join("   ")}`)
}

const median = (values: ReadonlyArray<number>) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!
const anchor = median(figures[0]!)
for (const [index, server] of servers.slice(0, checkouts.length).entries()) {
  const figure = median(figures[index]!)
  console.log(`${server.name.padEnd(24)} median CPU ${figure.toFixed(1).padStart(6)} µs/request   ${(figure / anchor).toFixed(3)} of ${servers[0]!.name}`)
}
process.exit(0)
