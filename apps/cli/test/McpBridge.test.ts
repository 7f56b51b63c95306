import { assert, describe, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { resolve } from "node:path"
import { patience } from "../../../vitest.shared.ts"

// `herald mcp` as an assistant runs it: through the `./herald` launcher (docs/mcp.md's configuration),
// messages on stdin, answers on stdout. An assistant that writes its calls and closes its input at once (a
// script piping a file in) still gets every answer.

const launcher = resolve(import.meta.dirname, "../../../herald")

/** A stand-in for a Herald's /api/mcp that answers each call after `delayMs`, echoing the tool's name. */
const slowMcp = (delayMs: number) =>
  new Promise<{ url: string; close: () => void }>((done) => {
    const server = createServer((request, response) => {
      if (request.method !== "POST") return void response.writeHead(405).end()
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const message = JSON.parse(Buffer.concat(chunks).toString("utf8"))
        if (message.id === undefined) return void response.writeHead(202).end()
        setTimeout(() => {
          response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({
            jsonrpc: "2.0",
            id: message.id,
            result: { content: [{ type: "text", text: `answered ${message.params.name}` }] }
          }))
        }, delayMs)
      })
    })
    server.listen(0, "127.0.0.1", () =>
      done({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }))
  })

describe("herald mcp", () => {
  it("answers the calls already sent when its input ends, then exits", async () => {
    const mcp = await slowMcp(800)
    try {
      const calls = [1, 2, 3].map((id) =>
        JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: `tool_${id}`, arguments: {} } })
      )
      const run = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
        const child = execFile(
          launcher,
          ["mcp", "--url", mcp.url, "--key", "hrld_test"],
          { env: { ...process.env, BASE_URL: "" }, timeout: patience },
          (error, stdout, stderr) => done({ code: error === null ? 0 : (error.code as number) ?? 1, stdout, stderr })
        )
        child.stdin!.end(calls.join("\n") + "\n")
      })
      assert.strictEqual(run.code, 0, run.stderr)
      const answers = run.stdout.trim().split("\n").filter((line) => line !== "").map((line) => JSON.parse(line))
      assert.deepStrictEqual(
        answers.map((answer) => [answer.id, answer.result?.content[0].text]).sort(),
        [[1, "answered tool_1"], [2, "answered tool_2"], [3, "answered tool_3"]],
        run.stdout + run.stderr
      )
    } finally {
      mcp.close()
    }
  })
})
