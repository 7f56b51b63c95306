// bench/dos/prober: the other client of bench:dos, in a process of its own so that the attacks the bench sends
// never delay its clock. It asks `/health` and downloads a photo in a loop, one request after another, and on
// each "report" message sends back the longest answer of each kind since the last report, and the 99th
// percentile of both kinds together.
//
//   forked by bench/dos/run.ts with the two URLs as arguments
const [healthUrl, mediaUrl] = process.argv.slice(2) as [string, string]

interface Probe {
  health: number
  media: number
  healthCount: number
  mediaCount: number
  failures: number
  p99: number
}

const fresh = (): Probe => ({ health: 0, media: 0, healthCount: 0, mediaCount: 0, failures: 0, p99: 0 })
let probe = fresh()
let answers: Array<number> = []
let probing = true
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

const timed = async (url: string) => {
  const began = performance.now()
  try {
    const answer = await fetch(url, { signal: AbortSignal.timeout(600_000) })
    await answer.arrayBuffer()
    if (answer.status !== 200) probe.failures++
  } catch {
    probe.failures++
  }
  return performance.now() - began
}

const loop = async (url: string, kind: "health" | "media") => {
  while (probing) {
    const took = await timed(url)
    probe[kind] = Math.max(probe[kind], took)
    answers.push(took)
    probe[kind === "health" ? "healthCount" : "mediaCount"]++
    await sleep(10)
  }
}

const loops = [loop(healthUrl, "health"), loop(mediaUrl, "media")]
process.on("message", async (message) => {
  if (message === "report") {
    answers.sort((a, b) => a - b)
    probe.p99 = answers[Math.min(answers.length - 1, Math.floor(answers.length * 0.99))] ?? 0
    process.send!(probe)
    probe = fresh()
    answers = []
  } else if (message === "stop") {
    probing = false
    await Promise.all(loops)
    process.disconnect()
  }
})
