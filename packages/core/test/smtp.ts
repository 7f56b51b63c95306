import { createServer, type Socket } from "node:net"
import type { AddressInfo } from "node:net"

// A minimal SMTP server that keeps what it is sent: how tests read the e-mail Herald sends through
// HERALD_SMTP_URL (the Notifier's notices, invitations, password resets).

export interface Received {
  from: string
  to: Array<string>
  data: string
}

export interface Behaviour {
  /** The greeting waits for it: a mail server that is slow to answer, until the test lets it. */
  readonly hold?: Promise<void> | undefined
  /** Sent instead of accepting a message's data: a mail server that refuses it (`554 …`). */
  readonly refuse?: string | undefined
}

/** Just enough SMTP to accept one message per session (no TLS, no auth). */
export const smtpServer = () => smtpServerWith({})

/** `smtpServer`, slow or refusing as told. */
export const smtpServerWith = (behaviour: Behaviour) =>
  new Promise<{ port: number; mails: Array<Received>; close: () => Promise<void> }>((resolve) => {
    const mails: Array<Received> = []
    const open = new Set<Socket>()
    const server = createServer((socket: Socket) => {
      open.add(socket)
      socket.on("close", () => open.delete(socket))
      const mail: Received = { from: "", to: [], data: "" }
      let inData = false
      let buffer = ""
      void Promise.resolve(behaviour.hold).then(() => socket.write("220 test ESMTP\r\n"))
      socket.on("data", (chunk) => {
        buffer += chunk.toString("utf8")
        let index: number
        while ((index = buffer.indexOf("\r\n")) >= 0) {
          const line = buffer.slice(0, index)
          buffer = buffer.slice(index + 2)
          if (inData) {
            if (line === ".") {
              inData = false
              if (behaviour.refuse !== undefined) {
                socket.write(`${behaviour.refuse}\r\n`)
                continue
              }
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
        // A connection still held (a test that failed before letting the server answer) must not keep it open.
        close: () =>
          new Promise((done) => {
            for (const socket of open) socket.destroy()
            server.close(() => done())
          })
      }))
  })
