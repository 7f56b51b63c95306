import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { createServer } from "node:http"
import * as Processes from "./processes.ts"
import { skipIf } from "../../../testing/skipIf.ts"

// Tracing across processes on one PostgreSQL: the API process takes the request, a worker publishes the
// post, and the collector still holds one trace from the request to the network call, each span sent by
// the process that made it. Runs when HERALD_TEST_DATABASE_URL names a server.
const herald = Processes.make("tracing")

interface Exported {
  readonly instance: string
  readonly span: {
    readonly traceId: string
    readonly spanId: string
    readonly parentSpanId?: string
    readonly name: string
    readonly kind: number
    readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: Record<string, unknown> }>
  }
}

const exported: Array<Exported> = []
const attribute = (attributes: ReadonlyArray<{ readonly key: string; readonly value: Record<string, unknown> }>, key: string) => {
  const value = attributes.find((entry) => entry.key === key)?.value
  return value === undefined ? undefined : Object.values(value)[0]
}

const collector = createServer((request, response) => {
  const chunks: Array<Buffer> = []
  request.on("data", (chunk: Buffer) => chunks.push(chunk))
  request.on("end", () => {
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"))
    for (const resourceSpans of body.resourceSpans ?? []) {
      const instance = String(attribute(resourceSpans.resource.attributes, "service.instance.id"))
      for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
        for (const span of scopeSpans.spans) exported.push({ instance, span })
      }
    }
    response.writeHead(200, { "content-type": "application/json" }).end("{}")
  })
})

describe("tracing across processes on PostgreSQL", skipIf(Processes.missing), () => {
  let endpoint = ""

  beforeAll(async () => {
    await herald.create()
    await new Promise<void>((listening) => collector.listen(0, "127.0.0.1", () => listening()))
    const address = collector.address()
    endpoint = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
  })

  afterAll(async () => {
    await herald.dispose()
    collector.close()
  })

  it("a post created on the API process and published by a worker is one trace from the request to the network", async () => {
    const tracing = (instance: string) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_RESOURCE_ATTRIBUTES: `service.instance.id=${instance}` })
    const api = await herald.start("api", { HERALD_ROLE: "api", PORT: "0", ...tracing("api") })
    const base: string = api.ready.api.replace(/\/api\/v1$/, "")
    const key: string = api.ready.firstRun.key.key
    const account: string = api.ready.firstRun.accounts.find((entry: any) => entry.platform === "x").id
    await herald.start("worker", { HERALD_ROLE: "worker", PORT: "0", BASE_URL: base, ...tracing("worker") })
    await herald.shardsShared(1)

    const created = await fetch(`${base}/api/v1/posts`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ content: "Traced across processes", accountIds: [account], publishNow: true })
    })
    assert.strictEqual(created.status, 200, await created.clone().text())
    const postId: string = ((await created.json()) as any).data.id

    // Spans leave each process every 5 s.
    const inTrace = () => {
      const publish = exported.find((entry) => entry.span.name === "herald.publish" && attribute(entry.span.attributes, "herald.post_id") === postId)
      const trace = publish === undefined ? [] : exported.filter((entry) => entry.span.traceId === publish.span.traceId)
      return { publish, trace }
    }
    const requestOf = (trace: ReadonlyArray<Exported>) =>
      trace.find((entry) => entry.span.kind === 2 && attribute(entry.span.attributes, "http.route") === "/api/v1/posts")
    /** Whether the parent chain from `span` reaches `ancestor` through the spans of `trace`. */
    const reaches = (span: Exported["span"], ancestor: Exported["span"], trace: ReadonlyArray<Exported>) => {
      const byId = new Map(trace.map((entry) => [entry.span.spanId, entry.span]))
      let current: Exported["span"] | undefined = span
      for (let depth = 0; current !== undefined && depth < 64; depth++) {
        if (current.spanId === ancestor.spanId) return true
        current = current.parentSpanId === undefined ? undefined : byId.get(current.parentSpanId)
      }
      return false
    }
    // A parent ends, and is sent, after its children: wait for the whole chain.
    const complete = () => {
      const { publish, trace } = inTrace()
      const request = requestOf(trace)
      return publish !== undefined && request !== undefined && reaches(publish.span, request.span, trace) &&
        trace.some((entry) => entry.span.name === "herald.network.publish")
    }
    await Processes.poll(async () => complete(), (done) => done)

    const { publish, trace } = inTrace()
    assert.isDefined(publish, `no herald.publish for ${postId}`)
    assert.strictEqual(publish!.instance, "worker")
    const request = requestOf(trace)
    assert.isDefined(request, trace.map((entry) => `${entry.instance}:${entry.span.name}`).join(", "))
    assert.strictEqual(request!.instance, "api")
    const networkCall = trace.find((entry) => entry.span.name === "herald.network.publish")
    assert.strictEqual(networkCall?.instance, "worker")
    assert.strictEqual(attribute(networkCall!.span.attributes, "herald.network"), "x")
    assert.isTrue(reaches(publish!.span, request!.span, trace), "the worker's publishing under the API process's request")
    assert.isTrue(reaches(networkCall!.span, publish!.span, trace))
  })
})
