import { Effect, Schema } from "effect"
import type * as IpAddr from "ipaddr.js"
import * as dns from "node:dns"
import { createRequire } from "node:module"
import * as net from "node:net"

// ipaddr.js is CommonJS typed with `export =`, which these compiler settings accept only through `require`.
const ipaddr: typeof IpAddr = createRequire(import.meta.url)("ipaddr.js")

// The public-address rule for webhook targets (architecture.md, "Security"): checked when a URL is saved
// (`checkWebhookUrl`) and again on every connection (`guardedLookup`), where it judges the address actually
// dialled, so a name that resolved to a public address at save time and to a private one later (DNS
// rebinding, or a record simply changed) is refused at connection.

/** A webhook URL or address that Herald will not send to; `message` says why and what to do. */
export class AddressRefused extends Schema.TaggedError<AddressRefused>()("AddressRefused", {
  message: Schema.String,
  /** The address judged not public; absent when the URL itself was refused (form, scheme, credentials). */
  address: Schema.optionalKey(Schema.String)
}) {}

type Address = IpAddr.IPv4 | IpAddr.IPv6
type Range = [Address, number]

const range = (cidr: string): Range => ipaddr.parseCIDR(cidr)

const inRange = (address: Address, [network, bits]: Range) =>
  address.kind() === network.kind() && address.match(network, bits)

const table = (rows: ReadonlyArray<readonly [cidr: string, what: string]>) =>
  rows.map(([cidr, what]) => ({ range: range(cidr), what }))

// Named even though the ranges below cover most of them, so the message says what they are.
const metadata = table([
  // AWS, Google Cloud, Azure, DigitalOcean, OpenStack and most others.
  ["169.254.169.254/32", "a cloud metadata address"],
  ["fd00:ec2::254/128", "a cloud metadata address (AWS)"],
  ["100.100.100.200/32", "a cloud metadata address (Alibaba Cloud)"],
  // Azure's host platform address: public-looking, but reachable only from inside Azure.
  ["168.63.129.16/32", "a cloud platform address (Azure)"]
])

const fromParts = (high: number, low: number) =>
  new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff])

// IPv6 forms that carry an IPv4 address and reach it: judged by the IPv4 address they carry. IPv4-mapped
// addresses are judged rather than refused outright, because dialling `::ffff:a.b.c.d` reaches a.b.c.d, so
// the embedded address is exactly what is being dialled.
const embeddings = [
  { range: range("::ffff:0:0/96"), form: "an IPv4-mapped form", ipv4: (parts: Array<number>) => fromParts(parts[6]!, parts[7]!) },
  { range: range("64:ff9b::/96"), form: "a NAT64 form", ipv4: (parts: Array<number>) => fromParts(parts[6]!, parts[7]!) },
  { range: range("2002::/16"), form: "a 6to4 form", ipv4: (parts: Array<number>) => fromParts(parts[1]!, parts[2]!) }
]

// ipaddr.js's `range()` names; only `unicast` is public. A name missing here (a newer ipaddr.js may add
// some) is refused as special-purpose.
const rangeNames: Record<string, string> = {
  unspecified: "an unspecified address",
  broadcast: "the broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address",
  loopback: "a loopback address",
  carrierGradeNat: "a carrier-grade NAT address",
  private: "a private address",
  uniqueLocal: "a private address (unique local)",
  deprecatedSiteLocal: "a site-local address",
  // IPv4: 192.0.0/24, 192.0.2/24, 192.88.99/24, 198.18/15, 198.51.100/24, 203.0.113/24, 240/4.
  // IPv6: 2001::/23 (IETF special purpose), 2001:db8::/32, 3fff::/20.
  reserved: "a reserved address (special purpose, documentation, benchmarking or future use)",
  benchmarking: "a benchmarking address",
  discard: "a discard-only address",
  teredo: "a Teredo tunnel address",
  rfc6145: "an IPv4-translated address",
  // 64:ff9b::/96 is judged by its IPv4 address before this; what is left is 64:ff9b:1::/48.
  rfc6052: "a local-use NAT64 address"
}

// What ipaddr.js's ranges leave as `unicast` but is not publicly routed: only 2000::/3 is allocated as IPv6
// global unicast. This catches the deprecated IPv4-compatible ::/96 and unallocated space.
const notGlobal = "an address outside IPv6 global unicast (2000::/3)"
const missedByRanges = table([["::/3", notGlobal], ["4000::/2", notGlobal], ["8000::/1", notGlobal]])

const parse = (ip: string): Address | undefined => {
  if (ip.includes(":")) {
    if (!ipaddr.IPv6.isValid(ip)) return undefined
    // ipaddr.js reads `::a.b.c.d` as IPv4-mapped, but it is the IPv4-compatible form (::/96), which is how
    // Node prints those addresses: spell the IPv4 part in hex so it is parsed as written.
    return ipaddr.IPv6.parse(ip.replace(
      /(\d+)\.(\d+)\.(\d+)\.(\d+)(%.*)?$/,
      (_, a: string, b: string, c: string, d: string, zone: string | undefined) =>
        `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}${zone ?? ""}`
    ))
  }
  return ipaddr.IPv4.isValid(ip) ? ipaddr.IPv4.parse(ip) : undefined
}

const judge = (address: Address): string | undefined => {
  for (const rule of metadata) if (inRange(address, rule.range)) return rule.what
  if (address.kind() === "ipv6") {
    for (const embedding of embeddings) {
      if (inRange(address, embedding.range)) {
        const ipv4 = embedding.ipv4((address as IpAddr.IPv6).parts)
        const why = judge(ipv4)
        return why === undefined ? undefined : `${embedding.form} of ${ipv4.toString()}, ${why}`
      }
    }
  }
  const name = address.range()
  if (name !== "unicast") return rangeNames[name] ?? "a special-purpose address"
  for (const rule of missedByRanges) if (inRange(address, rule.range)) return rule.what
  return undefined
}

/**
 * Why `ip` is not a public address, as a phrase (`"a private address"`), or undefined when it is public.
 * Anything that is not an IP address is not public.
 */
export const whyNotPublic = (ip: string): string | undefined => {
  const address = parse(ip)
  return address === undefined ? "not an IP address" : judge(address)
}

export const isPublicAddress = (ip: string): boolean => whyNotPublic(ip) === undefined

// Whoever tries a receiver on their own machine meets these refusals first: they name the setting that lifts them.
const privateSetting = "HERALD_WEBHOOK_ALLOW_PRIVATE=true allows http:// and private or local addresses, for development only"

/** What the rule guards, for its messages: webhooks, or media fetched from a URL. */
export interface Purpose {
  /** What a good URL looks like, said to a URL that is not one. */
  readonly example: string
  /** Why a URL must not carry credentials. */
  readonly noCredentials: string
  /** The scheme rule, said to an http:// URL. */
  readonly overHttps: string
  /** The address rule, said after a refused address. */
  readonly rule: string
}

const webhookPurpose: Purpose = {
  example: "a webhook URL looks like https://example.com/webhooks",
  noCredentials: "Herald signs every request instead",
  overHttps: "webhooks are sent only over HTTPS",
  rule: `webhooks go only to public addresses (${privateSetting})`
}

export const mediaPurpose: Purpose = {
  example: "a media URL looks like https://example.com/photo.jpg",
  noCredentials: "Herald fetches only files anyone may fetch",
  overHttps: "media is fetched only over HTTPS",
  rule: `media is fetched only from public addresses (${privateSetting})`
}

const refusedAddress = (subject: string, address: string, why: string, purpose: Purpose) =>
  new AddressRefused({ address, message: `${subject} resolves to ${address}, ${why}; ${purpose.rule}` })

/** Every address a host name resolves to, in the shape of `dns.lookup(hostname, { all: true }, callback)`. */
export type LookupAll = (
  hostname: string,
  callback: (error: NodeJS.ErrnoException | null, addresses: ReadonlyArray<dns.LookupAddress>) => void
) => void

export const systemLookupAll: LookupAll = (hostname, callback) => dns.lookup(hostname, { all: true }, callback)

/** The host as it is dialled: IPv6 literals lose their brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1")

const shown = (text: string) => JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text)

/**
 * The rules that need no DNS: an absolute `https:` URL (`http:` too when private targets are allowed),
 * without credentials, whose host, when it is an IP address, is public (unless private targets are allowed).
 */
export const parseWebhookUrl = Effect.fnUntraced(function*(text: string, allowPrivate: boolean, purpose: Purpose = webhookPurpose) {
  if (!URL.canParse(text)) {
    return yield* new AddressRefused({
      message: `${shown(text)} is not an absolute URL; ${purpose.example}`
    })
  }
  const url = new URL(text)
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return yield* new AddressRefused({ message: `${shown(text)} is not an https:// URL` })
  }
  if (url.username !== "" || url.password !== "") {
    const bare = new URL(url)
    bare.username = ""
    bare.password = ""
    return yield* new AddressRefused({
      message: `${bare.href} must not carry a user name or password; ${purpose.noCredentials}`
    })
  }
  const host = hostOf(url)
  if (!allowPrivate && net.isIP(host) !== 0) {
    const why = whyNotPublic(host)
    if (why !== undefined) return yield* refusedAddress(url.href, host, why, purpose)
  }
  if (url.protocol === "http:" && !allowPrivate) {
    return yield* new AddressRefused({
      message: `${url.href} is not an https:// URL; ${purpose.overHttps} (${privateSetting})`
    })
  }
  return url
})

/**
 * The check when a webhook URL is saved: `parseWebhookUrl`'s rules, and then every address the host resolves
 * to must be public. With `allowPrivate` (development), names are not resolved.
 */
export const checkWebhookUrl = Effect.fn("checkWebhookUrl")(function*(
  text: string,
  options: { readonly allowPrivate: boolean; readonly lookup?: LookupAll | undefined }
) {
  const url = yield* parseWebhookUrl(text, options.allowPrivate)
  const host = hostOf(url)
  if (options.allowPrivate || net.isIP(host) !== 0) return url
  const lookup = options.lookup ?? systemLookupAll
  const addresses = yield* Effect.callback<ReadonlyArray<dns.LookupAddress>, AddressRefused>((resume) =>
    lookup(host, (error, addresses) =>
      resume(
        error !== null || addresses.length === 0
          ? Effect.fail(
            new AddressRefused({
              message: `${host} could not be resolved (${error?.code ?? "no addresses"}); check the host name`
            })
          )
          : Effect.succeed(addresses)
      ))
  )
  for (const { address } of addresses) {
    const why = whyNotPublic(address)
    if (why !== undefined) return yield* refusedAddress(url.href, address, why, webhookPurpose)
  }
  return url
})

const familyOf = (family: dns.LookupOptions["family"]) =>
  family === 4 || family === "IPv4" ? 4 : family === 6 || family === "IPv6" ? 6 : 0

/**
 * A `lookup` for `net.connect`, `tls.connect` and the `http`/`https` agents: it resolves the name and calls
 * back with an `AddressRefused` error when an address it would hand over for dialling is not public, so the
 * connection is never made. Answers mixing public and private addresses are refused whole, as at save time.
 * IP literal hosts never reach a lookup: whoever connects checks them (`parseWebhookUrl` does).
 */
export const guardedLookup = (lookupAll: LookupAll = systemLookupAll, purpose: Purpose = webhookPurpose): net.LookupFunction => (hostname, options, callback) =>
  lookupAll(hostname, (error, found) => {
    if (error !== null) return callback(error, [])
    const family = familyOf(options.family)
    const addresses = family === 0 ? found : found.filter((address) => address.family === family)
    for (const { address } of addresses) {
      const why = whyNotPublic(address)
      if (why !== undefined) return callback(refusedAddress(hostname, address, why, purpose), [])
    }
    const first = addresses[0]
    if (first === undefined) {
      return callback(Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: "ENOTFOUND" }), [])
    }
    return options.all === true ? callback(null, [...addresses]) : callback(null, first.address, first.family)
  })
