import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Logger, Option, Redacted, References } from "effect"
import { People } from "@herald/core"
import { smtpServerWith } from "../../../packages/core/test/smtp.ts"
import { eventually } from "../../../testing/eventually.ts"
import { apiWithKey, baseUrl, request, serverLayer, workspaceWithKey } from "./harness.ts"

// A mail that is not sent (no SMTP server set, or the server refused it) is logged, but never its link:
// an invitation, reset or sign-in link in the log would let whoever reads the log in (issue 28).

/** Every log line of the servers below, at every level. */
const logged: Array<string> = []
const capture = Logger.make((options) => void logged.push(Logger.formatLogFmt.log(options)))
const everyLine = <A, E, R>(server: Layer.Layer<A, E, R>) =>
  server.pipe(Layer.provide(Logger.layer([capture])), Layer.provide(Layer.succeed(References.MinimumLogLevel, "All")))

/** What a link's secret looks like in a log line: after the `#` of a console link, or any 43-character token. */
const linkLike = /\/app\/[a-z]+#|[A-Za-z0-9_-]{43}/

const waitForLine = (text: string) =>
  eventually(`a log line with "${text}"`, () => logged.find((entry) => entry.includes(text)), {
    describe: () => `the log:\n${logged.join("\n")}`
  })

const refusingMailServer = Layer.unwrap(Effect.gen(function*() {
  const smtp = yield* Effect.acquireRelease(
    Effect.promise(() => smtpServerWith({ refuse: "554 5.7.1 message refused by the test" })),
    (made) => Effect.promise(made.close)
  )
  return everyLine(serverLayer({ smtpUrl: Option.some(Redacted.make(`smtp://127.0.0.1:${smtp.port}`)) }))
}))

layer(refusingMailServer, { excludeTestServices: true })("when the SMTP server refuses a mail", (it) => {
  it.effect("the log says which mail failed and why, without its link", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const tag = Date.now().toString(36)
      const owner = `owner@${tag}.test`
      const { key } = yield* workspaceWithKey(`Mail ${tag}`, owner)
      yield* Effect.orDie(Effect.flatMap(People.People, (people) => people.ensure(owner)))
      const send = yield* apiWithKey(key.key)

      const invited = yield* send("POST", "/members/invitations", { email: `ed@${tag}.test`, role: "editor" })
      assert.strictEqual(invited.status, 200, invited.text)
      const invitationSecret = invited.body.data.url.split("#").at(-1)!
      const reset = yield* request(`${base}/api/v1/auth/password-reset`, {
        method: "POST",
        headers: { origin: new URL(base.replace("127.0.0.1", "localhost")).origin, "content-type": "application/json" },
        body: JSON.stringify({ email: owner })
      })
      assert.strictEqual(reset.status, 202, reset.text)

      const invitationLine = yield* waitForLine(`ed@${tag}.test`)
      const resetLine = yield* waitForLine(`to=${owner}`)
      for (const line of [invitationLine, resetLine]) {
        assert.include(line, "could not be sent")
        assert.include(line, "554 5.7.1 message refused by the test")
      }
      assert.include(invitationLine, "invited to")
      assert.include(resetLine, "Reset your Herald password")
      for (const line of logged) {
        assert.notInclude(line, invitationSecret)
        assert.notMatch(line, linkLike)
      }
    }))
})

layer(everyLine(serverLayer()), { excludeTestServices: true })("without an SMTP server", (it) => {
  it.effect("an invitation is logged as not sent, with where its link is instead of the link", () =>
    Effect.gen(function*() {
      const tag = Date.now().toString(36)
      const { key } = yield* workspaceWithKey(`NoMail ${tag}`, `owner@${tag}.test`)
      const send = yield* apiWithKey(key.key)
      const invited = yield* send("POST", "/members/invitations", { email: `ann@${tag}.test`, role: "viewer" })
      assert.strictEqual(invited.status, 200, invited.text)
      const invitationSecret = invited.body.data.url.split("#").at(-1)!

      const line = yield* waitForLine(`ann@${tag}.test`)
      assert.include(line, "e-mail not sent (set HERALD_SMTP_URL to send it)")
      assert.include(line, "herald member invite")
      for (const entry of logged) {
        assert.notInclude(entry, invitationSecret)
        assert.notMatch(entry, linkLike)
      }
    }))
})
