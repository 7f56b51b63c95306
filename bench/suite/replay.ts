// bench/suite/replay: whether another order of the test files would end a run sooner. It reads a run's JSON
// report (HERALD_TEST_REPORT), rebuilds what each of the two workers did (a file's slot is its own time plus
// the worker's time before it: starting the worker, importing the file, its `beforeAll`), and replays those
// slots on N workers, each taking the next file when it is free as vitest's pool does, in vitest's orders
// and in others. Decision 0062 ("The order of the files") quotes what it printed.
//
//   node bench/suite/replay.ts <report.json> [workers (2)]
import { readFileSync, statSync } from "node:fs"
import { relative, resolve } from "node:path"

const [path, workersFlag] = process.argv.slice(2)
if (path === undefined) throw new Error("usage: node bench/suite/replay.ts <report.json> [workers]")
const workers = Number(workersFlag ?? "2")
const root = resolve(import.meta.dirname, "../..")

interface Slot {
  readonly file: string
  readonly start: number
  readonly slot: number
}

const report = JSON.parse(readFileSync(path, "utf8")) as { testResults: Array<{ name: string; startTime: number; endTime: number }> }
const first = Math.min(...report.testResults.map((file) => file.startTime))
const files = report.testResults
  .map((file) => ({ file: relative(root, file.name), start: (file.startTime - first) / 1000, end: (file.endTime - first) / 1000 }))
  .sort((a, b) => a.start - b.start)
// The run's two lanes: each file went to the worker that had been free the longest.
const lanes = [0, 0]
const slots: Array<Slot> = files.map((file) => {
  const lane = lanes[0]! <= lanes[1]! ? 0 : 1
  const free = Math.min(lanes[lane]!, file.start)
  lanes[lane] = file.end
  return { file: file.file, start: file.start, slot: file.end - free }
})

const replay = (order: ReadonlyArray<Slot>) => {
  const free = Array.from({ length: workers }, () => 0)
  let last = ""
  for (const each of order) {
    const worker = free.indexOf(Math.min(...free))
    free[worker]! += each.slot
    if (free[worker] === Math.max(...free)) last = each.file
  }
  const wall = Math.max(...free)
  return { wall, idle: wall * workers - free.reduce((sum, busy) => sum + busy, 0), last }
}

// Vitest's project names: `adapter-<network>` for adapters/<network>, the folder's name otherwise.
const projectOf = (file: string) => {
  const [top, folder] = file.split("/")
  return top === "adapters" ? `adapter-${folder}` : folder!
}
const size = (file: string) => {
  try {
    return statSync(resolve(root, file)).size
  } catch {
    return 0
  }
}
// BaseSequencer: projects in the order of their names, then, within one, the longest first by the cache of
// earlier runs, or the largest file first where there is none (a fresh clone).
const byProject = (within: (a: Slot, b: Slot) => number) => (a: Slot, b: Slot) =>
  projectOf(a.file) < projectOf(b.file) ? -1 : projectOf(a.file) > projectOf(b.file) ? 1 : within(a, b)
const longestFirst = [...slots].sort((a, b) => b.slot - a.slot)
const orders: ReadonlyArray<readonly [string, ReadonlyArray<Slot>]> = [
  ["the run's own order", slots],
  ["vitest, a fresh clone (project, then size)", [...slots].sort(byProject((a, b) => size(b.file) - size(a.file)))],
  ["vitest, with its cache (project, then duration)", [...slots].sort(byProject((a, b) => b.slot - a.slot))],
  ["the longest first, whatever the project", longestFirst],
  ["the longest last (the worst order)", [...longestFirst].reverse()]
]
console.log(`${slots.length} files, ${slots.reduce((sum, each) => sum + each.slot, 0).toFixed(0)} s of slots, on ${workers} workers:`)
for (const [name, order] of orders) {
  const { idle, last, wall } = replay(order)
  console.log(`  ${name.padEnd(50)} ${wall.toFixed(0).padStart(5)} s, ${idle.toFixed(0).padStart(4)} worker-seconds idle, last: ${last}`)
}
