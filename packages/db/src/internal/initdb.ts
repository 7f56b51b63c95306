// Run by `Database.layerEmbedded` in a child process to make a new data folder's database (initdb): the
// child opens PGlite on the folder given as its argument, as the service will, and closes it.
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Effect } from "effect"
import { openPglite } from "../Database.ts"

const [dataDir] = process.argv.slice(2)
if (dataDir === undefined) {
  process.stderr.write("usage: initdb.ts <pgdata folder>\n")
  process.exitCode = 2
} else {
  NodeRuntime.runMain(Effect.scoped(openPglite({ dataDir })))
}
