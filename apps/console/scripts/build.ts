// Builds the console into apps/console/dist with Vite's JS API. Run by the root `prepare` script (so the
// README's install command builds it) and by `pnpm build:console`.
import { fileURLToPath } from "node:url"
import { build } from "vite"

const root = fileURLToPath(new URL("..", import.meta.url))
const started = performance.now()
await build({ root, configFile: fileURLToPath(new URL("../vite.config.ts", import.meta.url)), logLevel: "warn" })
console.log(`Console built into apps/console/dist in ${Math.round(performance.now() - started)} ms`)
