// bench/media: a 500 MB video uploaded to Herald and downloaded again, on PostgreSQL (media in the database)
// and on the embedded database (media in the data folder). Prints MB/s each way, the time to the first byte of
// a 1 MB range from the middle, and the server's resident memory: before, and the peak during the transfers.
//
//   pnpm bench:media                  # BENCH_MEDIA_MB (500) sets the size; BENCH_BACKENDS=postgres,embedded
import { createHash, randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { request } from "node:http"
import { resolve } from "node:path"
import {
  createDatabase,
  databaseName,
  databaseUrl,
  dropDatabase,
  postgresAnswers,
  psql,
  runFolder,
  start,
  stop
} from "../harness.ts"

const megabytes = Number(process.env.BENCH_MEDIA_MB ?? 500)
const backends = (process.env.BENCH_BACKENDS ?? "postgres,embedded").split(",")
const size = megabytes * 1024 * 1024
const chunk = 1024 * 1024
// An MP4's first box, so the upload passes the signature check; the metadata goes in the query.
const head = readFileSync(resolve(import.meta.dirname, "../../apps/server/test/fixtures/video.mp4")).subarray(0, 32)

const rssOf = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024
}

/** Samples the process's resident memory every 50 ms until stopped; resolves with the peak. */
const watchMemory = (pid: number) => {
  let peak = rssOf(pid)
  const timer = setInterval(() => {
    peak = Math.max(peak, rssOf(pid))
  }, 50)
  return () => {
    clearInterval(timer)
    return Math.max(peak, rssOf(pid))
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`
const rate = (bytes: number, ms: number) => `${(bytes / 1024 / 1024 / (ms / 1000)).toFixed(1)} MB/s`

/** Sends `size` bytes of noise (with an MP4 head) as the body, 1 MiB at a time; resolves with its answer. */
const upload = (base: string, key: string) =>
  new Promise<{ status: number; body: string; sha256: string }>((resolveUpload, reject) => {
    const hash = createHash("sha256")
    const url = new URL(`${base}/api/v1/media?durationMs=60000&width=1920&height=1080`)
    const outgoing = request(url, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "video/mp4", "content-length": String(size) }
    }, (response) => {
      let body = ""
      response.on("data", (data) => body += data)
      response.on("end", () => resolveUpload({ status: response.statusCode ?? 0, body, sha256: hash.digest("hex") }))
    })
    outgoing.on("error", reject)
    let sent = 0
    const next = () => {
      while (sent < size) {
        const piece = randomBytes(Math.min(chunk, size - sent))
        if (sent === 0) piece.set(head)
        sent += piece.length
        hash.update(piece)
        if (!outgoing.write(piece)) return outgoing.once("drain", next)
      }
      outgoing.end()
    }
    next()
  })

/** Reads `url` (with an optional Range) to its end; resolves with status, bytes, digest and first-byte time. */
const download = (url: string, range?: string) =>
  new Promise<{ status: number; bytes: number; sha256: string; firstByteMs: number }>((resolveDownload, reject) => {
    const started = performance.now()
    let firstByteMs = 0
    const hash = createHash("sha256")
    let bytes = 0
    request(url, { headers: range === undefined ? {} : { range } }, (response) => {
      response.on("data", (data: Buffer) => {
        if (bytes === 0) firstByteMs = performance.now() - started
        bytes += data.length
        hash.update(data)
      })
      response.on("end", () =>
        resolveDownload({ status: response.statusCode ?? 0, bytes, sha256: hash.digest("hex"), firstByteMs }))
    }).on("error", reject).end()
  })

const run = async (backend: string) => {
  const folder = runFolder("media")
  const name = databaseName()
  if (backend === "postgres") createDatabase(name)
  const server = await start(folder, "server", {
    HERALD_ROLE: backend === "postgres" ? "api" : "all",
    DATABASE_URL: backend === "postgres" ? databaseUrl(name) : ""
  })
  try {
    const pid = server.child.pid!
    const base: string = server.started.listening
    const key: string = server.started.firstRun.key.key
    const before = rssOf(pid)
    const peak = watchMemory(pid)

    const uploadStart = performance.now()
    const uploaded = await upload(base, key)
    const uploadMs = performance.now() - uploadStart
    if (uploaded.status !== 200) throw new Error(`upload answered ${uploaded.status}: ${uploaded.body}`)
    const url = `${base}${new URL(JSON.parse(uploaded.body).data.url).pathname}`

    const downloadStart = performance.now()
    const whole = await download(url)
    const downloadMs = performance.now() - downloadStart
    if (whole.status !== 200 || whole.sha256 !== uploaded.sha256) {
      throw new Error(`download answered ${whole.status} with ${whole.bytes} bytes that differ from the upload`)
    }
    const middle = Math.floor(size / 2)
    const part = await download(url, `bytes=${middle}-${middle + chunk - 1}`)
    if (part.status !== 206 || part.bytes !== chunk) throw new Error(`range answered ${part.status}, ${part.bytes} bytes`)
    const peakRss = peak()

    const stored = backend === "postgres"
      ? ` database ${mb(Number(psql(databaseUrl(name), "SELECT pg_total_relation_size('media_chunks')").trim()))}`
      : ""
    console.log(
      `${backend.padEnd(9)} ${mb(size)}  upload ${rate(size, uploadMs).padStart(11)}  download ${
        rate(size, downloadMs).padStart(11)
      }  1 MB range ${part.firstByteMs.toFixed(0)} ms to first byte  server RSS ${mb(before)} -> peak ${mb(peakRss)}${stored}`
    )
  } finally {
    await stop(server.child)
    if (backend === "postgres") dropDatabase(name)
  }
}

console.log(`media: one ${mb(size)} video up and down, node ${process.version}`)
for (const backend of backends) {
  if (backend === "postgres" && !postgresAnswers()) {
    console.log("postgres  skipped: no server answers HERALD_BENCH_DATABASE_URL")
    continue
  }
  await run(backend)
}
