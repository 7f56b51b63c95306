import { assert, describe, it, layer } from "@effect/vitest"
import { Adapter, ApiVersion } from "@herald/adapter-kit"
import { ExampleNetwork } from "@herald/adapter-kit/testing"
import { Networks } from "@herald/core"
import { Effect, Layer, Logger, References } from "effect"
import * as ApiSunsets from "../src/ApiSunsets.ts"
import * as Packages from "../src/Packages.ts"
import { sources } from "../src/internal/readmeLimits.ts"
import { baseUrl, bearer, request, serverLayer, workspaceWithKey } from "./harness.ts"

// The network API versions the adapters call, as dated, sourced data (issue 31): each installed network
// declares one, `GET /api/v1/networks` publishes it, start-up warns 60 days before its sunset, and this file
// fails 30 days before, so no release calls a version about to die (Facebook's called Graph v20.0 two months
// after Meta retired it).

const day = /^\d{4}-\d{2}-\d{2}$/

/** An adapter that is only its name and its API version. */
const calling = (name: string, api: ApiVersion.ApiVersion) =>
  Adapter.make({
    network: name.toLowerCase().replace(/\W/g, ""),
    name,
    limits: ExampleNetwork.limits,
    api,
    capabilities: { text: true, photos: false, videos: false, thread: false, firstComment: false, refresh: false, reconcile: false, asyncProcessing: false },
    publish: () => Effect.die("not published here")
  })

describe("network API versions", () => {
  for (const { folder, api } of sources) {
    it(`${folder} calls a version served for 30 days more at least, and says where that is written`, () => {
      const left = ApiVersion.daysLeft(api, new Date())
      assert.isTrue(left === null || left > 30, `${folder}: ${api.version} is retired on ${api.sunset} (${api.source}): move to a current version`)
      assert.match(api.source, /^https:\/\//)
      assert.match(api.checked, day)
      assert.isAtMost(Date.parse(api.checked), Date.now(), "read on a day that has come")
      if (api.sunset !== null) assert.match(api.sunset, day)
    })
  }

  it("warns of a version within 60 days of its sunset, and of one past it", () => {
    const graph = { version: "v20.0", sunset: "2026-09-24", source: "https://developers.facebook.com/docs/graph-api/changelog", checked: "2026-12-02" }
    const facebook = calling("Facebook Pages", graph)
    assert.deepStrictEqual(ApiSunsets.warnings([facebook], new Date("2026-07-25T12:00:00Z")), [])
    assert.deepStrictEqual(ApiSunsets.warnings([facebook], new Date("2026-07-26T12:00:00Z")), [
      "Facebook Pages API v20.0 is retired on 2026-09-24, in 60 days (https://developers.facebook.com/docs/graph-api/changelog): update Herald before then"
    ])
    assert.deepStrictEqual(ApiSunsets.warnings([facebook], new Date("2026-09-23T23:59:00Z")), [
      "Facebook Pages API v20.0 is retired on 2026-09-24, in 1 day (https://developers.facebook.com/docs/graph-api/changelog): update Herald before then"
    ])
    assert.deepStrictEqual(ApiSunsets.warnings([facebook], new Date("2026-12-02T08:00:00Z")), [
      "Facebook Pages API v20.0 was retired on 2026-09-24 (https://developers.facebook.com/docs/graph-api/changelog): calls to it may fail; update Herald"
    ])
    // No sunset announced: nothing to say, whenever it is.
    const open = calling("Open", { ...graph, sunset: null })
    assert.deepStrictEqual(ApiSunsets.warnings([open], new Date("2099-01-01T00:00:00Z")), [])
  })
})

const lines: Array<string> = []
const capture = Logger.make((options) => void lines.push(Logger.formatLogFmt.log(options)))

describe("start-up", () => {
  it.effect("logs one warning per network whose version is retired or near its sunset", () =>
    Effect.gen(function*() {
      lines.length = 0
      const near = { ...ExampleNetwork.api, version: "v9", sunset: "1970-02-01" }
      const adapters = [
        calling("Near", near),
        calling("Far", { ...near, sunset: "1999-01-01" })
      ]
      // The test clock starts at 1970-01-01: `near` retires in 31 days, `far` decades later.
      yield* Layer.build(ApiSunsets.layer).pipe(
        Effect.provide(Layer.mergeAll(
          Networks.Networks.layer(Effect.succeed(adapters)),
          Logger.layer([capture]),
          Layer.succeed(References.MinimumLogLevel, "All")
        )),
        Effect.scoped
      )
      assert.strictEqual(lines.length, 1, lines.join("\n"))
      assert.include(lines[0], "level=WARN")
      assert.include(lines[0], "Near API v9 is retired on 1970-02-01, in 31 days")
    }))
})

layer(serverLayer({}, Packages.all), { excludeTestServices: true })("GET /api/v1/networks", (it) => {
  it.effect("shows each network's API version, its sunset and the page they come from", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      const answer = yield* request(`${base}/api/v1/networks`, { headers: bearer(key.key) })
      assert.strictEqual(answer.status, 200, answer.text)
      const published = new Map(answer.body.data.map((network: any) => [network.key, network.api]))
      for (const entry of Packages.all) {
        assert.deepStrictEqual(published.get(entry.network), entry.readme?.api, entry.network)
      }
      assert.strictEqual((published.get("facebook") as ApiVersion.ApiVersion).version, "v27.0")
      assert.strictEqual((published.get("instagram") as ApiVersion.ApiVersion).version, "v27.0")
      assert.deepInclude(published.get("linkedin") as ApiVersion.ApiVersion, { version: "202603", sunset: "2027-03-15" })
    }))
})
