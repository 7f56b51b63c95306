import { createServer, type Socket } from "node:net"
import type { AddressInfo } from "node:net"

// A minimal SMTP server that keeps what it is sent: how tests read the e-mail Herald sends through
// HERALD_SMTP_URL (the Notifier's notices, invitations, password resets).

export interface Received {
  from: string
  to: Array<string>
  data: string
}

/** Just enough SMTP to accept one message per session (no TLS, no auth). */
export const smtpServer = () =>
  new Promise<{ port: number; mails: Array<Received>; close: () => Promise<void> }>((resolve) => {
    const mails: Array<Received> = []
    const server = createServer((socket: Socket) => {
      const mail: Received = { from: "", to: [], data: "" }
      let inData = false
      let buffer = ""
      socket.write("220 test ESMTP\r\n")
      socket.on("data", (chunk) => {
        buffer += chunk.toString("utf8")
        let index: number
        while ((index = buffer.indexOf("\r\n")) >= 0) {
          const line = buffer.slice(0, index)
          buffer = buffer.slice(index + 2)
          if (inData) {
            if (line === ".") {
              inData = false
              mails.push({ ...mail, to: [...mail.to] })
              socket.write("250 OK queued\r\n")
            } else mail.data += `${line}\n`
            continue
          }
          const command = line.slice(0, 4).toUpperCase()
          if (command === "EHLO" || command === "HELO") socket.write("250 test\r\n")
          else if (command === "MAIL") (mail.from = line, socket.write("250 OK\r\n"))
          else if (command === "RCPT") (mail.to.push(line), socket.write("250 OK\r\n"))
          else if (command === "DATA") (inData = true, socket.write("354 go on\r\n"))
          else if (command === "QUIT") (socket.write("221 bye\r\n"), socket.end())
          else socket.write("250 OK\r\n")
        }
      })
    })
    server.listen(0, "127.0.0.1", () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        mails,
        close: () => new Promise((done) => server.close(() => done()))
      }))
  })
