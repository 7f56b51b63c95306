import { assert, layer } from "@effect/vitest"
import { Effect, Fiber, Layer, Logger } from "effect"
import { TestClock } from "effect/testing"
import { SqlClient } from "effect/sql"
import { createHmac, randomUUID } from "node:crypto"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { WebhookDelivery } from "@herald/core"
import { backends } from "@herald/db/testing"
import { eventually } from "../../../testing/eventually.ts"
import { apiWithKey, closeNow, examplePackage, fastTuning, request, serverLayer, workspaceWithKey } from "./harness.ts"
import { settled } from "./webhookState.ts"

// Deliveries over real HTTP to local receivers (private targets are allowed in the test server, and the
// retry schedule is compressed to 200 ms and 400 ms). What must not be sent is shown by the endpoint's state
// (`settled` below), never by waiting a while for nothing to come.

interface Received {
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

/**
 * A local receiver answering each request with the status `answer` gives for its body; `delay` holds each
 * answer that many milliseconds, or until the promise settles.
 */
const receiverWith = (answer: (body: string, count: number) => number, delay: number | Promise<void> = 0) =>
  Effect.acquireRelease(
    Effect.promise(() =>
      new Promise<{ url: string; received: Array<Received> }>((resolve) => {
        const received: Array<Received> = []
        const server = createServer((req, res) => {
          const chunks: Array<Buffer> = []
          req.on("data", (chunk: Buffer) => chunks.push(chunk))
          req.on("end", () => {
            received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") })
            const count = received.length
            const status = answer(received[count - 1]!.body, count)
            const reply = () => {
              if (res.destroyed) return
              res.writeHead(status, { "content-type": "text/plain" })
              res.end(`answer ${count}`)
            }
            if (typeof delay === "number") setTimeout(reply, delay)
            else void delay.then(reply)
          })
        })
        server.listen(0, "127.0.0.1", () => resolve(Object.assign({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received }, { server })))
      })
    ),
    (made) => Effect.promise(() => closeNow((made as any).server))
  )

/** A local receiver answering each request with the next status of `statuses` (the last one repeats). */
const receiver = (statuses: ReadonlyArray<number>, delay: number | Promise<void> = 0) =>
  receiverWith((_, count) => statuses[Math.min(count - 1, statuses.length - 1)]!, delay)

/** The signature as a receiver computes it, with node:crypto and nothing of the sender's. */
const expected = (secret: string, header: string, body: string) => {
  const t = /t=(\d+)/.exec(header)![1]!
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`
}

const waitFor = <A>(check: () => A | undefined) => eventually("the receiver's request", check)

const client = Effect.gen(function*() {
  const { key, workspace } = yield* workspaceWithKey()
  const send = yield* apiWithKey(key.key)
  // An event as the outbox holds it (what a post change writes in its transaction).
  const draft = (content: string) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      Effect.orDie(sql`INSERT INTO events (id, workspace_id, event, data)
        VALUES (${randomUUID()}, ${workspace.id}, 'post.created', ${JSON.stringify({ postId: "pst_test", status: "draft", content })}::jsonb)`))
  // An endpoint's recorded attempts, once there are at least `count`: the receiver sees a request before
  // its attempt is written.
  const recorded = (endpointId: string, count: number) =>
    eventually(
      `${count} recorded attempts`,
      Effect.map(send("GET", `/webhooks/${endpointId}/deliveries`), (answer): Array<any> | false => answer.body.data.length >= count && answer.body.data)
    )
  return { send, workspace, draft, recorded }
})

// On both backends: the queue is the database's (claims under SKIP LOCKED, batched recording).
for (const backend of backends()) layer(serverLayer({ webhookDisableAfter: 4 }, [examplePackage], backend), { excludeTestServices: true })(`webhook delivery on ${backend.name}`, (it) => {
  it.effect("delivers a committed event, signed over the exact body, with its headers", () =>
    Effect.scoped(Effect.gen(function*() {
      const hook = yield* receiver([204])
      const { send, workspace } = yield* client
      const endpoint = (yield* send("POST", "/webhooks", { url: hook.url, events: ["webhook.test", "post.deleted"] })).body.data
      const sql = yield* SqlClient.SqlClient
      yield* Effect.orDie(sql`INSERT INTO events (id, workspace_id, event, data) VALUES
        ('6f1c3b1e-2f52-4d5e-9d65-0c7f1f7a1a01', ${workspace.id}, 'post.deleted', '{"postId":"pst_x"}'::jsonb),
        ('6f1c3b1e-2f52-4d5e-9d65-0c7f1f7a1a02', ${workspace.id}, 'post.updated', '{"postId":"pst_y"}'::jsonb)`)
      const got = yield* waitFor(() => hook.received[0])
      // Both events fanned out (one transaction, one statement): post.updated, not in the endpoint's
      // selection, got no message, so nothing will ever send it.
      yield* eventually("both events fanned out", Effect.map(
        Effect.orDie(sql<{ readonly count: number | string }>`SELECT count(*) AS count FROM events
          WHERE workspace_id = ${workspace.id} AND NOT dispatched`),
        ([row]) => Number(row!.count) === 0
      ))
      const [messages] = yield* Effect.orDie(sql<{ readonly events: ReadonlyArray<string> }>`
        SELECT array_agg(event) AS events FROM webhook_messages WHERE endpoint_id = ${endpoint.id}`)
      assert.deepStrictEqual(messages!.events, ["post.deleted"])
      assert.strictEqual(got.headers["content-type"], "application/json")
      assert.strictEqual(got.headers["service-event"], "post.deleted")
      assert.match(String(got.headers["service-delivery"]), /^dlv_/)
      const header = String(got.headers["service-signature"])
      assert.match(header, /^t=\d+,v1=[0-9a-f]{64}$/)
      assert.strictEqual(header, expected(endpoint.secret, header, got.body))
      const body = JSON.parse(got.body)
      assert.deepStrictEqual(Object.keys(body), ["id", "event", "createdAt", "data"])
      assert.strictEqual(body.id, "6f1c3b1e-2f52-4d5e-9d65-0c7f1f7a1a01")
      assert.deepStrictEqual(body.data, { postId: "pst_x" })
      assert.strictEqual(hook.received.length, 1)
    })))

  it.effect("post and account events arrive as they happen, data.post as GET /posts/:id shows it", () =>
    Effect.scoped(Effect.gen(function*() {
      const hook = yield* receiver([200])
      const { key } = yield* workspaceWithKey()
      const api = yield* apiWithKey(key.key)
      yield* api("POST", "/webhooks", { url: hook.url })
      const started = yield* api("POST", "/accounts/connect/example", { username: "hooked" })
      const consent = yield* Effect.promise(() => fetch(started.body.data.url, { redirect: "manual" }))
      yield* request(consent.headers.get("location")!.replace("localhost", "127.0.0.1"))
      const accountId = (yield* api("GET", "/accounts")).body.data[0].id
      const created = (yield* api("POST", "/posts", {
        content: "Hooked",
        accountIds: [accountId],
        scheduledAt: new Date(Date.now() + 3_600_000).toISOString()
      })).body.data
      yield* api("DELETE", `/posts/${created.id}`)
      yield* waitFor(() => hook.received[2])
      // Deliveries may arrive in any order (several are in flight at once): a receiver orders by createdAt.
      const bodies = hook.received.map((item) => JSON.parse(item.body)).sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      assert.deepStrictEqual(bodies.map((body) => body.event), ["account.connected", "post.scheduled", "post.deleted"])
      assert.deepStrictEqual(bodies[0].data, { accountId, platform: "example", username: "hooked" })
      assert.deepStrictEqual(bodies[1].data.post, created)
      assert.strictEqual(bodies[1].data.postId, created.id)
      assert.deepStrictEqual(bodies[2].data, { postId: created.id })
    })))

  it.effect("retries a failing receiver on the schedule with the same body, then marks the delivery failed", () =>
    Effect.scoped(Effect.gen(function*() {
      const hook = yield* receiver([500])
      const { draft, send } = yield* client
      const endpoint = (yield* send("POST", "/webhooks", { url: hook.url, events: ["post.created"] })).body.data
      yield* draft("Retry me")
      yield* settled(endpoint.id, (state) => state.failed === 1)
      assert.strictEqual(hook.received.length, 3, "one attempt and the two retries of the test schedule")
      assert.deepStrictEqual(new Set(hook.received.map((item) => item.body)).size, 1)
      assert.strictEqual(new Set(hook.received.map((item) => item.headers["service-delivery"])).size, 3)
      const listed = (yield* send("GET", `/webhooks/${endpoint.id}/deliveries`)).body
      assert.deepStrictEqual(listed.data.map((item: any) => item.attempt), [3, 2, 1])
      assert.deepStrictEqual(listed.data.map((item: any) => item.statusCode), [500, 500, 500])
      assert.strictEqual(listed.data[0].response, "answer 3")
      assert.isNull(listed.data[0].nextRetryAt)
      assert.isNotNull(listed.data[1].nextRetryAt)
      assert.strictEqual(listed.data[2].id, hook.received[0]!.headers["service-delivery"])
      const paged = (yield* send("GET", `/webhooks/${endpoint.id}/deliveries?limit=2`)).body
      assert.strictEqual(paged.data.length, 2)
      const rest = (yield* send("GET", `/webhooks/${endpoint.id}/deliveries?limit=2&cursor=${paged.nextCursor}`)).body
      assert.deepStrictEqual(rest.data.map((item: any) => item.attempt), [1])
      assert.isNull(rest.nextCursor)
    })))

  it.effect("redelivers the same body with a new delivery id and a fresh signature; sends webhook.test", () =>
    Effect.scoped(Effect.gen(function*() {
      const hook = yield* receiver([200])
      const { draft, recorded, send } = yield* client
      const endpoint = (yield* send("POST", "/webhooks", { url: hook.url })).body.data
      yield* draft("Again")
      const first = yield* waitFor(() => hook.received[0])
      const listed = yield* recorded(endpoint.id, 1)
      const again = yield* send("POST", `/webhooks/${endpoint.id}/deliveries/${listed[0].id}/redeliver`)
      assert.strictEqual(again.status, 200, again.text)
      assert.strictEqual(again.body.data.statusCode, 200)
      assert.strictEqual(again.body.data.attempt, 2)
      const second = hook.received[1]!
      assert.strictEqual(second.body, first.body)
      assert.notStrictEqual(second.headers["service-delivery"], first.headers["service-delivery"])
      assert.strictEqual(String(second.headers["service-signature"]), expected(endpoint.secret, String(second.headers["service-signature"]), second.body))

      const tested = yield* send("POST", `/webhooks/${endpoint.id}/test`)
      assert.strictEqual(tested.status, 200, tested.text)
      assert.strictEqual(tested.body.data.event, "webhook.test")
      const testBody = JSON.parse(hook.received[2]!.body)
      assert.strictEqual(testBody.event, "webhook.test")
      assert.strictEqual(testBody.data.endpointId, endpoint.id)
      assert.isString(testBody.data.message)
      assert.strictEqual((yield* send("POST", `/webhooks/${endpoint.id}/deliveries/dlv_nope/redeliver`)).status, 404)
    })))

  it.effect("counts each failed event once, switches off at exactly the threshold, keeps the events and sends them when switched on", () =>
    Effect.scoped(Effect.gen(function*() {
      // Eleven failures (three events of three attempts, then two attempts of a fourth), then successes.
      const hook = yield* receiver([...Array.from({ length: 11 }, () => 500), 200])
      const { draft, send } = yield* client
      const endpoint = (yield* send("POST", "/webhooks", { url: hook.url, events: ["post.created"] })).body.data
      // Three events fail all three attempts of the test schedule: nine failed attempts, three failed events.
      yield* draft("One")
      yield* draft("Two")
      yield* draft("Three")
      const three = yield* settled(endpoint.id, (state) => state.failed === 3)
      assert.strictEqual(hook.received.length, 9)
      assert.deepInclude(three, { enabled: true, consecutiveFailures: 3 })

      // The fourth event's retry fails: the threshold (4 here) is reached and the endpoint goes off. The
      // events that ran out of retries during those failures are kept with it.
      yield* draft("Four")
      const off = yield* settled(endpoint.id, (state) => !state.enabled)
      assert.strictEqual(hook.received.length, 11, "nothing is sent once it is off")
      assert.deepInclude(off, { enabled: false, consecutiveFailures: 4, held: 4, pending: 0 })
      assert.strictEqual((yield* send("GET", `/webhooks/${endpoint.id}`)).body.data.enabled, false)
      assert.strictEqual((yield* send("POST", `/webhooks/${endpoint.id}/test`)).status, 409)

      // Switched on: the count starts again and the four kept events go out.
      yield* send("PATCH", `/webhooks/${endpoint.id}`, { enabled: true })
      const on = yield* settled(endpoint.id, (state) => state.succeeded === 4)
      const delivered = hook.received.slice(11).map((item) => JSON.parse(item.body).data.content)
      assert.deepStrictEqual([...delivered].sort(), ["Four", "One", "Three", "Two"])
      assert.deepInclude(on, { enabled: true, consecutiveFailures: 0 })
    })))

  it.effect("a burst of failed first attempts over the threshold switches nothing off: their retries deliver", () =>
    Effect.scoped(Effect.gen(function*() {
      // Fails each event's first attempt, as a short outage with many attempts in flight does.
      const seen = new Set<string>()
      const failing = yield* receiverWith((body) => {
        const id = JSON.parse(body).id as string
        const first = !seen.has(id)
        seen.add(id)
        return first ? 503 : 200
      })
      const { draft, send } = yield* client
      const endpoint = (yield* send("POST", "/webhooks", { url: failing.url, events: ["post.created"] })).body.data
      yield* Effect.forEach(Array.from({ length: 10 }, (_, index) => `Burst ${index}`), draft, { concurrency: "unbounded" })
      const state = yield* settled(endpoint.id, (state) => state.succeeded === 10)
      assert.deepInclude(state, { enabled: true, consecutiveFailures: 0 })
      assert.strictEqual(failing.received.length, 20, "each event: one failed attempt, one retry that got through")
    })))

  it.effect("events of a burst that fail for real are counted once each; the endpoint goes off and keeps them all", () =>
    Effect.scoped(Effect.gen(function*() {
      const hook = yield* receiver([500])
      const { draft, send } = yield* client
      const endpoint = (yield* send("POST", "/webhooks", { url: hook.url, events: ["post.created"] })).body.data
      const sql = yield* SqlClient.SqlClient
      // Ten events in flight at once, over the threshold of 4: their attempts end together and are recorded
      // a batch at a time.
      yield* Effect.forEach(Array.from({ length: 10 }, (_, index) => `Burst ${index}`), draft, { concurrency: "unbounded" })
      yield* settled(endpoint.id, (state) => !state.enabled)
      const [row] = yield* Effect.orDie(sql<{
        readonly enabled: boolean
        readonly consecutiveFailures: number
        readonly attempts: number | string
        readonly retried: number | string
      }>`
        SELECT e.enabled, e.consecutive_failures,
          (SELECT count(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id) AS attempts,
          (SELECT count(DISTINCT d.message_id) FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.attempt = 2) AS retried
        FROM webhook_endpoints e WHERE e.id = ${endpoint.id}`)
      assert.strictEqual(row!.enabled, false)
      assert.strictEqual(Number(row!.attempts), hook.received.length, "every attempt recorded once")
      assert.strictEqual(row!.consecutiveFailures, Number(row!.retried), "every event whose retry failed counted once")
      assert.isAtLeast(row!.consecutiveFailures, 4)
      const [held] = yield* Effect.orDie(sql<{ readonly count: number | string }>`
        SELECT count(*) AS count FROM webhook_messages WHERE endpoint_id = ${endpoint.id} AND state = 'held'`)
      // Settled: every message held (never claimed while it is off), no attempt under way.
      assert.strictEqual(Number(held!.count), 10, "every event kept")
    })))

  it.effect("switched off by hand, an endpoint keeps the events that happen meanwhile and gets them when switched on", () =>
    Effect.scoped(Effect.gen(function*() {
      const hook = yield* receiver([200])
      const { draft, send } = yield* client
      const endpoint = (yield* send("POST", "/webhooks", { url: hook.url, events: ["post.created"] })).body.data
      const off = yield* send("PATCH", `/webhooks/${endpoint.id}`, { enabled: false })
      assert.strictEqual(off.body.data.enabled, false)
      for (const content of ["First", "Second", "Third"]) yield* draft(content)
      // Fanned out as held messages, which are never claimed while it is off.
      yield* settled(endpoint.id, (state) => state.held === 3)
      assert.strictEqual(hook.received.length, 0, "nothing is sent while it is off")
      yield* send("PATCH", `/webhooks/${endpoint.id}`, { enabled: true })
      yield* waitFor(() => hook.received[2])
      // Started oldest first, but up to 32 are under way at once: they may arrive in any order.
      assert.deepStrictEqual(hook.received.map((item) => JSON.parse(item.body).data.content).sort(), ["First", "Second", "Third"])
    })))

  it.effect("an answer later than the timeout (2 s here, 10 s by default) is a failed attempt", () =>
    Effect.scoped(Effect.gen(function*() {
      // The answer comes only once the test has ended: later than any timeout, however slow the machine.
      const never = Promise.withResolvers<void>()
      yield* Effect.addFinalizer(() => Effect.sync(() => never.resolve()))
      const hook = yield* receiver([200], never.promise)
      const { draft, recorded, send } = yield* client
      const endpoint = (yield* send("POST", "/webhooks", { url: hook.url, events: ["post.created"] })).body.data
      yield* draft("Too slow")
      const listed = yield* recorded(endpoint.id, 1)
      assert.isNull(listed.at(-1).statusCode)
      assert.match(listed.at(-1).error, /timed out after 2 s/)
      assert.isNotNull(listed.at(-1).nextRetryAt)
    })))

  it.effect("removes history older than 30 days (test clock)", () =>
    Effect.scoped(Effect.gen(function*() {
      const hook = yield* receiver([200])
      const { draft, recorded, send } = yield* client
      const endpoint = (yield* send("POST", "/webhooks", { url: hook.url })).body.data
      yield* draft("Old news")
      yield* recorded(endpoint.id, 1)
      const delivery = yield* WebhookDelivery.WebhookDelivery
      const count = Effect.map(
        send("GET", `/webhooks/${endpoint.id}/deliveries`),
        (answer) => answer.body.data.length as number
      )
      // The expiry round as it would run days later, on a test clock set to then.
      const expireAt = (at: number) =>
        Effect.andThen(TestClock.setTime(at), delivery.expire).pipe(Effect.provide(TestClock.layer()))
      assert.strictEqual(yield* expireAt(Date.now() + 29 * 86_400_000), 0)
      assert.strictEqual(yield* count, 1)
      assert.isAtLeast(yield* expireAt(Date.now() + 31 * 86_400_000), 1)
      assert.strictEqual(yield* count, 0)

      // Events kept for a switched-off endpoint go with the history too.
      yield* send("PATCH", `/webhooks/${endpoint.id}`, { enabled: false })
      yield* draft("Kept a while")
      const sql = yield* SqlClient.SqlClient
      const held = Effect.map(
        Effect.orDie(sql<{ readonly count: number | string }>`
          SELECT count(*) AS count FROM webhook_messages WHERE endpoint_id = ${endpoint.id} AND state = 'held'`),
        (rows) => Number(rows[0]!.count)
      )
      yield* eventually("the event kept", Effect.map(held, (count) => count > 0))
      yield* expireAt(Date.now() + 29 * 86_400_000)
      assert.strictEqual(yield* held, 1)
      yield* expireAt(Date.now() + 31 * 86_400_000)
      assert.strictEqual(yield* held, 0)
    })))
})

// A receiver slower than any burst takes to write, on a server that waits for it: the slots it holds are its
// own, however loaded the machine running the test.
for (const backend of backends()) layer(serverLayer({ webhookTimeoutMs: 30_000 }, [examplePackage], backend), { excludeTestServices: true })(`webhook delivery to a slow receiver on ${backend.name}`, (it) => {
  it.effect("a slow receiver holds only its own slots: a healthy one beside it gets everything at once", () =>
    Effect.scoped(Effect.gen(function*() {
      // The slow receiver answers nothing until the healthy one has every event (the sender waits 30 s here):
      // were the healthy one queued behind the slow one's slots, it would never get them all. No clock is
      // read, so a loaded machine makes the test slower, not wrong.
      const release = Promise.withResolvers<void>()
      const slow = yield* receiver([200], release.promise)
      yield* Effect.addFinalizer(() => Effect.sync(() => release.resolve()))
      const healthy = yield* receiver([200])
      const { draft, send } = yield* client
      yield* send("POST", "/webhooks", { url: slow.url, events: ["post.created"] })
      yield* send("POST", "/webhooks", { url: healthy.url, events: ["post.created"] })
      yield* Effect.forEach(Array.from({ length: 80 }, (_, index) => index), (index) => draft(`Burst ${index}`), { discard: true })
      yield* waitFor(() => healthy.received.length >= 80 ? true : undefined)
      assert.isAtMost(slow.received.length, 32, "the slow receiver gets at most its 32 slots at a time")
      assert.strictEqual(new Set(healthy.received.map((item) => JSON.parse(item.body).id)).size, 80)
    })))
})

// The fan-out is woken by the notice each events-writing transaction sends when it commits (migration
// 0009); here the fallback polls are 100 minutes (fan-out) and 10 minutes (sending), so only the notice
// can bring the event out.
for (const backend of backends()) layer(serverLayer({}, [examplePackage], backend, { ...fastTuning, webhookPollEveryMs: 600_000 }), { excludeTestServices: true })(`webhook fan-out on ${backend.name}`, (it) => {
  it.effect("starts when an event commits, without waiting for a poll", () =>
    Effect.scoped(Effect.gen(function*() {
      const hook = yield* receiver([200])
      const { draft, send } = yield* client
      yield* send("POST", "/webhooks", { url: hook.url, events: ["post.created"] })
      // Twice: the first round after start-up may have run already; the second comes only from a notice.
      yield* draft("Woken")
      yield* waitFor(() => hook.received[0])
      yield* draft("Woken again")
      yield* waitFor(() => hook.received[1])
      assert.deepStrictEqual(hook.received.map((item) => JSON.parse(item.body).data.content), ["Woken", "Woken again"])
    })))
})

// The switch-off e-mail (logged here, with no SMTP server) goes only when failures switched the endpoint
// off, not when failures of attempts under way end after someone switched it off by hand.
const notices: Array<string> = []
const capture = Logger.make((options) => {
  const line = Logger.formatLogFmt.log(options)
  if (line.includes("e-mail not sent")) notices.push(line)
})
layer(serverLayer({ webhookDisableAfter: 1 }).pipe(Layer.provide(Logger.layer([capture]))), { excludeTestServices: true })("webhook switch-off notice", (it) => {
  it.effect("is sent when failures switch the endpoint off, and not after a switch-off by hand", () =>
    Effect.scoped(Effect.gen(function*() {
      // Answers wait until the manual endpoint has been switched off.
      const switchedOff = Promise.withResolvers<void>()
      yield* Effect.addFinalizer(() => Effect.sync(() => switchedOff.resolve()))
      const hook = yield* receiver([500], switchedOff.promise)
      const { send } = yield* client
      // By hand first: a test event under way fails after the switch-off, which would reach the threshold.
      const manual = (yield* send("POST", "/webhooks", { url: hook.url })).body.data
      const underway = yield* Effect.forkChild(send("POST", `/webhooks/${manual.id}/test`))
      yield* waitFor(() => hook.received[0])
      assert.strictEqual((yield* send("PATCH", `/webhooks/${manual.id}`, { enabled: false })).status, 200)
      switchedOff.resolve()
      // A test event's answer is the attempt recorded, and a switch-off's notice goes out as it is recorded.
      assert.strictEqual((yield* Fiber.join(underway)).body.data.statusCode, 500)
      assert.deepStrictEqual(notices, [], "no notice for an endpoint switched off by hand")

      // The failure switches the other endpoint off: one notice, naming it.
      const automatic = (yield* send("POST", "/webhooks", { url: `${hook.url}?automatic` })).body.data
      assert.strictEqual((yield* send("POST", `/webhooks/${automatic.id}/test`)).body.data.statusCode, 500)
      assert.strictEqual(notices.length, 1)
      assert.include(notices[0]!, automatic.id)
      assert.strictEqual((yield* send("GET", `/webhooks/${automatic.id}`)).body.data.enabled, false)
    })))
})
