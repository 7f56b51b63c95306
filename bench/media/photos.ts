// bench/media/photos: what four photo uploads at once cost the server's memory. First four decompression
// bombs (12000×12000 PNGs of about 18 KB: 144 megapixels, refused from their header), then four photos at the
// limit (6000×6000, 36 megapixels, converted two at a time). Prints each phase's answers, time and the
// server's peak resident memory (sampled every 50 ms) against its memory before.
//
//   pnpm bench:media-photos
import { readFileSync } from "node:fs"
import { hugePng } from "../../packages/core/test/fixtures/hugePng.ts"
import { runFolder, start, stop } from "../harness.ts"

const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`

const server = await start(runFolder("media-photos"), "server", {})
const pid = server.child.pid!
const base: string = server.started.listening
const key: string = server.started.firstRun.key.key

const phase = async (label: string, photo: Uint8Array) => {
  const before = rssOf(pid)
  let peak = before
  const timer = setInterval(() => peak = Math.max(peak, rssOf(pid)), 50)
  const started = performance.now()
  const answers = await Promise.all(Array.from({ length: 4 }, () =>
    fetch(`${base}/api/v1/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "image/png" },
      body: photo
    }).then((response) => response.status)
  ))
  clearInterval(timer)
  peak = Math.max(peak, rssOf(pid))
  console.log(
    `${label.padEnd(38)} ${String(photo.length).padStart(7)} bytes  answers ${answers.join(",")}  ${
      ((performance.now() - started) / 1000).toFixed(1)
    } s  server RSS ${mb(before)} -> peak ${mb(peak)}`
  )
}

try {
  console.log(`media photos: four uploads at once, embedded database, node ${process.version}`)
  await phase("4 × 12000×12000 PNG (144 MP, refused)", hugePng(12_000, 12_000))
  await phase("4 × 6000×6000 PNG (36 MP, the limit)", hugePng(6_000, 6_000))
} finally {
  await stop(server.child)
}
