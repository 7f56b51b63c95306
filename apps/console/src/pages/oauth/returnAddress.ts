// Where the browser goes once the person has answered: the redirect URI's host, which is all a person can
// check. A loopback address (RFC 8252) is a program on this very computer, and is said so.
const loopback = new Set(["localhost", "127.0.0.1", "[::1]"])

export const returnAddress = (redirectUri: string): { readonly host: string; readonly onThisComputer: boolean } => {
  try {
    const url = new URL(redirectUri)
    return { host: url.host === "" ? url.protocol : url.host, onThisComputer: loopback.has(url.hostname) }
  } catch {
    return { host: redirectUri, onThisComputer: false }
  }
}
