import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit } from "effect"
import { ClientAddress, Settings } from "../src/index.ts"

// Who the client of a request is behind the operator's reverse proxies (HERALD_TRUSTED_PROXIES), and the
// group its attempts are counted in (an IPv6 client by its /64), as an attacker would probe them.

const trusted = (text: string) => {
  const parsed = ClientAddress.parseTrustedProxies(text)
  assert.isDefined(parsed, text)
  return parsed!
}

describe("HERALD_TRUSTED_PROXIES", () => {
  it("takes addresses and CIDR ranges, IPv4 and IPv6, comma-separated", () => {
    for (const text of ["10.0.0.1", "10.0.0.0/8, 192.168.1.1", "fd00::/8,::1", " 127.0.0.1 ,::ffff:10.1.0.0/112", "0.0.0.0/0"]) {
      trusted(text)
    }
  })

  it("refuses what is not an address or a range", () => {
    for (const text of ["10.0.0.0/33", "fd00::/129", "10.0.0", "10.0.0.1/", "/8", "example.com", "10.0.0.1,,10.0.0.2", "10.0.0.1,", "loopback", "0x7f.1", "10.0.0.1/8/8", "10.0.0.1/-1", "10.0.0.1/ 8"]) {
      assert.isUndefined(ClientAddress.parseTrustedProxies(text), text)
    }
  })

  it.effect("a value that is not a list of addresses stops start-up, naming the variable", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(Settings.load.pipe(
        Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: { HERALD_TRUSTED_PROXIES: "10.0.0.0/33" } })))
      ))
      assert.isTrue(Exit.isFailure(exit), "the setting was accepted")
      const message = Exit.isFailure(exit) ? String(exit.cause) : ""
      assert.include(message, "HERALD_TRUSTED_PROXIES")
      assert.include(message, "10.0.0.0/33")
    }))

  it.effect("unset, no proxy is trusted", () =>
    Effect.gen(function*() {
      const settings = yield* Settings.load.pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: {} }))))
      assert.strictEqual(ClientAddress.resolve(settings.trustedProxies, "127.0.0.1", "203.0.113.9"), "127.0.0.1")
    }))
})

describe("the client of a request", () => {
  const proxies = trusted("127.0.0.1, 10.0.0.0/8, fd00::/8")

  it("is the socket's peer when no proxy is trusted: X-Forwarded-For is ignored", () => {
    assert.strictEqual(ClientAddress.resolve(ClientAddress.noProxies, "127.0.0.1", "203.0.113.9"), "127.0.0.1")
  })

  it("is the socket's peer when the peer is not a trusted proxy, whatever it forwards", () => {
    assert.strictEqual(ClientAddress.resolve(proxies, "198.51.100.4", "203.0.113.9"), "198.51.100.4")
    assert.strictEqual(ClientAddress.resolve(proxies, "198.51.100.4", "10.0.0.1, 127.0.0.1"), "198.51.100.4")
  })

  it("behind a trusted proxy, is the right-most forwarded address that is not itself trusted", () => {
    assert.strictEqual(ClientAddress.resolve(proxies, "127.0.0.1", "203.0.113.9"), "203.0.113.9")
    // A client's forged entries stand left of the address its proxy added, so they are never reached.
    assert.strictEqual(ClientAddress.resolve(proxies, "127.0.0.1", "1.2.3.4, 203.0.113.9, 10.1.2.3"), "203.0.113.9")
    assert.strictEqual(ClientAddress.resolve(proxies, "10.9.9.9", "2001:db8::7 , fd00::1"), "2001:db8::7")
    // Several X-Forwarded-For headers arrive joined by ", ".
    assert.strictEqual(ClientAddress.resolve(proxies, "127.0.0.1", "5.6.7.8, 203.0.113.10"), "203.0.113.10")
  })

  it("behind a trusted proxy without X-Forwarded-For, is the proxy", () => {
    assert.strictEqual(ClientAddress.resolve(proxies, "127.0.0.1", undefined), "127.0.0.1")
    assert.strictEqual(ClientAddress.resolve(proxies, "127.0.0.1", ""), "127.0.0.1")
  })

  it("when every forwarded hop is trusted, is the left-most", () => {
    assert.strictEqual(ClientAddress.resolve(proxies, "127.0.0.1", "10.0.0.5, 10.0.0.6"), "10.0.0.5")
  })

  it("stops at a malformed entry: the last trusted hop is the client", () => {
    assert.strictEqual(ClientAddress.resolve(proxies, "127.0.0.1", "203.0.113.9, garbage"), "127.0.0.1")
    assert.strictEqual(ClientAddress.resolve(proxies, "127.0.0.1", "203.0.113.9, unknown, 10.0.0.7"), "10.0.0.7")
    assert.strictEqual(ClientAddress.resolve(proxies, "127.0.0.1", "203.0.113.9,,"), "127.0.0.1")
    assert.strictEqual(ClientAddress.resolve(proxies, "127.0.0.1", "203.0.113.9:443"), "127.0.0.1")
  })

  it("reads only the end of a long X-Forwarded-For", () => {
    const padding = Array.from({ length: 5_000 }, (_, index) => `198.18.${index % 250}.${index % 200}`).join(", ")
    assert.isAbove(padding.length, ClientAddress.maxForwardedForLength)
    assert.strictEqual(ClientAddress.resolve(proxies, "127.0.0.1", `${padding}, 203.0.113.9`), "203.0.113.9")
    // The entry the cut falls in is not read as an address: with only trusted hops after it, the left-most whole one is the client.
    const trustedHops = Array.from({ length: 400 }, (_, index) => `10.0.${index % 250}.1`).join(", ")
    const client = ClientAddress.resolve(proxies, "127.0.0.1", `203.0.113.9, ${trustedHops}`)
    assert.match(client!, /^10\.0\.\d+\.1$/)
  })

  it("an IPv4-mapped peer is matched as its IPv4 address", () => {
    assert.strictEqual(ClientAddress.resolve(proxies, "::ffff:127.0.0.1", "203.0.113.9"), "203.0.113.9")
    assert.strictEqual(ClientAddress.resolve(trusted("::ffff:10.1.0.0/112"), "10.1.2.3", "203.0.113.9"), "203.0.113.9")
  })

  it("is unknown without a peer", () => {
    assert.isUndefined(ClientAddress.resolve(proxies, undefined, "203.0.113.9"))
  })
})

describe("the rate-limit group of a client address", () => {
  it("is an IPv4 address itself", () => {
    assert.strictEqual(ClientAddress.rateLimitGroup("203.0.113.9"), "203.0.113.9")
    assert.notStrictEqual(ClientAddress.rateLimitGroup("203.0.113.9"), ClientAddress.rateLimitGroup("203.0.113.10"))
  })

  it("is an IPv6 address's /64: a client rotating within its prefix stays in one group", () => {
    const group = ClientAddress.rateLimitGroup("2001:db8:1:2::1")
    assert.strictEqual(group, "2001:db8:1:2::/64")
    for (const address of ["2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:0db8:0001:0002:abcd::9", "2001:db8:1:2::1%eth0"]) {
      assert.strictEqual(ClientAddress.rateLimitGroup(address), group, address)
    }
    assert.notStrictEqual(ClientAddress.rateLimitGroup("2001:db8:1:3::1"), group)
  })

  it("is an IPv4-mapped IPv6 address's IPv4 address", () => {
    assert.strictEqual(ClientAddress.rateLimitGroup("::ffff:203.0.113.9"), "203.0.113.9")
    assert.notStrictEqual(ClientAddress.rateLimitGroup("::ffff:203.0.113.9"), ClientAddress.rateLimitGroup("::ffff:203.0.113.10"))
  })

  it("is anything else as it is", () => {
    assert.strictEqual(ClientAddress.rateLimitGroup("unknown"), "unknown")
  })
})
