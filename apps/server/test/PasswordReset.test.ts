import { assert, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { People } from "@herald/core"
import { type Received, smtpServerWith } from "../../../packages/core/test/smtp.ts"
import { baseUrl, serverLayer, workspaceWithKey } from "./harness.ts"

// A password reset answers as fast for an address with an account as for one without (issue 28): the
// answer does not wait for the mail, or its time would tell which addresses have an account. The mail
// server here holds every connection until the test lets it answer, so an answer that waited for the mail
// would not come at all.

class MailServer extends Context.Service<MailServer, {
  readonly mails: Array<Received>
  readonly release: () => void
}>()("test/PasswordReset/MailServer") {}

const withHeldMailServer = Layer.unwrap(Effect.gen(function*() {
  let release = () => {}
  const hold = new Promise<void>((resolve) => (release = resolve))
  const smtp = yield* Effect.acquireRelease(Effect.promise(() => smtpServerWith({ hold })), (made) => Effect.promise(made.close))
  return serverLayer({ smtpUrl: Option.some(Redacted.make(`smtp://127.0.0.1:${smtp.port}`)) }).pipe(
    Layer.provideMerge(Layer.succeed(MailServer, { mails: smtp.mails, release: () => release() }))
  )
}))

/** Far longer than any answer takes, far shorter than the mailer's own timeouts. */
const patience = 5_000
/** Resets asked for each address: at most the attempts one client has per address (People.failuresPerEmail). */
const rounds = 4

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

layer(withHeldMailServer, { excludeTestServices: true })("password reset", (it) => {
  it.effect("answers as fast for a known address as for an unknown one: the mail goes after the answer", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const origin = new URL(base.replace("127.0.0.1", "localhost")).origin
      const tag = Date.now().toString(36)
      const known = `owner@${tag}.test`
      yield* workspaceWithKey(`Reset ${tag}`, known)
      yield* Effect.orDie(Effect.flatMap(People.People, (people) => people.ensure(known)))
      const server = yield* MailServer

      /** Milliseconds until the reset for `email` is answered, or undefined when it is not within `patience`. */
      const timed = (email: string) =>
        Effect.promise(async () => {
          const started = performance.now()
          const answer = await fetch(`${base}/api/v1/auth/password-reset`, {
            method: "POST",
            headers: { origin, "content-type": "application/json" },
            body: JSON.stringify({ email }),
            signal: AbortSignal.timeout(patience)
          }).then((response): Promise<any> => response.json(), () => undefined)
          return answer === undefined ? undefined : { milliseconds: performance.now() - started, body: answer }
        })

      // The first request to the route pays for what is done once (code compiled, statements prepared).
      yield* timed(`warm-up@${tag}.test`)
      const knownTimes: Array<number> = []
      const unknownTimes: Array<number> = []
      // Alternating, compared by their medians: a stall of a loaded machine moves one time, not the median.
      for (let round = 0; round < rounds; round++) {
        const forUnknown = yield* timed(`nobody${round}@${tag}.test`)
        const forKnown = yield* timed(known)
        assert.isDefined(forUnknown, "a reset for an unknown address was not answered")
        assert.isDefined(forKnown, `a reset for a known address was not answered within ${patience} ms: it waited for the mail`)
        assert.deepStrictEqual(forKnown!.body, forUnknown!.body)
        assert.deepStrictEqual(forKnown!.body.data, { email: "sent" })
        unknownTimes.push(forUnknown!.milliseconds)
        knownTimes.push(forKnown!.milliseconds)
      }
      // Every answer came while the mail server still held its connections.
      assert.lengthOf(server.mails, 0, "a mail was taken before the mail server was let go")
      const difference = Math.abs(median(knownTimes) - median(unknownTimes))
      assert.isBelow(difference, 250, `known ${knownTimes.map(Math.round)} ms, unknown ${unknownTimes.map(Math.round)} ms`)

      // Let go, the mail server takes every reset: they went on after their answers.
      server.release()
      for (let waited = 0; waited < patience && server.mails.length < rounds; waited += 50) yield* Effect.sleep("50 millis")
      assert.lengthOf(server.mails, rounds)
      for (const mail of server.mails) {
        assert.include(mail.to.join(), known)
        assert.match(mail.data.replace(/=\r?\n/g, ""), /\/app\/link#[A-Za-z0-9_-]{43}/)
      }
    }))
})
