import { Cause, Clock, Duration, Effect, Latch, RcMap, Semaphore } from "effect"
import { SqlClient } from "effect/sql"
import type { Answer } from "../WebhookHttp.ts"
import { planned } from "./planned.ts"
import type { Attempts } from "./webhookAttempt.ts"
import { type ClaimedRow, messageColumns, type MessageRow, type OpenEndpoint } from "./webhookRows.ts"

/**
 * The sender: claims due messages under a lease, gives each a slot of its endpoint's, and has it attempted.
 * Everything it keeps between rounds lives here and nowhere else: the latch that wakes it, each endpoint's
 * slots and count of claimed messages, the attempts answered and not yet recorded, and the messages claimed
 * ahead that a stopping process gives back.
 */
export const make = (options: { readonly timeoutMs: number; readonly perEndpoint: number }, attempts: Attempts) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const { perEndpoint } = options
    // Opened when there may be more to send: an event fanned out, or an attempt ended and freed a slot.
    const work = yield* Latch.make(false)
    // Requests under way to one endpoint are at most `perEndpoint` (its slots); up to three times as many
    // more of its messages are claimed ahead and wait for a slot, so that a freed slot is taken at once
    // rather than after a claim's round trip to the database: on a busy machine a claim takes as long as
    // several requests, and each claim takes what the requests freed meanwhile.
    const rounds = 4
    const claimAhead = rounds * perEndpoint
    // An attempt holds its message this long; a process that dies mid-attempt frees it when it ends. A
    // message claimed ahead waits at most a timeout for each round of requests before it, then takes at
    // most one itself.
    const leaseMs = options.timeoutMs * rounds + 5_000
    // Each endpoint's slots, held while one of its messages waits for a slot or is sent, and dropped with
    // the last: endpoints that have nothing under way keep nothing in memory. Made before the finalizer
    // below, so that a stopping process gives its waiting messages back before the slots close.
    const slots = yield* RcMap.make({ lookup: (_endpointId: string) => Semaphore.make(perEndpoint) })
    // Claimed messages of each endpoint not yet answered (under way or waiting for a slot). A plain map: the
    // claim reads every endpoint's count in one pass, and each count changes as an answer comes, before
    // the sender is woken; an endpoint with none is removed.
    const held = new Map<string, number>()
    const release = (endpointId: string) => {
      const left = (held.get(endpointId) ?? 1) - 1
      if (left > 0) held.set(endpointId, left)
      else held.delete(endpointId)
    }
    // Attempts answered and not yet recorded, all endpoints together. A slot is freed as its answer comes,
    // not once its attempt is written: the receiver's connection is what a slot stands for, and waiting
    // for the write (a batch behind another) held each slot twice as long. This bound keeps the sends
    // from running ahead of the database: past it the sender claims nothing until batches are written.
    let unrecorded = 0
    const maxUnrecorded = 2_000
    // Messages claimed ahead still waiting for a slot. When the process stops they are given back (due at
    // once, their claim's count undone) rather than left to their lease, four timeouts away; none of them
    // starts a request after that.
    const waiting = new Set<string>()
    let stopping = false
    yield* Effect.addFinalizer(() =>
      Effect.suspend(() => {
        stopping = true
        const ids = [...waiting]
        if (ids.length === 0) return Effect.void
        return Effect.flatMap(Clock.currentTimeMillis, (now) =>
          sql`UPDATE webhook_messages SET next_attempt_at = ${new Date(now)}, attempts = attempts - 1
            WHERE ${sql.in("id", ids)} AND state = 'pending'`).pipe(
            Effect.catchCause((cause) => Effect.logWarning("Webhook messages claimed ahead were not given back; their lease will", cause))
          )
      })
    )

    // Claims due messages fairly: at most the free slots of each endpoint, so a slow or failing
    // receiver's backlog never fills a claim and holds the healthy ones back. Each message comes with
    // its endpoint, so a round is one statement.
    const claim = Effect.fnUntraced(function*() {
      if (unrecorded >= maxUnrecorded) return []
      const busy = JSON.stringify([...held].map(([id, count]) => ({ id, count })))
      const now = new Date(yield* Clock.currentTimeMillis)
      const leaseUntil = new Date(now.getTime() + leaseMs)
      return yield* planned<ClaimedRow>(sql`
        WITH busy AS (
          SELECT * FROM jsonb_to_recordset(${busy}::jsonb) AS b(id text, count integer)
        ), endpoints AS (
          -- The endpoints, not the messages: a backlog of due messages (a slow receiver's) is never
          -- scanned whole; each endpoint is one probe of (endpoint_id, next_attempt_at).
          SELECT e.id AS endpoint_id, ${claimAhead} - coalesce(b.count, 0) AS free
          FROM webhook_endpoints e LEFT JOIN busy b ON b.id = e.id
          WHERE e.enabled AND coalesce(b.count, 0) < ${claimAhead}
        )
        -- The claimed ids as an array, which the planner takes as a few ids and probes by key; joined as a
        -- subquery with a per-endpoint LIMIT they were guessed at thousands of rows and joined by
        -- scanning the whole table (8 ms a claim at 30,000 messages).
        UPDATE webhook_messages m SET next_attempt_at = ${leaseUntil}, attempts = m.attempts + 1
        FROM webhook_endpoints e
        WHERE e.id = m.endpoint_id AND m.id = ANY(ARRAY(
          SELECT c.id FROM endpoints e CROSS JOIN LATERAL (
            SELECT m.id FROM webhook_messages m
            WHERE m.endpoint_id = e.endpoint_id AND m.state = 'pending' AND m.next_attempt_at <= ${now}
            ORDER BY m.next_attempt_at, m.sequence LIMIT e.free
            FOR UPDATE SKIP LOCKED
          ) c
        ))
        RETURNING ${sql.literal(messageColumns)}, e.url, e.workspace_id, e.secret`)
    })

    const sendClaimed = Effect.fn("WebhookDelivery.deliverDue")(function*(claimed: ReadonlyArray<ClaimedRow>) {
      for (const message of claimed) held.set(message.endpointId, (held.get(message.endpointId) ?? 0) + 1)
      // Each endpoint's secret opened once per round, however many of its messages were claimed.
      const endpoints = new Map<string, OpenEndpoint>()
      for (const message of claimed) {
        if (endpoints.has(message.endpointId)) continue
        endpoints.set(message.endpointId, yield* attempts.openEndpoint({
          id: message.endpointId,
          workspaceId: message.workspaceId,
          url: message.url,
          secret: message.secret,
          enabled: true
        }))
      }
      yield* Effect.forEach(claimed, (message) => Effect.forkDetach(inSlot(message, endpoints.get(message.endpointId)!)), { discard: true })
      return claimed.length
    })

    /** A claimed message's attempt: it waits for one of its endpoint's slots, and frees it when answered. */
    const inSlot = (message: MessageRow, endpoint: OpenEndpoint) =>
      Effect.suspend(() => {
        let answered = false
        waiting.add(message.id)
        const slot = (send: Effect.Effect<Answer>) =>
          Effect.scoped(Effect.flatMap(RcMap.get(slots, message.endpointId), (gate) =>
            gate.withPermit(Effect.suspend(() => {
              waiting.delete(message.id)
              return stopping ? Effect.interrupt : send
            })))).pipe(Effect.ensuring(Effect.sync(() => {
              answered = true
              release(message.endpointId)
              unrecorded++
              work.openUnsafe()
            })))
        // Its count is given back once whatever ends it: the slot when there was no answer, else the record.
        const ended = Effect.sync(() => {
          waiting.delete(message.id)
          if (answered) unrecorded--
          else release(message.endpointId)
          work.openUnsafe()
        })
        return attempts.attempt(message, endpoint, message.attempts, false, slot).pipe(
          Effect.ensuring(ended),
          Effect.catchCause((cause) =>
            // Interrupted only when the process stops before its slot came: it was given back.
            Cause.hasInterruptsOnly(cause)
              ? Effect.void
              : Effect.logWarning("Webhook attempt failed to record; its lease will bring it back", cause)
          )
        )
      })

    /** Claims the due messages and sends them; answers how many it sent. */
    const deliverDue = Effect.fnUntraced(function*() {
      const claimed = yield* Effect.withTracerEnabled(claim(), false)
      return claimed.length === 0 ? 0 : yield* sendClaimed(claimed)
    })

    /** There may be more to send (an event fanned out). */
    const wake = Effect.sync(() => work.openUnsafe())

    const waitForWork = (ms: number) =>
      Effect.andThen(Effect.raceFirst(Effect.sleep(Duration.millis(ms)), work.await), work.close)

    return { deliverDue: deliverDue(), wake, waitForWork }
  })
