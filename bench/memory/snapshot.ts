// bench/memory/snapshot: what a V8 heap snapshot (`node --heapsnapshot-signal=SIGUSR2`, then the signal) holds,
// by constructor (self size and count), by node type, and the largest single objects, to find where an idle
// Herald's heap goes.
// Usage: node bench/memory/snapshot.ts <file.heapsnapshot> [rows]
import { readFileSync } from "node:fs"

const [file, rowsText] = process.argv.slice(2)
if (file === undefined) throw new Error("usage: node bench/memory/snapshot.ts <file.heapsnapshot> [rows]")
const rows = Number(rowsText ?? 25)
const snapshot = JSON.parse(readFileSync(file, "utf8"))
const fields: Array<string> = snapshot.snapshot.meta.node_fields
const types: Array<string> = snapshot.snapshot.meta.node_types[0]
const width = fields.length
const at = { type: fields.indexOf("type"), name: fields.indexOf("name"), size: fields.indexOf("self_size") }
const nodes: Array<number> = snapshot.nodes
const strings: Array<string> = snapshot.strings

const byName = new Map<string, { size: number; count: number }>()
const byType = new Map<string, number>()
const largest: Array<{ size: number; label: string }> = []
for (let index = 0; index < nodes.length; index += width) {
  const type = types[nodes[index + at.type]!]!
  const name = strings[nodes[index + at.name]!]!
  const size = nodes[index + at.size]!
  const key = `${type}:${type === "string" || type === "concatenated string" || type === "sliced string" ? "" : name.slice(0, 60)}`
  const entry = byName.get(key) ?? { size: 0, count: 0 }
  entry.size += size
  entry.count++
  byName.set(key, entry)
  byType.set(type, (byType.get(type) ?? 0) + size)
  if (size > 100_000) largest.push({ size, label: `${type} ${name.slice(0, 100).replace(/\s+/g, " ")}` })
}

const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(2)
console.log("by type (MB):")
for (const [type, size] of [...byType].sort((a, b) => b[1] - a[1])) console.log(`  ${megabytes(size).padStart(8)}  ${type}`)
console.log(`by constructor, top ${rows} (MB, count):`)
for (const [key, { count, size }] of [...byName].sort((a, b) => b[1].size - a[1].size).slice(0, rows)) {
  console.log(`  ${megabytes(size).padStart(8)}  ${String(count).padStart(8)}  ${key}`)
}
console.log("largest objects (over 100 kB):")
for (const { label, size } of largest.sort((a, b) => b.size - a.size).slice(0, rows)) console.log(`  ${megabytes(size).padStart(8)}  ${label}`)
