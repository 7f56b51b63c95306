// bench/webhooks/bare.ts: the anchor of bench/webhooks' ratio run, a bare node:http webhook sender. It
// sends the bodies Herald would (the same JSON shape, the same headers, signed the same way with
// HMAC-SHA256 over "<t>.<body>") to one receiver, `--concurrency` in flight over a keep-alive agent (Herald's
// per-endpoint limit, 32), for `--seconds`, and prints one JSON line: how many got a 2xx, in how many ms,
// and the CPU this process used while sending (its start-up excluded). Nothing is read from or written to
// a database: it is the cost of signing and sending alone.
//
//   node bench/webhooks/bare.ts --url http://127.0.0.1:<port>/webhooks/healthy [--concurrency 32] [--seconds 5]
import { createHmac, randomBytes, randomUUID } from "node:crypto"
import * as http from "node:http"
import { parseArgs } from "node:util"

const { values: flags } = parseArgs({
  options: {
    url: { type: "string" },
    concurrency: { type: "string", default: "32" },
    seconds: { type: "string", default: "5" }
  }
})
if (flags.url === undefined) throw new Error("--url: the receiver's URL")
const target = new URL(flags.url)
const concurrency = Number(flags.concurrency)
const durationMs = Number(flags.seconds) * 1000

// A secret as Herald makes one: 32 random bytes, base64url, prefixed.
const secret = `whsec_${randomBytes(32).toString("base64url")}`
const agent = new http.Agent({ keepAlive: true })

/** One event's body and headers, as Herald's fan-out and sender make them. */
const signed = (n: number) => {
  const body = JSON.stringify({
    id: randomUUID(),
    event: "post.updated",
    createdAt: new Date().toISOString(),
    data: { n, postId: `pst_bench_${n}` }
  })
  const t = Math.floor(Date.now() / 1000)
  return {
    body,
    headers: {
      "content-type": "application/json",
      "user-agent": "Herald-Webhooks/1",
      "service-event": "post.updated",
      "service-delivery": `dlv_${randomBytes(12).toString("hex")}`,
      "service-signature": `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`,
      "content-length": String(Buffer.byteLength(body))
    }
  }
}

/** Sends one event; resolves with whether the receiver answered 2xx. */
const send = (n: number) =>
  new Promise<boolean>((resolve) => {
    const { body, headers } = signed(n)
    const request = http.request({ agent, method: "POST", host: target.hostname, port: target.port, path: target.pathname, headers })
    request.on("error", () => resolve(false))
    request.on("response", (response) => {
      // Read the start of the answer, as Herald does.
      response.on("data", () => undefined)
      response.on("end", () => resolve(response.statusCode !== undefined && response.statusCode >= 200 && response.statusCode < 300))
    })
    request.end(body)
  })

let next = 0
let delivered = 0
const cpuBefore = process.cpuUsage()
const began = performance.now()
const worker = async () => {
  while (performance.now() - began < durationMs) {
    if (await send(++next)) delivered++
  }
}
await Promise.all(Array.from({ length: concurrency }, worker))
const elapsedMs = performance.now() - began
const cpu = process.cpuUsage(cpuBefore)
agent.destroy()
console.log(JSON.stringify({ delivered, sent: next, elapsedMs, cpuMs: (cpu.user + cpu.system) / 1000 }))
