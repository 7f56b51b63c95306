import { Effect, FileSystem, Layer, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { createHash } from "node:crypto"
import { join, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib"
import { ApiError } from "@herald/api"

// The web console (apps/console, built by Vite into apps/console/dist) at `/app`: a single-page app whose
// hashed assets never change under their name, so they are cached for a year, while index.html (the SPA
// fallback for every other /app path) is revalidated on each load so a new build is picked up at once.
// Every answer carries a Content-Security-Policy allowing Herald's own origin only
// ([decision 0023](../../../../docs/decisions/0023-the-console-s-client-and-how-it-is-served.md)).

/** Where `pnpm install` builds the console. */
export const defaultDist = fileURLToPath(new URL("../../../console/dist", import.meta.url))

export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'"
].join("; ")

const securityHeaders = {
  "content-security-policy": contentSecurityPolicy,
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin"
}

const immutable = "public, max-age=31536000, immutable"
const revalidate = "no-cache"

const contentTypes: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json; charset=utf-8",
  map: "application/json; charset=utf-8",
  webmanifest: "application/manifest+json; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  svg: "image/svg+xml; charset=utf-8",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  ico: "image/x-icon",
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  otf: "font/otf"
}

const extension = (name: string) => name.slice(name.lastIndexOf(".") + 1).toLowerCase()
const contentTypeOf = (name: string) => contentTypes[extension(name)] ?? "application/octet-stream"
const compressible = (contentType: string) => /^text\/|^application\/(json|manifest)|^image\/svg/.test(contentType)

const decode = Option.liftThrowable(decodeURIComponent)

/**
 * The file names below /app a request path asks for, decoded, or undefined when a segment is a dot segment
 * or decodes to a separator or NUL (or is not UTF-8): no request reaches outside the dist folder.
 */
const segmentsOf = (pathname: string): ReadonlyArray<string> | undefined => {
  const rest = pathname.slice("/app/".length)
  if (rest === "") return []
  const segments: Array<string> = []
  for (const raw of rest.split("/")) {
    const segment = Option.getOrUndefined(decode(raw))
    if (segment === undefined || segment === "." || segment === ".." || /[/\\\0]/.test(segment)) return undefined
    if (segment !== "") segments.push(segment)
  }
  return segments
}

interface Encoded {
  readonly body: Uint8Array
  readonly etag: string
}

interface Loaded {
  readonly stamp: string
  readonly identity: Encoded
  readonly gzip: Encoded | undefined
  readonly br: Encoded | undefined
}

const notBuilt = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Herald: the console is not built</title></head>
<body>
<h1>The console is not built yet</h1>
<p>Herald serves its web console from <code>apps/console/dist</code>, which the install command builds:</p>
<pre>npx -y pnpm@12.21.0 install</pre>
<p>Run it in Herald's folder, then reload this page. The REST API at <a href="/docs">/docs</a> works meanwhile.</p>
</body>
</html>
`

/**
 * The console's routes, for `Http.routes`, serving the build in `dist`. Files are read once per change
 * (their size and time stamp) and kept in memory with their gzip and brotli forms: a build is a few
 * hundred kilobytes.
 */
export const layer = (dist: string = defaultDist) => {
  const cache = new Map<string, Loaded>()

  const load = Effect.fnUntraced(function*(file: string) {
    const fs = yield* FileSystem.FileSystem
    const info = yield* fs.stat(file).pipe(Effect.option)
    if (Option.isNone(info) || info.value.type !== "File") return Option.none<Loaded>()
    const stamp = `${info.value.size}-${Option.getOrUndefined(info.value.mtime)?.getTime() ?? 0}`
    const cached = cache.get(file)
    if (cached !== undefined && cached.stamp === stamp) return Option.some(cached)
    const body = yield* fs.readFile(file).pipe(Effect.option)
    if (Option.isNone(body)) return Option.none<Loaded>()
    const hash = createHash("sha256").update(body.value).digest("base64url").slice(0, 22)
    const compress = compressible(contentTypeOf(file)) && body.value.byteLength > 1024
    // The build writes `<file>.br` and `<file>.gz` at the highest settings (apps/console/scripts/build.ts);
    // without them (a build by other means) the forms are made here at fast settings, so the first request
    // after a start does not wait for brotli's slowest quality.
    const made = (suffix: string, make: (body: Uint8Array) => Uint8Array) =>
      Effect.map(
        fs.readFile(`${file}${suffix}`).pipe(Effect.orElseSucceed(() => make(body.value))),
        (bytes): Encoded => ({ body: bytes, etag: `"${hash}-${suffix.slice(1)}"` })
      )
    const loaded: Loaded = {
      stamp,
      identity: { body: body.value, etag: `"${hash}"` },
      gzip: compress ? yield* made(".gz", (bytes) => gzipSync(bytes, { level: 6 })) : undefined,
      br: compress
        ? yield* made(".br", (bytes) => brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }))
        : undefined
    }
    cache.set(file, loaded)
    return Option.some(loaded)
  })

  const send = (request: HttpServerRequest.HttpServerRequest, name: string, file: Loaded, cacheControl: string) => {
    const accepted = (request.headers["accept-encoding"] ?? "").toLowerCase()
    const [encoding, encoded] = file.br !== undefined && /\bbr\b/.test(accepted)
      ? ["br", file.br] as const
      : file.gzip !== undefined && /\bgzip\b/.test(accepted)
      ? ["gzip", file.gzip] as const
      : [undefined, file.identity] as const
    const headers: Record<string, string> = {
      ...securityHeaders,
      "cache-control": cacheControl,
      etag: encoded.etag,
      ...(file.gzip === undefined ? {} : { vary: "Accept-Encoding" }),
      ...(encoding === undefined ? {} : { "content-encoding": encoding })
    }
    const known = request.headers["if-none-match"]?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === encoded.etag)
    if (known === true) return HttpServerResponse.empty({ status: 304, headers })
    return HttpServerResponse.uint8Array(request.method === "HEAD" ? new Uint8Array() : encoded.body, {
      contentType: contentTypeOf(name),
      headers
    })
  }

  const notFound = (message: string) =>
    HttpServerResponse.jsonUnsafe(ApiError.body("not_found", message), {
      status: 404,
      headers: { ...securityHeaders, "cache-control": revalidate }
    })

  const toApp = HttpServerResponse.redirect("/app/", { status: 302, headers: securityHeaders })
  const serve = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const pathname = request.url.split("?")[0] ?? ""
    // The router's `/app/*` covers `/app` too; the console's pages are all below `/app/`.
    if (pathname === "/app") return toApp
    const segments = segmentsOf(pathname)
    if (segments === undefined) return notFound(`No console file ${pathname}`)
    const index = yield* load(join(dist, "index.html"))
    if (Option.isNone(index)) {
      return HttpServerResponse.text(notBuilt, {
        status: 503,
        contentType: "text/html; charset=utf-8",
        headers: { ...securityHeaders, "cache-control": revalidate }
      })
    }
    if (segments.length === 0) return send(request, "index.html", index.value, revalidate)
    const file = join(dist, ...segments)
    if (!file.startsWith(join(dist, sep))) return notFound(`No console file ${pathname}`)
    const found = yield* load(file)
    // Hashed assets: present for good, or missing (an old page asking for a previous build's file).
    if (segments[0] === "assets") {
      return Option.isSome(found) ? send(request, file, found.value, immutable) : notFound(`No console file ${pathname}`)
    }
    if (Option.isSome(found)) return send(request, file, found.value, revalidate)
    // Every other path is a page of the console's router.
    return send(request, "index.html", index.value, revalidate)
  })

  return Layer.mergeAll(
    HttpRouter.add("GET", "/", toApp),
    HttpRouter.add("GET", "/app/*", serve)
  )
}
