// Loaded into a `herald start` under test by NODE_OPTIONS (`--import`): appends the URL of every module the
// process loads, after its process id, to the file HERALD_LOADED_MODULES names (IdleModules.test.ts).
import { appendFileSync } from "node:fs"
import { registerHooks } from "node:module"

const file = process.env["HERALD_LOADED_MODULES"]
if (file !== undefined) {
  registerHooks({
    load: (url, context, nextLoad) => {
      appendFileSync(file, `${process.pid} ${url}\n`)
      return nextLoad(url, context)
    }
  })
}
