// The baseline: a bare node:http server answering the same JSON Herald answers for an empty account list.
import { createServer } from "node:http"

const body = JSON.stringify({ data: [] })
const server = createServer((_request, response) => {
  response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
  response.end(body)
})
server.listen(0, "127.0.0.1", () => {
  const address = server.address()
  if (address !== null && typeof address === "object") process.stdout.write(`${JSON.stringify({ port: address.port })}\n`)
})
