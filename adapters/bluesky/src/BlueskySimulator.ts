import { Simulator, SimulatorPage, SimulatorState } from "@herald/adapter-kit"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import * as Atproto from "./internal/atproto.ts"
import * as Rules from "./BlueskyRules.ts"
import * as Lexicon from "./internal/lexicon.ts"
import { cidOf, PdsState, received } from "./internal/pds.ts"

/**
 * A Bluesky PDS as Herald's sandbox serves it, under the simulator's root: the XRPC methods the adapter calls
 * (`/xrpc/<nsid>`, https://docs.bsky.app/docs/api/at-protocol-xrpc-api) with their shapes and XRPC errors
 * (`{ error, message }`), every request held to the PDS's rules (`BlueskyRules.ts`: each record checked
 * against Bluesky's official lexicons, each blob against the lexicon's `accept` and `maxSize` and what was
 * uploaded), app-password sessions (any app password
 * signs a handle in, `wrong` is refused) whose refresh JWT works once, as Bluesky rotates it. An account's
 * DID is its id (`internal/pds.ts`);
 * posts are the state's posts keyed by their `at://` URI, with their record kept in `details`. People's
 * replies (the kit's control routes) are the state's comments, read back as `reply` notifications (and
 * other sandbox accounts' posts that mention the account as `mention` ones), answered with reply records. Post pages at `/profile/<handle>/post/<rkey>`, as bsky.app links them.
 */

const network = "bluesky"
const collection = "app.bsky.feed.post"

const xrpcError = (status: number, error: string, message: string) => Simulator.json({ error, message }, status)
/** The PDS's answer over a rate limit: 429 with the window's end in `ratelimit-reset`, epoch seconds. */
const rateLimited = () =>
  xrpcError(429, "RateLimitExceeded", "Rate Limit Exceeded").pipe(
    HttpServerResponse.setHeader("ratelimit-reset", String(Math.ceil((Date.now() + SimulatorState.rateLimitResetMs) / 1000)))
  )

const invalid = (message: string) => xrpcError(400, "InvalidRequest", message)
const expired = () => xrpcError(400, "ExpiredToken", "Token has expired")
const revoked = () => xrpcError(401, "InvalidToken", "Token has been revoked")
const unknownToken = () => xrpcError(401, "AuthenticationRequired", "Authentication Required")

export const didOf = (id: string) => id
const idOfDid = (did: string) => did

const uriOf = (did: string, rkey: string) => `at://${did}/${collection}/${rkey}`
const rkeyOf = (uri: string) => uri.slice(uri.lastIndexOf("/") + 1)

interface StoredBlob extends Rules.StoredBlob {
  readonly accountId: string
}

interface Ref {
  readonly uri: string
  readonly cid: string
}

/** A post as the app view answers it. */
interface Found extends Ref {
  readonly author: { readonly did: string; readonly handle: string }
  readonly record: Record<string, unknown>
}

export const simulator: Simulator.Make = ({ baseUrl }) => {
  const state = new PdsState(network)
  // Access JWTs last about two hours.
  state.accessTokenMillis = 2 * 60 * 60 * 1000
  const blobs = state.table<StoredBlob>("blobs")

  const refuse = (check: SimulatorState.TokenCheck) =>
    check._tag === "Expired" ? expired() : check._tag === "Revoked" ? revoked() : unknownToken()

  const authenticated = <R>(
    handle: (account: SimulatorState.SimulatedAccount) => Effect.Effect<HttpServerResponse.HttpServerResponse, never, R>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R | HttpServerRequest.HttpServerRequest> =>
    Effect.flatMap(Simulator.accessToken, (token) => {
      const check = state.check(token)
      return check._tag === "Valid" ? handle(check.account) : Effect.succeed(refuse(check))
    })

  const sessionOf = (grant: SimulatorState.Grant) => {
    const account = state.accounts.get(grant.accountId)!
    return { did: didOf(account.id), handle: account.username, accessJwt: grant.accessToken, refreshJwt: grant.refreshToken, active: true }
  }

  const permalink = (handle: string, uri: string) => `${baseUrl}/profile/${handle}/post/${rkeyOf(uri)}`

  /** A post or a comment by its URI, as a strong ref with its author and record. */
  const lookup = (uri: string): Found | undefined => {
    const post = state.posts.get(uri)
    if (post !== undefined) {
      const account = state.accounts.get(post.accountId)
      return {
        uri,
        cid: String(post.details["cid"]),
        author: { did: didOf(post.accountId), handle: account?.username ?? "" },
        record: post.details["record"] as Record<string, unknown>
      }
    }
    const comment = state.comments.get(rkeyOf(uri))
    if (comment === undefined || uriOf(didOf(comment.author.id), comment.id) !== uri) return undefined
    return { uri, cid: cidOf("dag-cbor", uri), author: { did: didOf(comment.author.id), handle: comment.author.username }, record: commentRecord(comment) }
  }

  /** A comment's `app.bsky.feed.post` record: a reply in the thread of the post it is on. */
  const commentRecord = (comment: SimulatorState.SimulatedComment): Record<string, unknown> => {
    const root = lookup(comment.postId)
    const parentUri = comment.replyTo === null ? comment.postId : commentUri(comment.replyTo)
    return {
      $type: collection,
      text: comment.text,
      createdAt: comment.createdAt,
      reply: {
        root: { uri: comment.postId, cid: root?.cid ?? cidOf("dag-cbor", comment.postId) },
        parent: { uri: parentUri, cid: state.posts.has(parentUri) ? String(state.posts.get(parentUri)!.details["cid"]) : cidOf("dag-cbor", parentUri) }
      }
    }
  }

  const commentUri = (id: string) => {
    const comment = state.comments.get(id)
    return comment === undefined ? id : uriOf(didOf(comment.author.id), comment.id)
  }

  const body = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.orElseSucceed(request.json, () => ({}) as unknown))

  const createSession = Effect.map(body, (input) => {
    const { identifier, password } = (input ?? {}) as { identifier?: unknown; password?: unknown }
    if (typeof identifier !== "string" || identifier === "" || typeof password !== "string" || password === "") {
      return invalid("Input must have the properties \"identifier\" and \"password\"")
    }
    // Any app password signs in; `wrong` stands for a mistyped one.
    if (password === "wrong") return xrpcError(401, "AuthenticationRequired", "Invalid identifier or password")
    const account = state.consent(identifier.replace(/^@/, ""))
    // Through a code, as the kit's consent does, so a sign-in after a revocation is a new grant whose refresh
    // JWT works again.
    const grant = state.redeemCode(state.issueCode(account.id, "app-password", undefined), "app-password", () => true)!
    return Simulator.json(sessionOf(grant))
  })

  const refreshSession = Effect.map(Simulator.accessToken, (token) => {
    if (token === undefined) return xrpcError(400, "ExpiredToken", "Token has been revoked")
    // Bluesky rotates refresh JWTs, as the kit's state does: a spent one is refused.
    const grant = state.refresh(token)
    if (grant === undefined) return xrpcError(400, "ExpiredToken", "Token has been revoked")
    return Simulator.json(sessionOf(grant))
  })

  const getSession = authenticated((account) =>
    Effect.succeed(Simulator.json({ did: didOf(account.id), handle: account.username, active: true })))

  const getProfile = authenticated(() =>
    Effect.map(Simulator.query, (query) => {
      const actor = query["actor"] ?? ""
      const account = state.accounts.get(idOfDid(actor)) ?? state.accountByUsername(actor)
      if (account === undefined) return invalid("Profile not found")
      return Simulator.json({
        did: didOf(account.id),
        handle: account.username,
        displayName: account.displayName,
        avatar: `${baseUrl}/avatar/${account.id}.jpg`
      })
    }))

  const resolveHandle = Effect.map(Simulator.query, (query) => {
    const account = state.accountByUsername(query["handle"] ?? "")
    return account === undefined ? invalid("Unable to resolve handle") : Simulator.json({ did: didOf(account.id) })
  })

  /** A broken rule of the table, answered as the PDS answers it. */
  const refused = (refusal: { readonly status: number; readonly error: string; readonly message: string }) =>
    xrpcError(refusal.status, refusal.error, refusal.message)

  const uploadBlob = authenticated((account) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      // The PDS takes blobs up to its own limit (`blobUploadLimit`); the sandbox's is the largest blob a post
      // may hold. A declared length past it is refused before reading, a body that runs past it as it streams.
      const most = Lexicon.largestBlob(yield* Atproto.load)
      const encoding = request.headers["content-type"]
      const declared = Number(request.headers["content-length"])
      const before = Rules.refusal(Rules.upload, { encoding, bytes: Number.isFinite(declared) ? declared : 0, most })
      if (before !== undefined) return refused(before)
      const upload = yield* received(request, most)
      const after = Rules.refusal(Rules.upload, { encoding, bytes: upload?.size ?? most + 1, most })
      if (after !== undefined || upload === undefined) return refused(after!)
      const mimeType = encoding!
      blobs.set(upload.cid, { mimeType, size: upload.size, accountId: account.id })
      return Simulator.json({ blob: { $type: "blob", ref: { $link: upload.cid }, mimeType, size: upload.size } })
    }))

  const createRecord = authenticated((account) =>
    Effect.gen(function*() {
      const input = yield* body
      const library = yield* Atproto.load
      const refusal = Rules.refusal(Rules.create, {
        library,
        body: input,
        session: { did: didOf(account.id), handle: account.username },
        hasAccount: (repo) => state.accounts.has(idOfDid(repo)) || state.accountByUsername(repo) !== undefined,
        uploaded: (cid) => {
          const stored = blobs.get(cid)
          return stored?.accountId === account.id ? stored : undefined
        }
      })
      if (refusal !== undefined) return refused(refusal)
      // What the sandbox keeps: posts, with images or a video. A PDS takes other records and embeds as well.
      const collectionName = (input as { readonly collection: string }).collection
      if (collectionName !== collection) return invalid(`The sandbox keeps ${collection} records only, not ${collectionName}`)
      const record = Rules.recordOf(input)
      const media = record["embed"] === undefined ? [] : Lexicon.blobsOf(library, record["embed"])
      if (media === undefined) return invalid(`The sandbox keeps posts with images or a video only, not ${String((record["embed"] as { $type?: unknown }).$type)}`)
      const text = String(record["text"])
      // A reply's refs are strong refs, as the lexicon holds them; the PDS takes a reply to a post it does not know.
      const reply = record["reply"] as { readonly root: Ref; readonly parent: Ref } | undefined
      switch (text === "" ? undefined : state.trigger(text, account.id)) {
        case "fail":
          return invalid(SimulatorState.refusal(text))
        case "flaky":
          return xrpcError(503, "InternalServerError", "Internal Server Error")
        case "rate-limit":
          return rateLimited()
        case "revoke":
          return revoked()
      }
      const did = didOf(account.id)
      const parentUri = reply?.parent.uri
      const answered = parentUri === undefined || state.posts.has(parentUri) ? undefined : state.comments.get(rkeyOf(parentUri))
      if (answered !== undefined) {
        // A reply to someone's reply is kept as a comment by the account, so the post's page shows it.
        const comment = state.addComment({
          accountId: account.id,
          author: { id: did, username: account.username },
          text,
          postId: answered.postId,
          replyTo: answered.id
        })
        const uri = uriOf(did, comment.id)
        return Simulator.json({ uri, cid: cidOf("dag-cbor", uri) })
      }
      const rkey = state.id()
      const uri = uriOf(did, rkey)
      const cid = cidOf("dag-cbor", uri)
      state.record({
        id: uri,
        accountId: account.id,
        text,
        // Where the blob would be served (`com.atproto.sync.getBlob`), its kind in the extension for the page.
        media: media.map(({ cid: blobCid }) => `${baseUrl}/blob/${blobCid}.${blobs.get(blobCid)!.mimeType.startsWith("video/") ? "mp4" : "jpg"}`),
        replyTo: parentUri,
        url: permalink(account.username, uri),
        details: { cid, record }
      })
      return Simulator.json({ uri, cid, validationStatus: "valid" })
    }))

  const listRecords = authenticated(() =>
    Effect.map(Simulator.query, (query) => {
      const repo = query["repo"] ?? ""
      const account = state.accounts.get(idOfDid(repo)) ?? state.accountByUsername(repo)
      if (account === undefined) return invalid(`Could not find repo: ${repo}`)
      if (query["collection"] !== collection) return Simulator.json({ records: [] })
      const limit = Math.min(100, Math.max(1, Number(query["limit"] ?? 50) || 50))
      const offset = Number(query["cursor"] ?? 0) || 0
      const posts = state.postsOf(account.id)
      const page = posts.slice(offset, offset + limit)
      return Simulator.json({
        records: page.map((post) => ({ uri: post.id, cid: post.details["cid"], value: post.details["record"] })),
        ...(offset + limit < posts.length ? { cursor: String(offset + limit) } : {})
      })
    }))

  const getPosts = authenticated(() =>
    Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
      const uris = new URL(request.url, "http://simulator").searchParams.getAll("uris")
      if (uris.length > 25) return invalid("uris must not have more than 25 elements")
      // The app view leaves out posts it cannot find.
      return Simulator.json({ posts: uris.flatMap((uri) => lookup(uri) ?? []).map((post) => ({ ...post, indexedAt: post.record["createdAt"] })) })
    }))

  /** Whether a post's record mentions the account (a `#mention` facet with its DID). */
  const mentions = (post: SimulatorState.SimulatedPost, did: string) => {
    const facets = (post.details["record"] as { facets?: ReadonlyArray<{ features?: ReadonlyArray<Record<string, unknown>> }> })?.facets
    return (facets ?? []).some((facet) =>
      (facet.features ?? []).some((feature) => feature["$type"] === "app.bsky.richtext.facet#mention" && feature["did"] === did)
    )
  }

  /**
   * People's replies to the account (the state's comments) and other accounts' posts that mention it, newest
   * first. Both are ordered by a number from the clock (a comment's `seq`, a post's `createdAt`); `cursor` is
   * the one to read below.
   */
  const listNotifications = authenticated((account) =>
    Effect.map(Simulator.query, (query) => {
      const limit = Math.min(100, Math.max(1, Number(query["limit"] ?? 50) || 50))
      const below = query["cursor"] === undefined ? Number.POSITIVE_INFINITY : Number(query["cursor"])
      const did = didOf(account.id)
      const replies = state.commentsAfter(account.id, 0)
        .filter((comment) => comment.author.id !== did)
        .map((comment) => {
          const uri = uriOf(didOf(comment.author.id), comment.id)
          return {
            at: comment.seq,
            notification: {
              uri,
              cid: cidOf("dag-cbor", uri),
              author: { did: didOf(comment.author.id), handle: comment.author.username, displayName: comment.author.name ?? undefined },
              reason: "reply",
              reasonSubject: comment.replyTo === null ? comment.postId : commentUri(comment.replyTo),
              record: commentRecord(comment),
              isRead: false,
              indexedAt: comment.createdAt,
              labels: []
            }
          }
        })
      const mentioned = [...state.posts.values()]
        .filter((post) => post.accountId !== account.id && mentions(post, did))
        .map((post) => ({
          at: post.createdAt,
          notification: {
            uri: post.id,
            cid: String(post.details["cid"]),
            author: { did: didOf(post.accountId), handle: state.accounts.get(post.accountId)?.username ?? "" },
            reason: "mention",
            record: post.details["record"],
            isRead: false,
            indexedAt: new Date(post.createdAt).toISOString(),
            labels: []
          }
        }))
      const all = [...replies, ...mentioned].filter((entry) => entry.at < below).sort((a, b) => b.at - a.at)
      const page = all.slice(0, limit)
      return Simulator.json({
        notifications: page.map((entry) => entry.notification),
        ...(all.length > limit ? { cursor: String(page[page.length - 1]!.at) } : {})
      })
    }))

  const xrpc = (method: "GET" | "POST", nsid: string, handler: Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>) =>
    HttpRouter.route(method, `/xrpc/${nsid}`, handler)

  return {
    network,
    state,
    routes: [
      xrpc("POST", "com.atproto.server.createSession", createSession),
      xrpc("POST", "com.atproto.server.refreshSession", refreshSession),
      xrpc("GET", "com.atproto.server.getSession", getSession),
      xrpc("GET", "app.bsky.actor.getProfile", getProfile),
      xrpc("GET", "com.atproto.identity.resolveHandle", resolveHandle),
      xrpc("POST", "com.atproto.repo.uploadBlob", uploadBlob),
      xrpc("POST", "com.atproto.repo.createRecord", createRecord),
      xrpc("GET", "com.atproto.repo.listRecords", listRecords),
      xrpc("GET", "app.bsky.feed.getPosts", getPosts),
      xrpc("GET", "app.bsky.notification.listNotifications", listNotifications),
      ...Simulator.controlRoutes(state),
      ...SimulatorPage.routes(["/profile/:handle/post/:rkey"], {
        network: "Bluesky",
        state,
        baseUrl,
        page: (post) =>
          post.replyTo !== undefined && state.posts.has(post.replyTo)
            ? undefined
            : SimulatorPage.ofPost(state, post, {
              network: "Bluesky",
              parts: SimulatorPage.threadParts(state, post)
            })
      })
    ]
  }
}
