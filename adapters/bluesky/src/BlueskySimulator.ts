import { Simulator, SimulatorPage, SimulatorState } from "@herald/adapter-kit"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, type HttpServerResponse } from "effect/http"
import * as Atproto from "./internal/atproto.ts"
import * as Rules from "./BlueskyRules.ts"
import * as Lexicon from "./internal/lexicon.ts"
import { cidOf, PdsState, received } from "./internal/pds.ts"
import * as Feed from "./internal/simulatorFeed.ts"
import {
  collection,
  didOf,
  idOfDid,
  invalid,
  rateLimited,
  type Ref,
  refuse,
  revoked,
  rkeyOf,
  type StoredBlob,
  uriOf,
  xrpcError
} from "./internal/simulatorXrpc.ts"

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
export { didOf }

export const simulator: Simulator.Make = ({ baseUrl }) => {
  const state = new PdsState(network)
  // Access JWTs last about two hours.
  state.accessTokenMillis = 2 * 60 * 60 * 1000
  const blobs = state.table<StoredBlob>("blobs")

  const authenticated = Simulator.authenticated(state, refuse)

  const sessionOf = (grant: SimulatorState.Grant) => {
    const account = state.accounts.get(grant.accountId)!
    return { did: didOf(account.id), handle: account.username, accessJwt: grant.accessToken, refreshJwt: grant.refreshToken, active: true }
  }

  const { getPosts, listNotifications, permalink } = Feed.make({ baseUrl, state })

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
