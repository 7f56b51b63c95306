import { assert, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { People } from "@herald/core"
import { type Received, smtpServerWith } from "../../../packages/core/test/smtp.ts"
import { patience } from "../../../vitest.shared.ts"
import { eventually } from "../../../testing/eventually.ts"
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

/** Resets asked for each address: at most the attempts one client has per address (People.failuresPerEmail). */
const rounds = 4
/** Known addresses asked in turn: twice the rounds, so that a few stalls of a loaded machine do not move a median. */
const knownAddresses = 2

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

layer(withHeldMailServer, { excludeTestServices: true })("password reset", (it) => {
  it.effect("answers as fast for a known address as for an unknown one: the mail goes after the answer", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const origin = new URL(base.replace("127.0.0.1", "localhost")).origin
      const tag = Date.now().toString(36)
      const knowns = Array.from({ length: knownAddresses }, (_, index) => `owner${index}@${tag}.test`)
      for (const known of knowns) {
        yield* workspaceWithKey(`Reset ${known}`, known)
        yield* Effect.orDie(Effect.flatMap(People.People, (people) => people.ensure(known)))
      }
      const server = yield* MailServer

      /**
       * Milliseconds until the reset for `email` is answered, or undefined when it is not answered at all (within
       * the test's patience): an answer that waited for the mail would never come, the mail server holding it.
       */
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
      for (let round = 0; round < rounds * knownAddresses; round++) {
        const forUnknown = yield* timed(`nobody${round}@${tag}.test`)
        const forKnown = yield* timed(knowns[round % knownAddresses]!)
        assert.isDefined(forUnknown, "a reset for an unknown address was not answered")
        assert.isDefined(forKnown, "a reset for a known address was not answered while the mail server held the mail: it waited for the mail")
        assert.deepStrictEqual(forKnown!.body, forUnknown!.body)
        assert.deepStrictEqual(forKnown!.body.data, { email: "sent" })
        unknownTimes.push(forUnknown!.milliseconds)
        knownTimes.push(forKnown!.milliseconds)
      }
      // Every answer came while the mail server still held its connections.
      assert.lengthOf(server.mails, 0, "a mail was taken before the mail server was let go")
      // No time tells them apart: a known address costs no more than an unknown one. The allowance grows with
      // the answers' own times, so a machine slowed down as a whole is not taken for a difference.
      const [knownMedian, unknownMedian] = [median(knownTimes), median(unknownTimes)]
      assert.isBelow(
        Math.abs(knownMedian - unknownMedian),
        250 + Math.min(knownMedian, unknownMedian),
        `known ${knownTimes.map(Math.round)} ms, unknown ${unknownTimes.map(Math.round)} ms`
      )

      // Let go, the mail server takes every reset: they went on after their answers.
      server.release()
      yield* eventually(`${rounds * knownAddresses} mails`, () => server.mails.length >= rounds * knownAddresses)
      assert.lengthOf(server.mails, rounds * knownAddresses)
      for (const mail of server.mails) {
        assert.isTrue(knowns.some((known) => mail.to.join().includes(known)), mail.to.join())
        assert.match(mail.data.replace(/=\r?\n/g, ""), /\/app\/link#[A-Za-z0-9_-]{43}/)
      }
    }))
})
