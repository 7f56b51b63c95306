import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as net from "node:net"
import {
  checkWebhookUrl,
  guardedLookup,
  isPublicAddress,
  type LookupAll,
  whyNotPublic
} from "../src/internal/publicAddress.ts"

// Each refused address with a word its reason must contain, so a person reading the message learns the class.
const refused: ReadonlyArray<readonly [address: string, reason: string]> = [
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["::1", "loopback"],
  ["0.0.0.0", "unspecified"],
  ["0.1.2.3", "unspecified"],
  ["::", "unspecified"],
  ["10.0.0.1", "private"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["192.168.1.1", "private"],
  ["fc00::1", "private"],
  ["fd12:3456:789a::1", "private"],
  ["169.254.1.1", "link-local"],
  ["fe80::1", "link-local"],
  ["fe80::1%eth0", "link-local"],
  ["100.64.0.1", "carrier-grade NAT"],
  ["100.127.255.254", "carrier-grade NAT"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast"],
  ["ff02::1", "multicast"],
  ["255.255.255.255", "broadcast"],
  ["240.0.0.1", "reserved"],
  ["192.0.0.8", "reserved"],
  ["192.0.2.1", "reserved"],
  ["192.88.99.1", "reserved"],
  ["198.18.0.1", "reserved"],
  ["198.19.255.1", "reserved"],
  ["198.51.100.1", "reserved"],
  ["203.0.113.1", "reserved"],
  ["2001:db8::1", "reserved"],
  ["2001:1::1", "reserved"],
  ["3fff::1", "reserved"],
  ["2001:2::1", "benchmarking"],
  ["100::1", "discard"],
  ["fec0::1", "site-local"],
  ["2001::1", "Teredo"],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
  ["169.254.169.254", "metadata"],
  ["fd00:ec2::254", "metadata"],
  ["100.100.100.200", "metadata"],
  ["168.63.129.16", "Azure"],
  ["::ffff:127.0.0.1", "IPv4-mapped form of 127.0.0.1, a loopback"],
  ["::ffff:7f00:1", "IPv4-mapped form of 127.0.0.1, a loopback"],
  ["::ffff:10.0.0.1", "IPv4-mapped form of 10.0.0.1, a private"],
  ["::ffff:169.254.169.254", "metadata"],
  ["::ffff:0.0.0.1", "unspecified"],
  ["::ffff:0:127.0.0.1", "IPv4-translated"],
  ["64:ff9b::7f00:1", "NAT64 form of 127.0.0.1, a loopback"],
  ["64:ff9b::10.0.0.1", "NAT64 form of 10.0.0.1, a private"],
  ["64:ff9b::a9fe:a9fe", "metadata"],
  ["64:ff9b:1::1", "local-use NAT64"],
  ["2002:7f00:1::", "6to4 form of 127.0.0.1, a loopback"],
  ["2002:a00:1::1", "6to4 form of 10.0.0.1, a private"],
  ["2002:a9fe:a9fe::", "metadata"],
  // IPv4-compatible (deprecated) and unallocated IPv6: outside 2000::/3.
  ["::8.8.8.8", "2000::/3"],
  ["::808:808", "2000::/3"],
  ["4000::1", "2000::/3"],
  ["5f00::1", "special-purpose"],
  ["example.com", "not an IP address"],
  ["", "not an IP address"],
  ["[::1]", "not an IP address"]
]

const accepted = [
  "8.8.8.8",
  "1.1.1.1",
  "93.184.216.34",
  "2606:4700:4700::1111",
  "2001:4860:4860::8888",
  "::ffff:8.8.8.8",
  "64:ff9b::808:808",
  "2002:808:808::"
]

/** A DNS that gives each answer in turn, then keeps giving the last. */
const answering = (...answers: ReadonlyArray<ReadonlyArray<string>>): LookupAll & { readonly calls: () => number } => {
  let calls = 0
  const lookup: LookupAll = (_hostname, callback) => {
    const addresses = answers[Math.min(calls++, answers.length - 1)] ?? []
    setImmediate(() => callback(null, addresses.map((address) => ({ address, family: net.isIP(address) }))))
  }
  return Object.assign(lookup, { calls: () => calls })
}

const notFound: LookupAll = (hostname, callback) =>
  setImmediate(() => callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), []))

const refusal = (url: string, options: Parameters<typeof checkWebhookUrl>[1]) =>
  Effect.flip(checkWebhookUrl(url, options))

/** A TCP listener on loopback that counts the connections it gets. */
const listener = Effect.acquireRelease(
  Effect.callback<{ readonly server: net.Server; readonly port: number; readonly connections: () => number }>((resume) => {
    let connections = 0
    const server = net.createServer((socket) => {
      connections++
      socket.destroy()
    })
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port
      resume(Effect.succeed({ server, port, connections: () => connections }))
    })
  }),
  ({ server }) =>
    Effect.callback<void>((resume) => {
      server.close(() => resume(Effect.void))
    })
)

/** Connects through `lookup` and says how it went: "connected" or the error. */
const connect = (host: string, port: number, lookup: net.LookupFunction) =>
  Effect.callback<"connected" | Error>((resume) => {
    const socket = net.connect({ host, port, lookup })
    socket.on("connect", () => {
      socket.destroy()
      resume(Effect.succeed("connected"))
    })
    socket.on("error", (error) => resume(Effect.succeed(error)))
    return Effect.sync(() => socket.destroy())
  })

describe("isPublicAddress", () => {
  for (const [address, reason] of refused) {
    it(`refuses ${JSON.stringify(address)}: ${reason}`, () => {
      assert.isFalse(isPublicAddress(address))
      assert.include(whyNotPublic(address), reason)
    })
  }

  for (const address of accepted) {
    it(`accepts ${address}`, () => {
      assert.isTrue(isPublicAddress(address))
      assert.isUndefined(whyNotPublic(address))
    })
  }
})

describe("checkWebhookUrl", () => {
  const publicDns = answering(["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"])

  it.effect("accepts an https URL whose name resolves only to public addresses", () =>
    Effect.gen(function*() {
      const url = yield* checkWebhookUrl("https://hooks.example.com/herald?team=1", {
        allowPrivate: false,
        lookup: publicDns
      })
      assert.strictEqual(url.href, "https://hooks.example.com/herald?team=1")
    }))

  it.effect("refuses http unless private targets are allowed", () =>
    Effect.gen(function*() {
      const error = yield* refusal("http://hooks.example.com/herald", { allowPrivate: false, lookup: publicDns })
      assert.include(error.message, "https://")
      const url = yield* checkWebhookUrl("http://hooks.example.com/herald", { allowPrivate: true })
      assert.strictEqual(url.protocol, "http:")
    }))

  it.effect("lets http://127.0.0.1:port through when private targets are allowed", () =>
    Effect.gen(function*() {
      const url = yield* checkWebhookUrl("http://127.0.0.1:8080/hook", { allowPrivate: true })
      assert.strictEqual(url.href, "http://127.0.0.1:8080/hook")
    }))

  const refusedUrls: ReadonlyArray<readonly [url: string, reason: string]> = [
    ["https://127.0.0.1/hook", "127.0.0.1, a loopback address"],
    ["https://localhost/hook", "a loopback address"],
    ["https://[::1]/hook", "::1, a loopback address"],
    ["https://10.1.2.3/hook", "10.1.2.3, a private address"],
    [
      "https://10.0.0.5/hook",
      "https://10.0.0.5/hook resolves to 10.0.0.5, a private address; webhooks go only to public addresses (HERALD_WEBHOOK_ALLOW_PRIVATE"
    ],
    ["https://169.254.169.254/latest/meta-data/", "metadata"],
    ["https://[fd00:ec2::254]/", "metadata"],
    ["https://[::ffff:127.0.0.1]/", "loopback"],
    ["https://[64:ff9b::a9fe:a9fe]/", "metadata"],
    ["https://[2002:a9fe:a9fe::]/", "metadata"],
    // Other spellings of 127.0.0.1, which the URL parser turns into 127.0.0.1.
    ["https://2130706433/", "loopback"],
    ["https://0x7f000001/", "loopback"],
    ["https://0177.0.0.1/", "loopback"],
    ["https://127.1/", "loopback"],
    ["https://0.0.0.0/", "unspecified"],
    ["https://100.64.0.1/", "carrier-grade NAT"]
  ]
  for (const [url, reason] of refusedUrls) {
    it.effect(`refuses ${url}`, () =>
      Effect.gen(function*() {
        const error = yield* refusal(url, { allowPrivate: false })
        assert.strictEqual(error._tag, "AddressRefused")
        assert.include(error.message, reason)
        assert.include(error.message, "public addresses")
      }))
  }

  // A newcomer trying a local receiver meets these first: the refusal names the setting that allows them.
  for (const url of ["http://127.0.0.1:4000/hook", "http://localhost/hook", "https://localhost/hook", "https://10.1.2.3/hook"]) {
    it.effect(`names HERALD_WEBHOOK_ALLOW_PRIVATE, for development only, when refusing ${url}`, () =>
      Effect.gen(function*() {
        const error = yield* refusal(url, { allowPrivate: false })
        assert.include(error.message, "HERALD_WEBHOOK_ALLOW_PRIVATE=true")
        assert.include(error.message, "development only")
      }))
  }

  it.effect("refuses a name when any of its addresses is not public", () =>
    Effect.gen(function*() {
      const error = yield* refusal("https://mixed.example.com/", {
        allowPrivate: false,
        lookup: answering(["93.184.216.34", "10.0.0.7"])
      })
      assert.strictEqual(
        error.message,
        "https://mixed.example.com/ resolves to 10.0.0.7, a private address; webhooks go only to public addresses " +
          "(HERALD_WEBHOOK_ALLOW_PRIVATE=true allows http:// and private or local addresses, for development only)"
      )
    }))

  it.effect("refuses a name that does not resolve", () =>
    Effect.gen(function*() {
      const error = yield* refusal("https://nowhere.example.com/", { allowPrivate: false, lookup: notFound })
      assert.include(error.message, "nowhere.example.com could not be resolved (ENOTFOUND)")
    }))

  it.effect("refuses credentials in the URL without repeating them", () =>
    Effect.gen(function*() {
      const error = yield* refusal("https://user:hunter2@hooks.example.com/", { allowPrivate: true })
      assert.include(error.message, "user name or password")
      assert.notInclude(error.message, "hunter2")
      assert.notInclude(error.message, "user:")
    }))

  it.effect("refuses what is not an http(s) URL", () =>
    Effect.gen(function*() {
      assert.include((yield* refusal("not a url", { allowPrivate: true })).message, "is not an absolute URL")
      assert.include((yield* refusal("/relative/path", { allowPrivate: true })).message, "is not an absolute URL")
      assert.include((yield* refusal("ftp://hooks.example.com/", { allowPrivate: true })).message, "https://")
      assert.include((yield* refusal("https://[example.com]/", { allowPrivate: false })).message, "not an absolute URL")
    }))
})

describe("guardedLookup", () => {
  it.effect("refuses at connection a name that was public when saved and private now (rebinding)", () =>
    Effect.gen(function*() {
      const target = yield* listener
      const dns = answering(["93.184.216.34"], ["127.0.0.1"])
      yield* checkWebhookUrl(`https://rebind.example.com:${target.port}/`, { allowPrivate: false, lookup: dns })
      const outcome = yield* connect("rebind.example.com", target.port, guardedLookup(dns))
      assert.instanceOf(outcome, Error)
      assert.strictEqual((outcome as Error & { _tag?: string })._tag, "AddressRefused")
      assert.include((outcome as Error).message, "rebind.example.com resolves to 127.0.0.1, a loopback address")
      assert.strictEqual(dns.calls(), 2)
      assert.strictEqual(target.connections(), 0)
    }).pipe(Effect.scoped))

  it.effect("refuses a mixed answer whole, so the private address is never dialled", () =>
    Effect.gen(function*() {
      const target = yield* listener
      const outcome = yield* connect("mixed.example.com", target.port, guardedLookup(answering(["127.0.0.1", "8.8.8.8"])))
      assert.include((outcome as Error).message, "a loopback address")
      assert.strictEqual(target.connections(), 0)
    }).pipe(Effect.scoped))

  it.effect("hands public addresses over, one or all as asked, and honours the family", () =>
    Effect.gen(function*() {
      const lookup = guardedLookup(answering(["2606:4700:4700::1111", "1.1.1.1"]))
      const ask = (options: { all?: boolean; family?: number }) =>
        Effect.callback<unknown>((resume) =>
          lookup("one.example.com", options, (error, address, family) =>
            resume(Effect.succeed(error ?? { address, family }))))
      assert.deepStrictEqual(yield* ask({}), { address: "2606:4700:4700::1111", family: 6 })
      assert.deepStrictEqual(yield* ask({ family: 4 }), { address: "1.1.1.1", family: 4 })
      assert.deepStrictEqual(yield* ask({ all: true }), {
        address: [{ address: "2606:4700:4700::1111", family: 6 }, { address: "1.1.1.1", family: 4 }],
        family: undefined
      })
    }))
})
