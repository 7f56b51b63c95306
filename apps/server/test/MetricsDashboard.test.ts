import { assert, describe, it as plain, layer } from "@effect/vitest"
import { Duration, Effect, Metric, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { PublishError } from "@herald/adapter-kit"
import { Inbox } from "@herald/core"
import { eventually } from "../../../testing/eventually.ts"
import { networkTimeouts } from "../src/NetworkWatch.ts"
import { apiWithKey, fastTuning, serverLayer, workspaceWithKey } from "./harness.ts"
import { exampleWith, setup as inboxSetup } from "./inbox.ts"
import { samples } from "./prometheus.ts"
import { setup as publishingSetup } from "./publishing.ts"
import { receiver } from "./statusReceiver.ts"

// The Grafana dashboard (docs/grafana/herald.json) names only series Herald exports: every panel's query
// is read for the metric names it uses, and each must be a series of GET /metrics after activity that
// produces them all (requests, a refusal over the rate limit, posts published and failed, webhooks
// delivered, failed and switched off, inbox reads that worked and one that failed). It also imports as
// it is: a Prometheus datasource input used by every panel.

const dashboardFile = join(import.meta.dirname, "..", "..", "..", "docs", "grafana", "herald.json")

interface Panel {
  readonly id: number
  readonly type: string
  readonly title: string
  readonly datasource?: { readonly type: string; readonly uid: string }
  readonly targets?: ReadonlyArray<{ readonly expr: string; readonly datasource?: { readonly uid: string } }>
  readonly panels?: ReadonlyArray<Panel>
}

const readDashboard = () => JSON.parse(readFileSync(dashboardFile, "utf8"))

/** Every panel, those inside collapsed rows too. */
const panelsOf = (dashboard: { readonly panels: ReadonlyArray<Panel> }): ReadonlyArray<Panel> =>
  dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])])

const exprsOf = (dashboard: { readonly panels: ReadonlyArray<Panel> }) =>
  panelsOf(dashboard).flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })))

// PromQL words that read like names: keywords and binary operators.
const keywords = new Set(["by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or", "unless", "offset", "inf", "nan"])

/**
 * The metric names a PromQL expression reads: what is left once strings, label matchers, ranges and
 * label lists are taken out, without function names (followed by `(`), keywords, numbers and Grafana's
 * `$variables`.
 */
const metricNames = (expr: string): ReadonlyArray<string> => {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, "\"\"")
    .replace(/\{[^}]*\}/g, " ")
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/gi, " ")
  const names = new Set<string>()
  for (const match of stripped.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const before = stripped[match.index - 1] ?? " "
    if (/[0-9.$]/.test(before)) continue
    if (stripped.slice(match.index + match[0].length).trimStart().startsWith("(")) continue
    if (keywords.has(match[0].toLowerCase())) continue
    names.add(match[0])
  }
  return [...names]
}

/** The dashboard's queries naming a series not in `exported`: `panel: name`. */
const unexported = (dashboard: { readonly panels: ReadonlyArray<Panel> }, exported: ReadonlySet<string>) =>
  exprsOf(dashboard).flatMap(({ expr, panel }) =>
    metricNames(expr).filter((name) => !exported.has(name)).map((name) => `${panel}: ${name}`))

describe("the dashboard's queries", () => {
  plain("are read for metric names only", () => {
    assert.deepStrictEqual(
      metricNames(`histogram_quantile(0.95, sum by (route, le) (rate(herald_http_request_duration_seconds_bucket{status=~"5..", route!="x"}[$__rate_interval])))`),
      ["herald_http_request_duration_seconds_bucket"]
    )
    assert.deepStrictEqual(
      metricNames(`sum(rate(a_total{x="y"}[5m] offset 1h)) by (x) / ignoring(x) group_left sum(b_total) * 1e3 > bool 0.5 and on(z) c`),
      ["a_total", "b_total", "c"]
    )
    assert.deepStrictEqual(metricNames(`max(herald_posts_due_next_hour) or vector(0)`), ["herald_posts_due_next_hour"])
  })

  plain("import as they are: one Prometheus input, used by every panel and query", () => {
    const dashboard = readDashboard()
    const input = dashboard.__inputs.find((candidate: { readonly name: string }) => candidate.name === "DS_PROMETHEUS")
    assert.deepInclude(input, { type: "datasource", pluginId: "prometheus" })
    assert.isAtLeast(dashboard.schemaVersion, 36)
    assert.isNull(dashboard.id)
    const panels = panelsOf(dashboard)
    assert.strictEqual(new Set(panels.map((panel) => panel.id)).size, panels.length, "panel ids are unique")
    for (const panel of panels.filter((panel) => panel.type !== "row")) {
      assert.deepStrictEqual(panel.datasource, { type: "prometheus", uid: "${DS_PROMETHEUS}" }, panel.title)
      assert.isAbove(panel.targets?.length ?? 0, 0, panel.title)
      for (const target of panel.targets ?? []) assert.strictEqual(target.datasource?.uid, "${DS_PROMETHEUS}", panel.title)
    }
  })
})

/** The example network, failing the inbox reads of the accounts in `inboxDown`. */
const inboxDown = new Set<string>()
const example = exampleWith((inbox) => ({
  fetch: (input) =>
    inboxDown.has(input.account.username)
      ? Effect.fail(PublishError.transient("example", "The inbox is down for maintenance"))
      : inbox.fetch(input)
}))

/** A post's status once it has ended, read from the database (no API request counts against the limit). */
const ended = (postId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    eventually(
      `post ${postId} to end`,
      Effect.map(
        Effect.orDie(sql<{ readonly status: string }>`SELECT status FROM posts WHERE id = ${postId}`),
        ([row]) => row !== undefined && ["published", "partial", "failed"].includes(row.status) && row.status
      )
    ))

const token = "dashboard-metrics-token-0123456789"
const rateLimitPerMinute = 30

/** Everything that makes a series: each step what an operator's Herald does in a day. */
const activity = Effect.scoped(Effect.gen(function*() {
  // A call a network left unanswered past Herald's timeout, as NetworkWatch counts it (NetworkTimeouts.test.ts
  // makes one for real): a counter has no series until it counts, and this process's registry holds whatever
  // files ran before in this worker, so the series is made here rather than left to the order of files.
  yield* Metric.update(Metric.withAttributes(networkTimeouts, { network: "dashboard.test" }), 1)
  // Publishing: one post out, one refused by the network, one scheduled within the hour.
  const publishing = yield* publishingSetup(["example"])
  const accountIds = [publishing.accounts["example"]!]
  const out = yield* publishing.create({ content: "Out it goes", accountIds, publishNow: true })
  const refused = yield* publishing.create({ content: "Refused #sandbox-fail", accountIds, publishNow: true })
  yield* publishing.create({ content: "Soon", accountIds, scheduledAt: new Date(Date.now() + 30 * 60_000).toISOString() })
  assert.strictEqual(yield* ended(out.id), "published")
  assert.strictEqual(yield* ended(refused.id), "failed")

  // Webhooks: delivered, failed (and so switched off, after one failure here), unreachable.
  const healthy = yield* receiver(204)
  const failing = yield* receiver(500)
  for (const url of [healthy.url, failing.url]) {
    const created = yield* publishing.send("POST", "/webhooks", { url, events: [] })
    assert.strictEqual(created.status, 200, created.text)
    assert.strictEqual((yield* publishing.send("POST", `/webhooks/${created.body.data.id}/test`)).status, 200)
  }

  // The inbox: one account read, another whose network fails.
  const inbox = yield* Inbox.Inbox
  yield* inboxSetup("dash")
  const down = yield* inboxSetup("down")
  inboxDown.add(`${down.tag}_ex`)
  yield* Effect.orDie(inbox.pollDue)

  // A key past its limit.
  const { key } = yield* workspaceWithKey("Busy")
  const send = yield* apiWithKey(key.key)
  let refusedRequest = false
  for (let sent = 0; sent <= rateLimitPerMinute * 2 && !refusedRequest; sent++) {
    refusedRequest = (yield* send("GET", "/accounts")).status === 429
  }
  assert.isTrue(refusedRequest, "the key was refused over its limit")
}))

layer(
  serverLayer(
    { metricsToken: Option.some(Redacted.make(token)), rateLimitPerMinute, webhookDisableAfter: 1 },
    [example],
    undefined,
    { ...fastTuning, inboxPollEvery: Duration.zero }
  ),
  { excludeTestServices: true }
)("the dashboard against the running server", (it) => {
  it.effect("every series its queries name is exported by GET /metrics, and every Herald series has a panel", () =>
    Effect.gen(function*() {
      yield* activity
      const found = yield* samples(token)
      const exported = new Set(found.map((sample) => sample.name))
      const dashboard = readDashboard()
      const missing = unexported(dashboard, exported)
      assert.deepStrictEqual(missing, [], `the dashboard names series Herald does not export: ${missing.join(", ")}`)

      // Each series family Herald exports appears in some query (histograms by their buckets).
      const used = new Set(exprsOf(dashboard).flatMap(({ expr }) => metricNames(expr)))
      const families = [...exported].filter((name) => name.startsWith("herald_") && !/_(sum|count)$/.test(name))
      const unshown = families.filter((name) => !used.has(name))
      assert.deepStrictEqual(unshown, [], `no panel shows: ${unshown.join(", ")}`)

      // A dashboard naming a series Herald does not export is caught.
      const edited = structuredClone(dashboard)
      const panel = panelsOf(edited).find((candidate) => candidate.targets?.some((target) => target.expr.includes("herald_posts_created_total")))!
      ;(panel.targets![0] as { expr: string }).expr = "sum(rate(herald_posts_published_total[5m]))"
      assert.deepStrictEqual(unexported(edited, exported), [`${panel.title}: herald_posts_published_total`])
    }))
})
