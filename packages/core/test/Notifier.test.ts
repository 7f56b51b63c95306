import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Logger, Option, Redacted } from "effect"
import { createServer, type Socket } from "node:net"
import type { AddressInfo } from "node:net"
import { backends } from "@herald/db/testing"
import { Notifier, Workspaces } from "../src/index.ts"

// The notice to workspace owners when an endpoint is switched off: e-mailed through HERALD_SMTP_URL (here a
// minimal SMTP server that keeps what it is sent), or logged in full when no SMTP server is set.

interface Received {
  from: string
  to: Array<string>
  data: string
}

/** Just enough SMTP to accept one message per session (no TLS, no auth). */
const smtpServer = () =>
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

const backend = backends()[0]!

describe("notices to workspace owners", () => {
  it.live("e-mails the owners through HERALD_SMTP_URL when an endpoint is switched off", () =>
    Effect.scoped(Effect.gen(function*() {
      const smtp = yield* Effect.acquireRelease(Effect.promise(smtpServer), (made) => Effect.promise(made.close))
      const context = yield* Layer.build(
        Layer.mergeAll(
          Notifier.Notifier.layer({ smtpUrl: Option.some(Redacted.make(`smtp://127.0.0.1:${smtp.port}`)) }),
          Workspaces.Workspaces.layer
        ).pipe(Layer.provideMerge(backend.layer))
      )
      const workspace = yield* Effect.orDie(Effect.flatMap(Workspaces.Workspaces, (workspaces) =>
        workspaces.create({ name: "Owned", ownerEmail: "Owner@Example.com" })).pipe(Effect.provideContext(context)))
      yield* Effect.flatMap(Notifier.Notifier, (notifier) =>
        notifier.endpointSwitchedOff({ workspaceId: workspace.id, endpointId: "whk_1", url: "https://hooks.example.com/x", failures: 50 })
      ).pipe(Effect.provideContext(context))
      assert.strictEqual(smtp.mails.length, 1)
      assert.include(smtp.mails[0]!.to.join(), "owner@example.com")
      // Long header lines and body lines are folded by the mailer; unfold before reading.
      const data = smtp.mails[0]!.data.replace(/=\n/g, "").replace(/\n[ \t]+/g, " ")
      assert.include(data, "Subject: Herald switched off your webhook endpoint https://hooks.example.com/x")
      assert.include(data, "failed 50 events in a row")
      // The promise of decision 0011: nothing is lost while it is off.
      assert.include(data, "keeps its events")
      assert.include(data, "for 30 days, and delivers them, oldest first, when you switch it on again")
    })))

  it.live("logs the whole notice when no SMTP server is set", () =>
    Effect.scoped(Effect.gen(function*() {
      const lines: Array<string> = []
      const context = yield* Layer.build(
        Layer.mergeAll(Notifier.Notifier.layer({ smtpUrl: Option.none() }), Workspaces.Workspaces.layer).pipe(
          Layer.provideMerge(backend.layer)
        )
      )
      const workspace = yield* Effect.orDie(Effect.flatMap(Workspaces.Workspaces, (workspaces) =>
        workspaces.create({ name: "Logged", ownerEmail: "ops@example.com" })).pipe(Effect.provideContext(context)))
      const capture = Logger.make((options) => void lines.push(Logger.formatLogFmt.log(options)))
      yield* Effect.flatMap(Notifier.Notifier, (notifier) =>
        notifier.endpointSwitchedOff({ workspaceId: workspace.id, endpointId: "whk_2", url: "https://hooks.example.com/y", failures: 50 })
      ).pipe(Effect.provideContext(context), Effect.provide(Logger.layer([capture])))
      const line = lines.find((entry) => entry.includes("e-mail not sent (set HERALD_SMTP_URL to send it)"))
      assert.isDefined(line)
      assert.include(line!, "ops@example.com")
      assert.include(line!, "https://hooks.example.com/y")
    })))
})
