import { existsSync, readdirSync, statSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { missing } from "./harness.ts"

// Builds apps/console/dist before the console's tests when it is missing or older than any source file (not
// where there is no browser to run them in: each file then skips itself, and the run's report says why once).
const root = fileURLToPath(new URL("..", import.meta.url))

const newest = (path: string): number =>
  statSync(path).isDirectory()
    ? Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))))
    : statSync(path).mtimeMs

export const stale = (): boolean => {
  const built = join(root, "dist", "index.html")
  if (!existsSync(built)) return true
  const sources = Math.max(
    newest(join(root, "src")),
    newest(join(root, "index.html")),
    newest(join(root, "vite.config.ts")),
    newest(join(root, "..", "..", "packages", "client", "src"))
  )
  return sources > statSync(built).mtimeMs
}

export default async function setup() {
  if (missing !== undefined || !stale()) return
  const { build } = await import("vite")
  // Vite builds for production only when NODE_ENV says so or is unset; vitest sets it to "test", and the
  // React plugin would then compile JSX to jsxDEV, which production React lacks (every page would throw).
  const environment = process.env["NODE_ENV"]
  process.env["NODE_ENV"] = "production"
  try {
    await build({ root, configFile: join(root, "vite.config.ts"), logLevel: "warn" })
  } finally {
    if (environment === undefined) delete process.env["NODE_ENV"]
    else process.env["NODE_ENV"] = environment
  }
}
