import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiKeys, Team } from "@herald/core"
import { backends } from "@herald/db/testing"
import { acceptAs, apiWithKey, examplePackage, serverLayer, workspaceWithKey } from "./harness.ts"

// The queue's weekly schedule over REST (docs/queue.md): the workspace's, an account's own, and the fallback.

const setup = Effect.gen(function*() {
  const { key, workspace } = yield* workspaceWithKey("Queue", `owner@${tag()}.test`)
  const sql = yield* SqlClient.SqlClient
  const accountId = `acc_q${workspace.id.slice(4, 24)}`
  yield* sql`INSERT INTO accounts (id, workspace_id, platform, username) VALUES (${accountId}, ${workspace.id}, 'example', 'q')`
  const team = yield* Team.Team
  const apiKeys = yield* ApiKeys.ApiKeys
  const invitation = yield* team.invite(workspace.id, { email: `ed@${workspace.id}.test`, role: "editor" })
  const { member } = yield* acceptAs(invitation)
  const editorKey = (yield* apiKeys.create({ workspaceId: workspace.id, memberId: member.id })).key
  return { workspace, accountId, send: yield* apiWithKey(key.key), editor: yield* apiWithKey(editorKey) }
}).pipe(Effect.orDie)

let counter = 0
const tag = () => `q${++counter}`

const weekdays = { slots: [{ day: "fri", time: "17:30" }, { day: "mon", time: "09:00" }, { day: "mon", time: "13:00" }] }
const sortedWeekdays = [{ day: "mon", time: "09:00" }, { day: "mon", time: "13:00" }, { day: "fri", time: "17:30" }]

for (const backend of backends()) layer(serverLayer({}, [examplePackage], backend), { excludeTestServices: true })(
  `queue schedule over REST on ${backend.name}`,
  (it) => {
    it.effect("the workspace's schedule starts empty, round-trips sorted, and shows the workspace's time zone", () =>
      Effect.gen(function*() {
        const { send } = yield* setup
        const empty = yield* send("GET", "/queue/schedule")
        assert.strictEqual(empty.status, 200, empty.text)
        assert.deepStrictEqual(empty.body.data, { timeZone: "UTC", slots: [], accountId: null, inherited: false })

        assert.strictEqual((yield* send("PATCH", "/workspace", { timeZone: "Europe/Berlin" })).status, 200)
        const put = yield* send("PUT", "/queue/schedule", weekdays)
        assert.strictEqual(put.status, 200, put.text)
        assert.deepStrictEqual(put.body.data, { timeZone: "Europe/Berlin", slots: sortedWeekdays, accountId: null, inherited: false })
        assert.deepStrictEqual((yield* send("GET", "/queue/schedule")).body.data, put.body.data)

        // A PUT replaces the whole schedule.
        const replaced = yield* send("PUT", "/queue/schedule", { slots: [{ day: "sun", time: "00:00" }] })
        assert.deepStrictEqual(replaced.body.data.slots, [{ day: "sun", time: "00:00" }])
      }))

    it.effect("a bad time, an unknown day and a duplicate slot are invalid, each named with its value", () =>
      Effect.gen(function*() {
        const { send, accountId } = yield* setup
        const bad = {
          slots: [{ day: "mon", time: "09:00" }, { day: "someday", time: "10:00" }, { day: "tue", time: "25:00" }, {
            day: "mon",
            time: "09:00"
          }]
        }
        for (const path of ["/queue/schedule", `/accounts/${accountId}/queue-schedule`]) {
          const answer = yield* send("PUT", path, bad)
          assert.strictEqual(answer.status, 400, answer.text)
          assert.strictEqual(answer.body.error.code, "invalid")
          const details = answer.body.error.details as ReadonlyArray<{ field: string; message: string }>
          assert.deepStrictEqual(details.map((detail) => detail.field), ["slots.1.day", "slots.2.time", "slots.3"])
          assert.include(details[0]!.message, "someday")
          assert.include(details[1]!.message, "25:00")
          assert.include(details[2]!.message, "mon 09:00")
        }
        // Nothing was stored.
        assert.deepStrictEqual((yield* send("GET", "/queue/schedule")).body.data.slots, [])

        const missing = yield* send("PUT", "/queue/schedule", { slots: [{ day: "mon" }] })
        assert.strictEqual(missing.status, 400, missing.text)
        assert.strictEqual(missing.body.error.code, "invalid")
      }))

    it.effect("an account inherits the workspace's schedule, overrides it, and falls back after DELETE", () =>
      Effect.gen(function*() {
        const { send, accountId } = yield* setup
        yield* send("PUT", "/queue/schedule", weekdays)
        const path = `/accounts/${accountId}/queue-schedule`

        const inherited = yield* send("GET", path)
        assert.strictEqual(inherited.status, 200, inherited.text)
        assert.deepStrictEqual(inherited.body.data, { timeZone: "UTC", slots: sortedWeekdays, accountId, inherited: true })

        const own = yield* send("PUT", path, { slots: [{ day: "sat", time: "11:15" }] })
        assert.strictEqual(own.status, 200, own.text)
        assert.deepStrictEqual(own.body.data, { timeZone: "UTC", slots: [{ day: "sat", time: "11:15" }], accountId, inherited: false })
        assert.deepStrictEqual((yield* send("GET", path)).body.data, own.body.data)
        // The workspace's own schedule is untouched by the override.
        assert.deepStrictEqual((yield* send("GET", "/queue/schedule")).body.data.slots, sortedWeekdays)

        const dropped = yield* send("DELETE", path)
        assert.strictEqual(dropped.status, 200, dropped.text)
        assert.deepStrictEqual(dropped.body.data, inherited.body.data)
        assert.deepStrictEqual((yield* send("GET", path)).body.data, inherited.body.data)
      }))

    it.effect("an unknown account, or another workspace's, is 404 not_found", () =>
      Effect.gen(function*() {
        const mine = yield* setup
        const theirs = yield* setup
        for (const id of ["acc_nope", theirs.accountId]) {
          const path = `/accounts/${id}/queue-schedule`
          for (const [method, body] of [["GET", undefined], ["PUT", weekdays], ["DELETE", undefined]] as const) {
            const answer = yield* mine.send(method, path, body)
            assert.strictEqual(answer.status, 404, `${method} ${path}: ${answer.text}`)
            assert.strictEqual(answer.body.error.code, "not_found")
          }
        }
      }))

    it.effect("editors read the schedule but only owners, admins and workspace keys change it", () =>
      Effect.gen(function*() {
        const { editor, accountId } = yield* setup
        assert.strictEqual((yield* editor("GET", "/queue/schedule")).status, 200)
        assert.strictEqual((yield* editor("GET", `/accounts/${accountId}/queue-schedule`)).status, 200)
        for (
          const [method, path] of [
            ["PUT", "/queue/schedule"],
            ["PUT", `/accounts/${accountId}/queue-schedule`],
            ["DELETE", `/accounts/${accountId}/queue-schedule`]
          ] as const
        ) {
          const answer = yield* editor(method, path, method === "PUT" ? weekdays : undefined)
          assert.strictEqual(answer.status, 403, `${method} ${path}: ${answer.text}`)
          assert.strictEqual(answer.body.error.code, "forbidden")
        }
      }))
  }
)
