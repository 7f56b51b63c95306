// What a first visit to the console costs: the JavaScript and CSS index.html loads, gzipped and brotli'd as
// Herald sends them, and the time from asking for /app/sign-in to a sign-in form that takes input, on
// localhost, in a fresh browser context each time (nothing cached). The first visit after a start is shown
// apart. Needs a built console (`npx -y pnpm@12.21.0 build:console`) and Chromium.
//
//   npx -y pnpm@12.21.0 bench:console [--visits 10]
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { launchBrowser, missing, startHerald } from "../../apps/console/test/harness.ts"

const { values } = parseArgs({ options: { visits: { type: "string", default: "10" } } })
if (missing !== undefined) {
  console.error(missing)
  process.exit(1)
}
const dist = join(import.meta.dirname, "../../apps/console/dist")
const index = readFileSync(join(dist, "index.html"), "utf8")
const assets = [...index.matchAll(/(?:src|href)="\/app\/(assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]!)

const herald = await startHerald()
const browser = await launchBrowser()
try {
  const sizes: Array<string> = []
  for (const asset of assets) {
    const sent = async (encoding: string) => {
      // The bytes on the wire: fetch would hand back the decoded body.
      const response = await fetch(herald.url(`/app/${asset}`), { headers: { "accept-encoding": encoding } })
      await response.arrayBuffer()
      return Number(response.headers.get("content-length"))
    }
    sizes.push(`${asset}: ${await sent("identity")} B, gzip ${await sent("gzip")} B, br ${await sent("br")} B`)
  }
  const visit = async () => {
    const { context, page } = await browser.open(herald)
    const started = performance.now()
    await page.goto(herald.url("/app/sign-in"))
    await page.getByLabel("E-mail").fill("owner@demo.example")
    const usable = performance.now() - started
    await context.close()
    return usable
  }
  const first = await visit()
  const times: Array<number> = []
  for (let i = 0; i < Number(values.visits); i++) times.push(await visit())
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(0)
  console.log(sizes.join("\n"))
  console.log(
    `usable sign-in form: first visit after start ${first.toFixed(0)} ms; then median ${at(0.5)} ms, ` +
      `p90 ${at(0.9)} ms over ${times.length} fresh-context visits`
  )
  if (browser.otherHosts().length > 0) console.log(`requests to other hosts: ${browser.otherHosts().join(", ")}`)
} finally {
  await browser.close()
  await herald.stop()
}
