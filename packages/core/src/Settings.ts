import { Config, Effect, Option, Redacted, Schema } from "effect"
import * as ClientAddress from "./ClientAddress.ts"

/** A setting from the environment that cannot be used; start-up stops with this message. */
export class InvalidSetting extends Schema.TaggedError<InvalidSetting>()("InvalidSetting", {
  name: Schema.String,
  value: Schema.String,
  expected: Schema.String
}) {
  override get message() {
    return `${this.name}=${JSON.stringify(this.value)} is not valid: expected ${this.expected}`
  }
}

const raw = (name: string) =>
  Config.option(Config.String(name)).pipe(
    Effect.map(Option.filter((value: string) => value.trim() !== "")),
    Effect.orDie
  )

const parsed = <A>(name: string, fallback: A, expected: string, parse: (value: string) => A | undefined) =>
  Effect.flatMap(raw(name), (value) => {
    if (Option.isNone(value)) return Effect.succeed(fallback)
    const result = parse(value.value.trim())
    return result === undefined
      ? Effect.fail(new InvalidSetting({ name, value: value.value, expected }))
      : Effect.succeed(result)
  })

const integer = (min: number, max: number) => (value: string) => {
  if (!/^\d+$/.test(value)) return undefined
  const number = Number(value)
  return number >= min && number <= max ? number : undefined
}

/** `PORT`: where the HTTP server listens (default 3000; a free port for a `worker` that is not given one). */
export const port = parsed("PORT", 3000, "a port number from 0 to 65535", integer(0, 65535))

/** `HOST`: the interface to listen on; every interface when unset. */
export const host = Effect.map(raw("HOST"), Option.getOrUndefined)

/**
 * `BASE_URL`: the public address used in links. When unset, the server uses `http://localhost:<port it
 * listens on>`, so `PORT=0` still gives working links.
 */
export const baseUrl = parsed(
  "BASE_URL",
  Option.none<string>(),
  "an absolute http:// or https:// URL",
  (value) => {
    if (!URL.canParse(value)) return undefined
    const url = new URL(value)
    return url.protocol === "http:" || url.protocol === "https:" ? Option.some(value.replace(/\/+$/, "")) : undefined
  }
)

/** `DATABASE_URL`: a PostgreSQL server; the embedded database in the data folder when unset. */
export const databaseUrl = Effect.flatMap(raw("DATABASE_URL"), (value) => {
  if (Option.isNone(value)) return Effect.succeed(Option.none<Redacted.Redacted<string>>())
  const text = value.value.trim()
  return /^postgres(ql)?:\/\//.test(text) && URL.canParse(text)
    ? Effect.succeed(Option.some(Redacted.make(text)))
    : Effect.fail(
      new InvalidSetting({
        name: "DATABASE_URL",
        value: "(hidden)",
        expected: "a postgres:// or postgresql:// URL"
      })
    )
})

/** `HERALD_DATA_DIR`: the embedded database, media and generated secrets (default `./.herald`). */
export const dataDir = parsed("HERALD_DATA_DIR", "./.herald", "a folder path", (value) => value)

/** `HERALD_SECRET_KEY`: 32 bytes as 64 hex characters or base64, for encrypting secrets at rest. */
export const secretKey = Effect.flatMap(raw("HERALD_SECRET_KEY"), (value) => {
  if (Option.isNone(value)) return Effect.succeed(Option.none<Redacted.Redacted<Uint8Array>>())
  const bytes = decodeSecretKey(value.value.trim())
  return bytes === undefined
    ? Effect.fail(
      new InvalidSetting({
        name: "HERALD_SECRET_KEY",
        value: "(hidden)",
        expected: "32 bytes, written as 64 hex characters or as base64"
      })
    )
    : Effect.succeed(Option.some(Redacted.make(bytes)))
})

export const decodeSecretKey = (text: string): Uint8Array | undefined => {
  const bytes = /^[0-9a-fA-F]{64}$/.test(text)
    ? Buffer.from(text, "hex")
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(text)
    ? Buffer.from(text, "base64")
    : undefined
  return bytes !== undefined && bytes.length === 32 ? new Uint8Array(bytes) : undefined
}

/** `HERALD_RATE_LIMIT_PER_MINUTE`: requests per minute per API key (default 120). */
export const rateLimitPerMinute = parsed(
  "HERALD_RATE_LIMIT_PER_MINUTE",
  120,
  "a whole number from 1 to 1000000000",
  integer(1, 1_000_000_000)
)

/**
 * `HERALD_SANDBOX`: serve every network's simulator and point the adapters at them. Unset: on when no
 * network's client id and secret are configured.
 */
export const sandbox = parsed("HERALD_SANDBOX", Option.none<boolean>(), "true or false", (value) =>
  value === "true" || value === "1" ? Option.some(true) : value === "false" || value === "0" ? Option.some(false) : undefined)

/**
 * `HERALD_ROLE`: what this process does. `all` (default) serves the API and publishes; `api` serves the
 * API and hands publishing to workers; `worker` publishes and serves no API.
 */
export const role = parsed("HERALD_ROLE", "all" as Role, "all, api or worker", (value) =>
  value === "all" || value === "api" || value === "worker" ? value : undefined)

export type Role = "all" | "api" | "worker"

/**
 * `HERALD_RUNNER_HOST` and `HERALD_RUNNER_PORT`: with `DATABASE_URL`, where this process's cluster runner
 * listens and how the other processes reach it (default 127.0.0.1 and a free port: set both when the
 * processes run on different machines).
 */
export const runnerHost = parsed("HERALD_RUNNER_HOST", "127.0.0.1", "a host name or address", (value) => value)
export const runnerPort = parsed("HERALD_RUNNER_PORT", 0, "a port number from 0 to 65535", integer(0, 65535))

/** `HERALD_WEBHOOK_ALLOW_PRIVATE`: allow `http://` and private addresses as webhook targets (development only). */
export const webhookAllowPrivate = parsed("HERALD_WEBHOOK_ALLOW_PRIVATE", false, "true or false", (value) =>
  value === "true" || value === "1" ? true : value === "false" || value === "0" ? false : undefined)

/** `HERALD_WEBHOOK_TIMEOUT_MS`: how long a receiver has to answer (default 10,000). */
export const webhookTimeoutMs = parsed("HERALD_WEBHOOK_TIMEOUT_MS", 10_000, "a whole number of milliseconds from 100 to 600000", integer(100, 600_000))

/** `HERALD_NETWORK_TIMEOUT_MS`: how long a network has to answer a call, Herald's own timeout (default 60,000; decision 0066). */
export const networkTimeoutMs = parsed("HERALD_NETWORK_TIMEOUT_MS", 60_000, "a whole number of milliseconds from 100 to 600000", integer(100, 600_000))

/**
 * `HERALD_WEBHOOK_RETRY_SCHEDULE`: the waits before each retry of a failed delivery, comma-separated
 * durations (`30s`, `1m`, `2h`, or plain milliseconds); default `1m,5m,30m,2h,6h,12h,24h`.
 */
export const webhookRetrySchedule = parsed(
  "HERALD_WEBHOOK_RETRY_SCHEDULE",
  [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000] as ReadonlyArray<number>,
  "comma-separated durations such as 1m,5m,30m,2h (units ms, s, m, h; at most 20)",
  (value) => {
    const units: Record<string, number> = { "": 1, ms: 1, s: 1000, m: 60_000, h: 3_600_000 }
    const waits = value.split(",").map((part) => {
      const match = /^(\d+)(ms|s|m|h)?$/.exec(part.trim())
      return match === null ? undefined : Number(match[1]) * units[match[2] ?? ""]!
    })
    return waits.length > 0 && waits.length <= 20 && waits.every((wait) => wait !== undefined) ? waits as Array<number> : undefined
  }
)

/** `HERALD_WEBHOOK_DISABLE_AFTER`: failed events in a row that switch an endpoint off (default 50; decision 0011). */
export const webhookDisableAfter = parsed("HERALD_WEBHOOK_DISABLE_AFTER", 50, "a whole number from 1 to 1000000", integer(1, 1_000_000))

/**
 * `HERALD_TRUSTED_PROXIES`: the reverse proxies in front of Herald, comma-separated addresses and CIDR ranges
 * (decision 0059). Unset: the socket's peer is the client. Set: a request from one of them is counted against
 * the client its `X-Forwarded-For` names.
 */
export const trustedProxies = parsed(
  "HERALD_TRUSTED_PROXIES",
  ClientAddress.noProxies,
  "comma-separated IP addresses and CIDR ranges, such as 10.0.0.1,10.0.0.0/8,fd00::/8",
  ClientAddress.parseTrustedProxies
)

/** `HERALD_SMTP_URL`: `smtp://` or `smtps://` server for e-mail; unset: the message is logged, never its links (decision 0059). */
export const smtpUrl = Effect.map(raw("HERALD_SMTP_URL"), Option.map((value) => Redacted.make(value.trim())))

/**
 * `HERALD_METRICS_TOKEN`: turns on `GET /metrics` (Prometheus text) for requests that carry
 * `Authorization: Bearer <this token>`; unset, `/metrics` is 404 (decision 0049).
 */
export const metricsToken = parsed("HERALD_METRICS_TOKEN", Option.none<Redacted.Redacted<string>>(), "at least 16 characters", (value) =>
  value.length >= 16 ? Option.some(Redacted.make(value)) : undefined)

/** `HERALD_LOG_FORMAT`: `text` (default, one logfmt line per entry) or `json` (one JSON object per line). */
export const logFormat = parsed("HERALD_LOG_FORMAT", "text" as LogFormat, "text or json", (value) =>
  value === "text" || value === "json" ? value : undefined)

export type LogFormat = "text" | "json"

/**
 * `OTEL_EXPORTER_OTLP_ENDPOINT`: an OTLP/HTTP collector (`http://collector:4318`); set, traces are
 * exported to `<it>/v1/traces`. The other `OTEL_*` variables (service name, resource attributes) apply.
 */
export const otlpEndpoint = parsed("OTEL_EXPORTER_OTLP_ENDPOINT", Option.none<string>(), "an absolute http:// or https:// URL", (value) => {
  if (!URL.canParse(value)) return undefined
  const url = new URL(value)
  return url.protocol === "http:" || url.protocol === "https:" ? Option.some(value.replace(/\/+$/, "")) : undefined
})

/** Every setting, read and checked together at start-up. */
export const load = Effect.flatMap(Effect.all({
  port,
  portGiven: Effect.map(raw("PORT"), Option.isSome),
  host,
  baseUrl,
  databaseUrl,
  dataDir,
  secretKey,
  rateLimitPerMinute,
  sandbox,
  role,
  runnerHost,
  runnerPort,
  webhookAllowPrivate,
  webhookTimeoutMs,
  networkTimeoutMs,
  webhookRetrySchedule,
  webhookDisableAfter,
  trustedProxies,
  smtpUrl,
  metricsToken,
  logFormat,
  otlpEndpoint
}), ({ portGiven, ...settings }) =>
  // The embedded database is one process: it has to do everything itself.
  Option.isNone(settings.databaseUrl) && settings.role !== "all"
    ? Effect.fail(new InvalidSetting({ name: "HERALD_ROLE", value: settings.role, expected: "all when DATABASE_URL is unset (the embedded database is one process)" }))
    // A worker serves only its probes; without PORT it takes a free port, so that workers and an API
    // process can share a machine without each being given one.
    : Effect.succeed(settings.role === "worker" && !portGiven ? { ...settings, port: 0 } : settings))

export type Settings = Effect.Success<typeof load>
