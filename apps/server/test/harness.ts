import { Duration, Effect, Layer, Option, Redacted, References } from "effect"
import { mkdtempSync } from "node:fs"
import type { Server as HttpServerOfNode } from "node:http"
import { type AddressInfo, createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { HttpServer } from "effect/http"
import { ApiKeys, ClientAddress, People, type Publisher, type Settings, Team, Workspaces } from "@herald/core"
import type { Workspace } from "@herald/domain"
import { type Backend, backends } from "@herald/db/testing"
import { ExampleNetwork } from "@herald/adapter-kit/testing"
import * as Main from "../src/Main.ts"
import type { NetworkPackage } from "../src/NetworkPackages.ts"
import { request } from "./request.ts"
export { request } from "./request.ts"

export const settings = (overrides: Partial<Settings.Settings> = {}): Settings.Settings => ({
  port: 0,
  host: "127.0.0.1",
  baseUrl: Option.none(),
  databaseUrl: Option.none(),
  dataDir: mkdtempSync(join(tmpdir(), "herald-server-test-")),
  secretKey: Option.some(Redacted.make(new Uint8Array(32).fill(7))),
  rateLimitPerMinute: 1000,
  sandbox: Option.some(true),
  role: "all",
  runnerHost: "127.0.0.1",
  runnerPort: 0,
  webhookAllowPrivate: true,
  webhookTimeoutMs: 2_000,
  networkTimeoutMs: 60_000,
  webhookRetrySchedule: [200, 400],
  webhookDisableAfter: 50,
  trustedProxies: ClientAddress.noProxies,
  smtpUrl: Option.none(),
  metricsToken: Option.none(),
  logFormat: "text",
  otlpEndpoint: Option.none(),
  ...overrides
})

/**
 * The kit's example network, standing in for a third-party adapter package: the server offers it without
 * any change to the core.
 */
export const examplePackage: NetworkPackage = {
  network: "example",
  make: ExampleNetwork.make,
  simulator: ExampleNetwork.simulator,
  realConfig: (clientId, clientSecret) => ({
    apiBaseUrl: "https://api.example.invalid",
    authBaseUrl: "https://example.invalid",
    webBaseUrl: "https://example.invalid",
    clientId,
    clientSecret
  })
}

/** Retries and processing polls a test can wait for: the same steps, shorter waits. */
export const fastTuning = {
  publishing: { baseDelayMs: 50, maxDelayMs: 200, pollWaitCapMs: 100 } satisfies Partial<Publisher.Options>,
  // A server stopped by a test gives its entities a moment, not the 15 s a real shutdown does.
  cluster: { entityTerminationTimeout: Duration.millis(500) }
}

/** The whole server on an ephemeral port over the embedded test database, in the sandbox. */
export const serverLayer = (
  overrides: Partial<Settings.Settings> = {},
  packages: ReadonlyArray<NetworkPackage> = [examplePackage],
  backend: Backend = backends()[0]!,
  tuning: Parameters<typeof Main.layerWith>[4] = fastTuning
) =>
  Main.layerWith(settings(overrides), backend.layer, false, packages, tuning).pipe(Layer.provide(quiet))

/** Warnings and errors only: one line per publish attempt would bury a failing test's output. */
export const quiet = Layer.succeed(References.MinimumLogLevel, "Warn")

/**
 * Stops a test's own HTTP server (a webhook receiver) at once. `close` alone closes the connections idle at
 * that moment and waits for the others to go idle and then for their keep-alive timeout (5 s): a receiver
 * still answering Herald when its test ends held the test's end that long.
 */
export const closeNow = (server: HttpServerOfNode) =>
  new Promise<void>((done) => {
    server.close(() => done())
    server.closeAllConnections()
  })

/** A port free right now, for a test that starts servers on one address again (a restart). */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

/** The address the test server listens on. */
export const baseUrl = Effect.map(HttpServer.HttpServer, (server) => HttpServer.formatAddress(server.address))

/** A fresh workspace with one key: `{ workspace, key }`; with `ownerEmail`, its owner too. */
export const workspaceWithKey = (name = "Test", ownerEmail?: string) =>
  Effect.gen(function*() {
    const workspaces = yield* Workspaces.Workspaces
    const apiKeys = yield* ApiKeys.ApiKeys
    const workspace = yield* workspaces.create({ name, ownerEmail })
    const key = yield* apiKeys.create({ workspaceId: workspace.id })
    return { workspace, key }
  }).pipe(Effect.orDie)

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` })


/** Calls `/api/v1` of the test server with a key, as any client would: JSON in, the answer read whole. */
export const apiWithKey = (key: string) =>
  Effect.map(baseUrl, (base) => (method: string, path: string, body?: unknown) =>
    request(`${base}/api/v1${path}`, {
      method,
      headers: { ...bearer(key), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    }))

/**
 * Accepts an invitation as the person with its address, made by the operator's path (verified) when there is
 * none: how a test adds a member without going through the console.
 */
export const acceptAs = (invitation: Workspace.Invitation) =>
  Effect.gen(function*() {
    const person = yield* (yield* People.People).ensure(invitation.email)
    return yield* (yield* Team.Team).accept(invitation.url.split("#").at(-1)!, person.id)
  })

/** A TCP listener on 127.0.0.1 that only counts the connections made to it: where an attacker would aim Herald. */
export const countingListener = Effect.acquireRelease(
  Effect.promise(() =>
    new Promise<{ port: number; connections: () => number; close: () => Promise<void> }>((resolve) => {
      let connections = 0
      const server = createServer((socket) => {
        connections++
        socket.destroy()
      })
      server.listen(0, "127.0.0.1", () =>
        resolve({
          port: (server.address() as AddressInfo).port,
          connections: () => connections,
          close: () => new Promise((done) => server.close(() => done()))
        }))
    })
  ),
  (made) => Effect.promise(made.close)
)
