import type * as IpAddr from "ipaddr.js"
import { createRequire } from "node:module"
import * as net from "node:net"

// ipaddr.js is CommonJS typed with `export =`, which these compiler settings accept only through `require`.
const ipaddr: typeof IpAddr = createRequire(import.meta.url)("ipaddr.js")

// Who the client of a request is, and the group its attempts are counted in (decision 0059). Behind a
// reverse proxy every request comes from the proxy, so the operator names their proxies
// (`HERALD_TRUSTED_PROXIES`) and the client is then the address the nearest of them was reached from, read
// from `X-Forwarded-For`. An IPv6 client holds a whole /64 (a home or a server is given one), so it is
// counted by that prefix, or it could change address at every attempt.

type Address = IpAddr.IPv4 | IpAddr.IPv6

/** The operator's reverse proxies: addresses and CIDR ranges. */
export interface TrustedProxies {
  readonly ranges: ReadonlyArray<readonly [Address, number]>
}

/** No proxy is trusted: the socket's peer is the client and `X-Forwarded-For` is ignored. */
export const noProxies: TrustedProxies = { ranges: [] }

/**
 * How much of the end of `X-Forwarded-For` is read: the nearest hops are at its end, and what a client wrote
 * before them is never reached, so a long header is cut rather than parsed whole.
 */
export const maxForwardedForLength = 1_024

/** An address written strictly (dotted-quad IPv4 or IPv6, as `net.isIP` accepts), IPv4-mapped IPv6 as its IPv4. */
const parse = (text: string): Address | undefined => net.isIP(text) === 0 ? undefined : ipaddr.process(text)

/** `10.0.0.1`, `10.0.0.0/8`, `fd00::/8`; an IPv4-mapped range is taken as the IPv4 range it maps. */
const parseRange = (text: string): readonly [Address, number] | undefined => {
  const [written, bits, ...rest] = text.split("/")
  if (written === undefined || rest.length > 0 || net.isIP(written) === 0) return undefined
  const address = ipaddr.parse(written)
  const width = address.kind() === "ipv4" ? 32 : 128
  if (bits !== undefined && !/^\d{1,3}$/.test(bits)) return undefined
  const prefix = bits === undefined ? width : Number(bits)
  if (prefix > width) return undefined
  if (address.kind() === "ipv6" && (address as IpAddr.IPv6).isIPv4MappedAddress() && prefix >= 96) {
    return [(address as IpAddr.IPv6).toIPv4Address(), prefix - 96]
  }
  return [address, prefix]
}

/** `HERALD_TRUSTED_PROXIES`: comma-separated addresses and CIDR ranges; undefined when one item is neither. */
export const parseTrustedProxies = (text: string): TrustedProxies | undefined => {
  const ranges = text.split(",").map((item) => parseRange(item.trim()))
  return ranges.every((range) => range !== undefined) ? { ranges } : undefined
}

const isTrusted = (trusted: TrustedProxies, address: Address) =>
  trusted.ranges.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits))

/**
 * The client of a request reached from `peer` (the socket's address) carrying `forwardedFor` (its
 * `X-Forwarded-For`). From a peer that is not a trusted proxy the header is ignored: anyone can send one.
 * From a trusted proxy the header is read from its end, one hop back at a time, to the first address that
 * is not trusted itself; an entry that is not an address (or the cut of a long header) ends the walk at the
 * last trusted hop, and so does the header's start when every hop is trusted.
 */
export const resolve = (trusted: TrustedProxies, peer: string | undefined, forwardedFor: string | undefined): string | undefined => {
  if (peer === undefined || trusted.ranges.length === 0 || forwardedFor === undefined) return peer
  const peerAddress = parse(peer)
  if (peerAddress === undefined || !isTrusted(trusted, peerAddress)) return peer
  const cut = forwardedFor.length > maxForwardedForLength
  const entries = forwardedFor.slice(-maxForwardedForLength).split(",")
  // The first entry of a cut header is whatever part of an address the cut left.
  const first = cut ? 1 : 0
  let client = peer
  for (let index = entries.length - 1; index >= first; index--) {
    const entry = entries[index]!.trim()
    const address = parse(entry)
    if (address === undefined) return client
    client = entry
    if (!isTrusted(trusted, address)) return client
  }
  return client
}

/**
 * What a client's attempts are counted under: an IPv4 address (IPv4-mapped IPv6 included) as itself, an
 * IPv6 address as its /64 (`2001:db8:1:2::/64`), anything else (no address known) as it is.
 */
export const rateLimitGroup = (address: string): string => {
  const parsed = parse(address)
  if (parsed === undefined) return address
  if (parsed.kind() === "ipv4") return parsed.toString()
  const parts = (parsed as IpAddr.IPv6).parts
  return `${new ipaddr.IPv6([...parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`
}
