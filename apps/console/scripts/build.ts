// Builds the console into apps/console/dist with Vite's JS API, then writes each text file's brotli and
// gzip forms beside it (`.br`, `.gz`) at their highest settings, which apps/server sends as they are. Run by
// the root `prepare` script (so the README's install command builds it) and by `pnpm build:console`.
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib"
import { build } from "vite"

const root = fileURLToPath(new URL("..", import.meta.url))
const started = performance.now()
await build({ root, configFile: fileURLToPath(new URL("../vite.config.ts", import.meta.url)), logLevel: "warn" })

const dist = join(root, "dist")
for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !/\.(?:js|css|html|svg|json)$/.test(entry.name)) continue
  const file = join(entry.parentPath, entry.name)
  const body = readFileSync(file)
  if (body.byteLength <= 1024) continue
  writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }))
  writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }))
}
console.log(`Console built into apps/console/dist in ${Math.round(performance.now() - started)} ms`)
