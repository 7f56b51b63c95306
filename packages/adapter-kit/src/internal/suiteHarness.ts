import { layer } from "@effect/vitest"
import { Context, Duration, Effect, Layer, Redacted } from "effect"
import { HttpClient, HttpRouter, HttpServerResponse } from "effect/http"
import { NodeHttpClient, NodeHttpServer } from "@effect/platform-node"
import { createServer } from "node:http"
import { createServer as createNetServer } from "node:net"
import type * as Adapter from "../Adapter.ts"
import type { AdapterConfig } from "../AdapterConfig.ts"
import type { PostVersion } from "../PostVersion.ts"
import type * as Simulator from "../Simulator.ts"
import type * as SimulatorState from "../SimulatorState.ts"
import * as CutOff from "./cutOff.ts"
import * as Fixtures from "./fixtures.ts"

// The conformance suite's options and its harness: the adapter pointed at its simulator over real HTTP,
// which every case of `AdapterSuite.suite` and a network's own tests run on.

/**
 * The conformance suite every adapter runs against its own simulator over real HTTP: connect through
 * OAuth, refresh, publish text, photos and a video, the sandbox errors, and reconcile; skipping what the
 * adapter's capabilities say it does not do. Network quirks go in `extra`.
 */
export interface Options {
  readonly makeAdapter: (config: AdapterConfig) => Effect.Effect<Adapter.Adapter, never, HttpClient.HttpClient>
  readonly makeSimulator: Simulator.Make
  /** A form of post to use for text (networks whose plain form needs media give one with media). */
  readonly textPost?: (context: Context) => PostVersion
  readonly extra?: (it: Methods, context: Effect.Effect<Context, never, Harness>) => void
  /**
   * Whether the network's refusal carries words of the simulator's choosing, so a `#sandbox-fail` refusal
   * says it was the sandbox's trigger (`SimulatorState.refusal`); false for networks that answer a refusal
   * with a code only (TikTok's `fail_reason`, YouTube's `rejectionReason`). True unless said.
   */
  readonly refusalInWords?: boolean
  /**
   * A value of each of the network's own options (`options.fields`; required when the adapter declares
   * options), and what the network keeps of it: the suite publishes a post with each sample's `values` and
   * hands `expect` the post the simulator stored, so an option the adapter drops fails. Every field must
   * be set, away from its default, by some sample. Media ids name the suite's media: `med_photo1`,
   * `med_video1`.
   */
  readonly optionSamples?: ReadonlyArray<OptionSample>
}

/** One post's worth of options and the check that the network has them. */
export interface OptionSample {
  readonly values: Readonly<Record<string, unknown>>
  readonly expect: (stored: SimulatorState.SimulatedPost, context: Context) => void
}

export interface Context {
  readonly adapter: Adapter.Adapter
  readonly simulator: Simulator.Simulator
  /** The test server's address; the simulator lives under `/sandbox/<network>`, media under `/media`. */
  readonly baseUrl: string
  readonly redirectUri: string
  /**
   * Strikes a chosen network call: stops the adapter right after it, as a crash would, or loses its answer
   * in transit while the adapter goes on (the fault cases).
   */
  readonly cutter: CutOff.Cutter
}

export class Harness extends Context.Service<Harness, Context>()("@herald/adapter-kit/AdapterSuite/Harness") {}

/** The test methods of `layer` from `@effect/vitest` (`it`), as the suite's cases take them. */
export type Methods = Parameters<Parameters<ReturnType<typeof layer<Harness, never>>>[1]>[0]

const freePort = Effect.callback<number>((resume) => {
  const server = createNetServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

/**
 * The adapter pointed at its simulator, served over real HTTP under `/sandbox/<network>` (media under
 * `/media`): what the suite runs on, for a network's own tests beyond it.
 */
export const harness = (options: Options) =>
  Layer.unwrap(Effect.gen(function*() {
    const port = yield* freePort
    const baseUrl = `http://127.0.0.1:${port}`
    // The simulator needs its network key before it exists: ask a throwaway one.
    const probe = options.makeSimulator({ baseUrl: `${baseUrl}/sandbox/probe` })
    const root = `${baseUrl}/sandbox/${probe.network}`
    const simulator = options.makeSimulator({ baseUrl: root })
    const media = HttpRouter.add("GET", "/media/:file", (request) =>
      Effect.succeed(
        request.url.endsWith(".mp4")
          ? HttpServerResponse.uint8Array(Fixtures.mp4Lasting(Fixtures.durationInPath(request.url)), { contentType: "video/mp4" })
          : HttpServerResponse.uint8Array(Fixtures.jpegInPath(request.url), { contentType: "image/jpeg" })
      ))
    // Idle connections kept longer than any wait between two calls of a test: with Node's 5 s, a loaded
    // machine could send a call on a connection the simulator was closing at that moment (decision 0071).
    const server = HttpRouter.serve(
      Layer.mergeAll(media, HttpRouter.addAll(simulator.routes, { prefix: `/sandbox/${simulator.network}` })),
      { disableLogger: true, disableListenLog: true }
    ).pipe(Layer.provide(NodeHttpServer.layer(() => createServer({ keepAliveTimeout: 65_000 }), { port, host: "127.0.0.1" })))
    const cutter = new CutOff.Cutter(root)
    const context = Layer.effect(
      Harness,
      Effect.map(
        options.makeAdapter({
          apiBaseUrl: root,
          authBaseUrl: root,
          webBaseUrl: root,
          clientId: "sandbox-client",
          clientSecret: Redacted.make("sandbox-secret")
        }),
        (adapter) => Harness.of({ adapter, simulator, baseUrl, redirectUri: `${baseUrl}/oauth/callback`, cutter })
      )
    ).pipe(
      Layer.provide(Layer.effect(HttpClient.HttpClient, Effect.map(HttpClient.HttpClient, cutter.wrap))),
      Layer.provide(NodeHttpClient.layerUndici)
    )
    return Layer.merge(server, context)
  }))

/**
 * `layer` from `@effect/vitest` over the harness, with the settings the suite runs on (real HTTP and polling
 * want more than the default timeout, and the real clock): so a network's own test files set it up alike.
 */
export const withHarness = (options: Pick<Options, "makeAdapter" | "makeSimulator">) =>
  layer(harness(options), { timeout: Duration.minutes(2), excludeTestServices: true })
