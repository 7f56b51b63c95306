// bench/memory/reporter: loaded into the Herald process under test through NODE_OPTIONS (`--import`), so that
// the bench reads the process's own view of its memory without an admin endpoint: on SIGUSR2 it writes
// process.memoryUsage() and V8's heap figures as one JSON document to HERALD_MEMORY_REPORT.
import { writeFileSync } from "node:fs"
import { getHeapSpaceStatistics, getHeapStatistics } from "node:v8"

const file = process.env.HERALD_MEMORY_REPORT

const report = () =>
  writeFileSync(
    file!,
    JSON.stringify({
      ...process.memoryUsage(),
      heap: getHeapStatistics(),
      spaces: Object.fromEntries(getHeapSpaceStatistics().map((space) => [space.space_name, space.physical_space_size]))
    })
  )

if (file !== undefined) process.on("SIGUSR2", report)
