// The list's anchor: a bare node:http server answering, to every request, the page Herald answered (the
// file named by the first argument), with the same content type.
import { readFileSync } from "node:fs"
import { createServer } from "node:http"

const body = readFileSync(process.argv[2]!)
const server = createServer((_request, response) => {
  response.writeHead(200, { "content-type": "application/json", "content-length": body.byteLength })
  response.end(body)
})
server.listen(0, "127.0.0.1", () => {
  const address = server.address()
  if (address !== null && typeof address === "object") process.stdout.write(`${JSON.stringify({ port: address.port })}\n`)
})
