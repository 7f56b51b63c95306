import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { QueueSchedule } from "../src/index.ts"

const schedule = (...slots: ReadonlyArray<readonly [QueueSchedule.Day, string]>): QueueSchedule.Schedule => ({
  slots: slots.map(([day, time]) => ({ day, time }))
})

const next = (zone: string, from: string, count: number, ...slots: ReadonlyArray<readonly [QueueSchedule.Day, string]>) =>
  QueueSchedule.upcoming(schedule(...slots), zone, new Date(from), count).map((at) => at.toISOString())

describe("QueueSchedule.upcoming: wall-clock slots across daylight saving", () => {
  it("Europe/Berlin spring forward (2026-03-29): a 02:30 slot that does not exist is skipped", () => {
    assert.deepStrictEqual(next("Europe/Berlin", "2026-03-28T00:00:00Z", 3, ["sun", "02:30"], ["sun", "12:00"]), [
      "2026-03-29T10:00:00.000Z",
      "2026-04-05T00:30:00.000Z",
      "2026-04-05T10:00:00.000Z"
    ])
  })

  it("Europe/Berlin fall back (2026-10-25): a 02:30 slot that happens twice is used once, at the first", () => {
    assert.deepStrictEqual(next("Europe/Berlin", "2026-10-24T00:00:00Z", 3, ["sun", "02:30"], ["sun", "12:00"]), [
      "2026-10-25T00:30:00.000Z",
      "2026-10-25T11:00:00.000Z",
      "2026-11-01T01:30:00.000Z"
    ])
  })

  it("America/New_York spring forward (2026-03-08): 02:30 skipped, 01:30 kept", () => {
    assert.deepStrictEqual(next("America/New_York", "2026-03-07T00:00:00Z", 3, ["sun", "02:30"], ["sun", "01:30"]), [
      "2026-03-08T06:30:00.000Z",
      "2026-03-15T05:30:00.000Z",
      "2026-03-15T06:30:00.000Z"
    ])
  })

  it("America/New_York fall back (2026-11-01): 01:30 happens twice and is used at its first (EDT)", () => {
    assert.deepStrictEqual(next("America/New_York", "2026-10-31T00:00:00Z", 3, ["sun", "02:30"], ["sun", "01:30"]), [
      "2026-11-01T05:30:00.000Z",
      "2026-11-01T07:30:00.000Z",
      "2026-11-08T06:30:00.000Z"
    ])
  })

  it("a slot after the repeated hour's first occurrence is not offered again in the second", () => {
    // 01:30 EDT is 05:30Z; from 05:45Z the wall clock shows 01:30 again at 06:30Z (EST), which is not a new slot.
    assert.deepStrictEqual(next("America/New_York", "2026-11-01T05:45:00Z", 1, ["sun", "01:30"]), [
      "2026-11-08T06:30:00.000Z"
    ])
  })

  it("Australia/Lord_Howe's 30-minute shifts: 01:45 twice in April (first kept), 02:15 missing in October", () => {
    assert.deepStrictEqual(next("Australia/Lord_Howe", "2026-04-04T00:00:00Z", 2, ["sun", "01:45"], ["sun", "02:15"]), [
      "2026-04-04T14:45:00.000Z",
      "2026-04-04T15:45:00.000Z"
    ])
    assert.deepStrictEqual(next("Australia/Lord_Howe", "2026-10-03T00:00:00Z", 2, ["sun", "01:45"], ["sun", "02:15"]), [
      "2026-10-03T15:15:00.000Z",
      "2026-10-10T14:45:00.000Z"
    ])
  })

  it("orders slots across days and starts at `from` itself (a slot at `from` counts)", () => {
    // 2026-11-23 is a Monday.
    assert.deepStrictEqual(
      next("UTC", "2026-11-23T09:00:00Z", 4, ["fri", "17:30"], ["mon", "13:00"], ["mon", "09:00"], ["wed", "00:00"]),
      ["2026-11-23T09:00:00.000Z", "2026-11-23T13:00:00.000Z", "2026-11-25T00:00:00.000Z", "2026-11-27T17:30:00.000Z"]
    )
  })

  it("an empty schedule has no upcoming slots", () => {
    assert.deepStrictEqual(next("UTC", "2026-11-23T09:00:00Z", 5), [])
  })
})

describe("QueueSchedule.check", () => {
  it("sorts a valid schedule, Monday first then by time", () => {
    const result = QueueSchedule.check({
      slots: [{ day: "sun", time: "08:00" }, { day: "mon", time: "17:30" }, { day: "mon", time: "09:00" }]
    })
    assert.deepStrictEqual(result, {
      _tag: "Valid",
      schedule: schedule(["mon", "09:00"], ["mon", "17:30"], ["sun", "08:00"])
    })
  })

  it("names the bad time, the unknown day and the duplicate slot by field and value", () => {
    const result = QueueSchedule.check({
      slots: [
        { day: "mon", time: "09:00" },
        { day: "funday", time: "10:00" },
        { day: "tue", time: "24:00" },
        { day: "mon", time: "09:00" },
        { day: "wed", time: "9:00" }
      ]
    })
    assert.strictEqual(result._tag, "Invalid")
    if (result._tag !== "Invalid") return
    assert.deepStrictEqual(result.problems.map((problem) => problem.field), ["slots.1.day", "slots.2.time", "slots.3", "slots.4.time"])
    assert.include(result.problems[0]!.message, "funday")
    assert.include(result.problems[1]!.message, "24:00")
    assert.include(result.problems[2]!.message, "mon 09:00")
    assert.include(result.problems[3]!.message, "9:00")
  })
})

describe("QueueSchedule properties", () => {
  const zones = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "America/Santiago"]
  const slot = fc.record({
    day: fc.constantFrom(...QueueSchedule.days),
    time: fc
      .tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45, 59))
      .map(([h, m]) => `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`)
  })
  const slots = fc.uniqueArray(slot, { minLength: 1, maxLength: 12, selector: (s) => `${s.day} ${s.time}` })
  const from = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2032, 0, 1) }).map((ms) => new Date(ms))

  it("upcoming is strictly increasing, starts at or after `from`, and every instant is one of the slots", () => {
    fc.assert(
      fc.property(slots, fc.constantFrom(...zones), from, (slotList, zone, start) => {
        const sched: QueueSchedule.Schedule = { slots: slotList }
        const instants = QueueSchedule.upcoming(sched, zone, start, 15)
        assert.strictEqual(instants.length, 15)
        assert.isAtLeast(instants[0]!.getTime(), start.getTime())
        for (let index = 1; index < instants.length; index++) {
          assert.isAbove(instants[index]!.getTime(), instants[index - 1]!.getTime())
        }
        for (const at of instants) {
          const shown = QueueSchedule.slotAt(zone, at)
          assert.isTrue(slotList.some((s) => s.day === shown.day && s.time === shown.time), `${at.toISOString()} ${zone}`)
        }
      }),
      { numRuns: 300 }
    )
  })

  // The fast path (one offset for a day away from a change) against working out every slot of every day whole.
  it("upcoming gives exactly the first instants of every slot, day by day, from `from` on", () => {
    fc.assert(
      fc.property(slots, fc.constantFrom(...zones), from, (slotList, zone, start) => {
        const firstDay = Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate()) - 2 * 86_400_000
        const expected: Array<number> = []
        for (let index = 0; index < 8 * 17; index++) {
          const midnight = firstDay + index * 86_400_000
          const weekday = QueueSchedule.days[(new Date(midnight).getUTCDay() + 6) % 7]
          for (const entry of slotList.filter((s) => s.day === weekday)) {
            const local = midnight + Number(entry.time.slice(0, 2)) * 3_600_000 + Number(entry.time.slice(3, 5)) * 60_000
            const at = QueueSchedule.firstInstant(zone, local)
            if (at !== undefined && at >= start.getTime()) expected.push(at)
          }
        }
        const instants = QueueSchedule.upcoming({ slots: slotList }, zone, start, 15).map((at) => at.getTime())
        assert.deepStrictEqual(instants, expected.sort((a, b) => a - b).slice(0, 15))
      }),
      { numRuns: 300 }
    )
  })
})
