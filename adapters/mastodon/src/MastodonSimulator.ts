import { Simulator, SimulatorPage, SimulatorState } from "@herald/adapter-kit"
import { Clock, Effect, Schema } from "effect"
import { HttpRouter, HttpServerRequest, type HttpServerResponse } from "effect/http"
import { randomBytes } from "node:crypto"
import { defaults } from "./MastodonLimits.ts"
import { scopes as heraldScopes } from "./MastodonAdapter.ts"
import * as Rules from "./MastodonRules.ts"
import * as Errors from "./internal/errors.ts"
import * as Statuses from "./internal/simulatorStatuses.ts"
import { InstanceState, type InstanceSettings, makeViews } from "./internal/simulatorViews.ts"

/**
 * A Mastodon instance as Herald's sandbox serves it, under the simulator's root: app registration
 * (`POST /api/v1/apps`), OAuth with PKCE (any registered app, or the sandbox's own `sandbox-…` client), the
 * REST methods the adapter calls with Mastodon's shapes and errors (`{ "error": "..." }`), media processed
 * after upload (an image at once, a video after its first check), statuses with `Idempotency-Key`, each
 * request held to the rules of `MastodonRules.ts` and refused in Mastodon's words, and
 * `/api/v2/instance` with the limits `POST /_control/instance` sets (a stock instance's by default). People's
 * replies (the kit's control routes) are mentions; their direct messages are conversations. Status pages
 * at `/@<username>/<id>`, as Mastodon links them.
 */

const network = "mastodon"

const error = (status: number, message: string) => Simulator.json({ error: message }, status)

const InstanceChange = Schema.Struct({
  maxCharacters: Schema.optional(Schema.Int.check(Schema.isGreaterThan(0))),
  maxMedia: Schema.optional(Schema.Int.check(Schema.isGreaterThan(0))),
  imageBytes: Schema.optional(Schema.Int.check(Schema.isGreaterThan(0))),
  videoBytes: Schema.optional(Schema.Int.check(Schema.isGreaterThan(0))),
  altCharacters: Schema.optional(Schema.Int.check(Schema.isGreaterThan(0)))
})

export const simulator: Simulator.Make = ({ baseUrl }) => {
  const state = new InstanceState(network, new URL(baseUrl).host)
  // Mastodon's tokens do not expire (the kit's `expire` still ends them, for tests).
  state.accessTokenMillis = 100 * 365 * 24 * 60 * 60 * 1000
  const apps = state.table<{ readonly secret: string; readonly redirectUris: ReadonlyArray<string>; readonly scopes: ReadonlyArray<string> }>("apps")
  const settings = state.table<InstanceSettings>("instance")
  const views = makeViews(state, baseUrl)
  const instance = () => settings.get("limits") ?? defaults

  const authenticated = <R>(
    handle: (account: SimulatorState.SimulatedAccount) => Effect.Effect<HttpServerResponse.HttpServerResponse, never, R>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R | HttpServerRequest.HttpServerRequest> =>
    Effect.flatMap(Simulator.accessToken, (token) => {
      const check = state.check(token)
      if (check._tag === "Valid") return handle(check.account)
      // https://docs.joinmastodon.org/entities/Error/: a 401 names what is wrong with the token, in Doorkeeper's words.
      return Effect.succeed(error(
        401,
        check._tag === "Expired" ? Errors.invalidToken.expired : check._tag === "Revoked" ? Errors.invalidToken.revoked : Errors.invalidToken.unknown
      ))
    })

  const registerApp = Effect.map(Simulator.formOrJson, (form) => {
    const redirectUris = (form["redirect_uris"] ?? "").split(/\s+/).filter((uri) => uri !== "")
    if (form["client_name"] === undefined || redirectUris.length === 0) {
      return error(422, "Validation failed: Application name can't be blank, Redirect URI can't be blank")
    }
    const scopes = (form["scopes"] ?? "read").split(/\s+/).filter((scope) => scope !== "")
    const clientId = randomBytes(16).toString("base64url")
    const secret = randomBytes(24).toString("base64url")
    apps.set(clientId, { secret, redirectUris, scopes })
    return Simulator.json({
      id: state.id(),
      name: form["client_name"],
      website: form["website"] ?? null,
      redirect_uri: redirectUris.join("\n"),
      client_id: clientId,
      client_secret: secret,
      scopes
    })
  })

  /** A registered app, or the sandbox's own client (the kit's suite and the sandbox without a registration). */
  const appOf = (clientId: string | undefined) =>
    clientId === undefined ? undefined : apps.get(clientId) ?? (clientId.startsWith("sandbox-")
      ? { secret: "sandbox-secret", redirectUris: [] as ReadonlyArray<string>, scopes: heraldScopes as ReadonlyArray<string> }
      : undefined)

  const authorize = Effect.flatMap(Simulator.query, (params) => {
    const app = appOf(params["client_id"])
    if (app === undefined) return Effect.succeed(error(401, "Client authentication failed due to unknown client"))
    const redirectUri = params["redirect_uri"] ?? ""
    if (app.redirectUris.length > 0 && !app.redirectUris.includes(redirectUri)) {
      return Effect.succeed(error(400, "The redirect uri included is not valid."))
    }
    const asked = (params["scope"] ?? "read").split(/\s+/)
    if (asked.some((scope) => !app.scopes.includes(scope))) {
      return Effect.succeed(error(400, "The requested scope is invalid, unknown, or malformed."))
    }
    if (params["code_challenge"] !== undefined && params["code_challenge_method"] !== "S256") {
      return Effect.succeed(error(400, "Code challenge method must be S256"))
    }
    return Simulator.authorize(state)
  })

  const token = Effect.map(Effect.zip(Simulator.formOrJson, Clock.currentTimeMillis), ([form, now]) => {
    const app = appOf(form["client_id"])
    if (app === undefined || form["client_secret"] !== app.secret) return error(401, "Client authentication failed due to unknown client")
    if (form["grant_type"] !== "authorization_code") return error(400, "The authorization grant type is not supported")
    const grant = Simulator.redeem(state, { code: form["code"], redirectUri: form["redirect_uri"], verifier: form["code_verifier"] })
    if (grant === undefined) return error(400, "The provided authorization grant is invalid, expired, revoked, or does not match the redirection URI")
    return Simulator.json({ access_token: grant.accessToken, token_type: "Bearer", scope: form["scope"] ?? "read", created_at: Math.floor(now / 1000) })
  })

  const verifyCredentials = authenticated((account) => Effect.succeed(Simulator.json(views.ofAccount(account.id))))

  const instanceInfo = Effect.sync(() => {
    const limits = instance()
    return Simulator.json({
      domain: new URL(baseUrl).host,
      title: "Herald sandbox",
      version: "4.3.0",
      configuration: {
        statuses: { max_characters: limits.maxCharacters, max_media_attachments: limits.maxMedia, characters_reserved_per_url: 23 },
        media_attachments: {
          supported_mime_types: [...Rules.mimeTypes.image, ...Rules.mimeTypes.video, ...Rules.mimeTypes.audio],
          image_size_limit: limits.imageBytes,
          video_size_limit: limits.videoBytes,
          description_limit: limits.altCharacters
        },
        polls: {
          max_options: Rules.polls.maxOptions,
          max_characters_per_option: Rules.polls.maxCharactersPerOption,
          min_expiration: Rules.polls.minExpiration,
          max_expiration: Rules.polls.maxExpiration
        }
      }
    })
  })

  /** Changes the instance's limits (what `/api/v2/instance` answers and what statuses are checked against). */
  const changeInstance = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.map(Effect.orElseSucceed(request.json, () => null), (body) => {
      const change = Schema.decodeUnknownOption(InstanceChange)(body)
      if (change._tag === "None") {
        return Simulator.json({ error: { code: "invalid", message: "The JSON body takes maxCharacters, maxMedia, imageBytes, videoBytes and altCharacters, each a positive whole number" } }, 400)
      }
      const next = { ...instance(), ...Object.fromEntries(Object.entries(change.value).filter(([, value]) => value !== undefined)) }
      settings.set("limits", next)
      return Simulator.json(next)
    }))

  const statuses = Statuses.routes({ state, baseUrl, views, instance, authenticated, error })

  return {
    network,
    state,
    routes: [
      HttpRouter.route("POST", "/api/v1/apps", registerApp),
      HttpRouter.route("GET", "/oauth/authorize", authorize),
      HttpRouter.route("POST", "/oauth/token", token),
      HttpRouter.route("GET", "/api/v1/accounts/verify_credentials", verifyCredentials),
      HttpRouter.route("GET", "/api/v2/instance", instanceInfo),
      HttpRouter.route("POST", "/_control/instance", changeInstance),
      ...statuses,
      ...Simulator.controlRoutes(state),
      ...SimulatorPage.routes(["/:handle/:id"], {
        network: "Mastodon",
        state,
        baseUrl,
        page: (post) =>
          post.replyTo !== undefined && state.posts.has(post.replyTo)
            ? undefined
            : SimulatorPage.ofPost(state, post, {
              network: "Mastodon",
              parts: SimulatorPage.threadParts(state, post)
            })
      })
    ]
  }
}
