import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Logger, Option, Redacted } from "effect"
import { backends } from "@herald/db/testing"
import { Notifier, Workspaces } from "../src/index.ts"
import { smtpServer } from "./smtp.ts"

// The notice to workspace owners when an endpoint is switched off: e-mailed through HERALD_SMTP_URL (here a
// minimal SMTP server that keeps what it is sent), or logged in full when no SMTP server is set.

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
